import { useTranslation } from "react-i18next";
import { Card } from "./card";
import { errorCode, type AnswerProblem, type ShopperPageDisplay } from "./view";

/** The form's field a problem is about, to link to it from the summary. */
const FIELD_IDS: Record<string, string> = {
  areaId: "fix-area",
  governanceId: "fix-area",
  block: "fix-block",
  street: "fix-street",
  avenue: "fix-avenue",
  house: "fix-house",
  building: "fix-building",
  floor: "fix-floor",
  apartment: "fix-apartment",
  paci: "fix-paci",
  notes: "fix-notes",
  phone: "fix-phone",
  whenDay: "when-day",
  whenPart: "when-part",
  whenNote: "when-note",
  latitude: "fix-location",
  longitude: "fix-location",
  cashConfirmed: "cash-fix",
};

/** What the action refused: a summary at the top, where a page sent without JavaScript opens. */
export function ProblemCard({ problem }: { problem: AnswerProblem }) {
  const { t } = useTranslation("tracking");
  if (problem.refusal)
    return (
      <Card className="sp-alert">
        <p role="alert">{t(`refusal.${problem.refusal}`)}</p>
      </Card>
    );
  if (!problem.errors) return null;
  const fix = problem.values.intent === "fix" || problem.values.intent === "rescue";
  const listed = Object.entries(problem.errors).flatMap(([field, code]) => {
    const known = errorCode(code);
    return known ? [{ field, known }] : [];
  });
  return (
    <Card className="sp-alert" id="problem">
      <div role="alert">
        <p>{t("error.summary")}</p>
        <ul>
          {listed.map(({ field, known }) => (
            <li key={field}>
              {fix && FIELD_IDS[field] ? (
                <a href={`#${FIELD_IDS[field]}`}>{t(`error.${known}`)}</a>
              ) : (
                t(`error.${known}`)
              )}
            </li>
          ))}
        </ul>
      </div>
    </Card>
  );
}

function OrderLine({ page }: { page: ShopperPageDisplay }) {
  const { t } = useTranslation("tracking");
  if (!page.orderName && !page.trackingNumber) return null;
  return (
    <p className="sp-meta">
      {page.orderName && (
        <span className="sp-order">
          {t("order")}{" "}
          <b>
            <bdi translate="no">{page.orderName}</bdi>
          </b>
        </span>
      )}
      {page.trackingNumber && (
        <span className="sp-number">
          {t("number")}{" "}
          <b>
            <bdi translate="no">{page.trackingNumber}</bdi>
          </b>
        </span>
      )}
    </p>
  );
}

/** Where the order is, or what the shop asks, or thanks once answered. */
export function Headline({ page, done }: { page: ShopperPageDisplay; done: boolean }) {
  const { t } = useTranslation("tracking");
  if (done && page.answered) {
    const when = page.answered.when;
    return (
      <Card className="sp-thanks">
        <h1>{when ? t("thanks.rescue") : t(`thanks.${page.answered.kind}`)}</h1>
        <OrderLine page={page} />
        {when && (
          <p>
            <b>{t("thanks.when", { day: when.day, part: t(`rescue.parts.${when.part}`) })}</b>
          </p>
        )}
        {page.answered.kind !== "cash_only" && (
          <p>{when ? t("thanks.rescueNext") : t("thanks.next")}</p>
        )}
        {page.cash !== null && page.answered.cashConfirmed && (
          <p>
            <b>{t("thanks.cash", { amount: page.cash })}</b>
          </p>
        )}
        {page.canChange && <p>{t("thanks.stillChange")}</p>}
      </Card>
    );
  }
  const current = page.steps.find((s) => s.now)?.step;
  const question = page.canChange ? page.question : null;
  const rescue = page.canChange && page.secondChance !== null && page.question !== null;
  const title = rescue
    ? t("headline.secondChance")
    : question?.asksAddress
      ? t("headline.askAddress")
      : question?.asksCash
        ? t("headline.askCash")
        : page.refusal === "cancelled" && !page.trackingNumber
          ? t("headline.cancelled")
          : t(`headline.${current ?? "received"}`);
  return (
    <Card>
      <h1>{title}</h1>
      <OrderLine page={page} />
      {question && question.reasons.length > 0 && (
        <ul className="sp-list">
          {question.reasons.map((reason) => (
            <li key={reason}>
              {/* Why the area is in doubt, in the shopper's words, rather than "not sure". */}
              {question.doubt && (reason === "area_not_sure" || reason === "area_not_recognised")
                ? t(`doubt.${question.doubt.kind}`, question.doubt.params)
                : t(`reason.${reason}`)}
            </li>
          ))}
        </ul>
      )}
      {rescue && <p className="sp-soft">{t("rescue.intro")}</p>}
      {question?.answerBy && (
        <p className="sp-soft">{t("answerBy", { when: question.answerBy })}</p>
      )}
      {!question && page.outcome && <p className="sp-soft">{t(`outcome.${page.outcome}`)}</p>}
      {!question && page.answered && (
        <p className="sp-soft">{t("answeredAt", { when: page.answered.at })}</p>
      )}
    </Card>
  );
}
