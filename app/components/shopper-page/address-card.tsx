import { useTranslation } from "react-i18next";
import { AddressForm, ConfirmForm } from "./address-form";
import { Card, Row } from "./card";
import { ADDRESS_FIELDS, errorCode, type AnswerProblem, type ShopperPageDisplay } from "./view";

/** The address as the courier needs it, and while it may change: confirm it or fix it. */
export function AddressCard({
  page,
  problem,
}: {
  page: ShopperPageDisplay;
  problem: AnswerProblem | undefined;
}) {
  const { t } = useTranslation("tracking");
  const place = page.place;
  const question = page.canChange ? page.question : null;
  const askCash = question?.asksCash === true;
  const rescue = page.canChange && page.secondChance !== null;
  // Asked: the form is the question; answered: it stays behind "Fix my address".
  const rescueAsked = rescue && question !== null;
  const fixProblem =
    problem?.errors !== undefined &&
    (problem.values.intent === "fix" || problem.values.intent === "rescue");
  const openFix =
    rescueAsked ||
    fixProblem ||
    errorCode(problem?.errors?.form) === "confirm_needs_fix" ||
    (question?.asksAddress === true && !place?.complete);
  const confirmAddress =
    !rescue && page.canChange && question?.asksAddress === true && place?.complete;
  const confirmCash = page.canChange && askCash && !question?.asksAddress;
  return (
    <Card label={t("address.title")}>
      <h2>{t("address.title")}</h2>
      {place ? (
        <dl className="sp-addr">
          <dt>{t("address.governorate")}</dt>
          <dd>{place.governorate}</dd>
          <dt>{t("address.area")}</dt>
          <dd>{place.area}</dd>
          {ADDRESS_FIELDS.filter((part) => place.parts[part]).map((part) => (
            <Row key={part} label={t(`address.${part}`)} value={place.parts[part]!} />
          ))}
          {page.phone && <Row label={t("yourPhone")} value={page.phone} ltr />}
        </dl>
      ) : (
        page.phone && (
          <dl className="sp-addr">
            <Row label={t("yourPhone")} value={page.phone} ltr />
          </dl>
        )
      )}
      {page.typed && (!place || !place.complete) && (
        <p className="sp-typed">
          <span>{t("address.typed")}</span>
          <bdi translate="no">{page.typed}</bdi>
        </p>
      )}
      {page.canChange && !place && <p className="sp-warn">{t("address.unplaced")}</p>}
      {page.canChange && place && !place.complete && (
        <p className="sp-warn">{t("address.incomplete")}</p>
      )}
      {page.refusal && page.refusal !== "cancelled" && (
        <p className="sp-info sp-refusal">{t(`refusal.${page.refusal}`)}</p>
      )}
      {page.canChange && (
        <div className="sp-actions">
          {confirmAddress && (
            <ConfirmForm
              intent="confirm"
              label={t("address.confirm")}
              cash={askCash ? page.cash : null}
              problem={problem}
            />
          )}
          {confirmCash && page.cash !== null && (
            <ConfirmForm
              intent="cash"
              label={t("headline.askCash")}
              cash={page.cash}
              problem={problem}
            />
          )}
          {openFix ? (
            // Asked for what is missing: the form is the question, not a choice to open.
            <div className="sp-fix">
              <h3 className="sp-fix-title">
                {rescue ? t("rescue.formTitle") : t("address.fixTitle")}
              </h3>
              <AddressForm page={page} problem={problem} askCash={askCash} rescue={rescue} />
            </div>
          ) : (
            <details className="sp-fix">
              <summary className="sp-btn sp-btn-alt">{t("address.fix")}</summary>
              <AddressForm page={page} problem={problem} askCash={askCash} rescue={rescue} />
            </details>
          )}
        </div>
      )}
    </Card>
  );
}
