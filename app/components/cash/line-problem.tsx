import { Trans, useTranslation } from "react-i18next";
import type { LineProblem } from "../../domain/settlements";
import { translateMessage } from "../../i18n/messages";

/**
 * What is wrong with one line of a statement, in the page's language: each reason from its code,
 * with the statement's own text (a column's title, a cell) set apart as data. A problem recorded
 * without reasons is looked up as an English sentence.
 */
export function LineProblemText({ problem }: { problem: LineProblem }) {
  const { t } = useTranslation(["cash", "messages"]);
  if (!problem.reasons?.length) return <>{translateMessage(t, problem.problem)}</>;
  return (
    <>
      {problem.reasons.map((reason, i) => (
        <span key={i}>
          {i > 0 && " "}
          <Trans
            t={t}
            i18nKey={`cash:lineProblem.${reason.code}`}
            values={reason}
            components={{ data: <bdi translate="no" /> }}
          />
        </span>
      ))}
    </>
  );
}
