import { useTranslation } from "react-i18next";
import { DAY_PARTS } from "../../domain/second-chance";
import { FieldError } from "./form-parts";
import type { AnswerProblem, ShopperPageDisplay } from "./view";

type Errors = NonNullable<AnswerProblem["errors"]>;

/**
 * After a failed attempt (issue 27): when the shopper will be in — one of the next working days
 * in Kuwait and a part of the day, as radio buttons the thumb reaches (no date picker, nothing
 * for the browser to format) — and a short note for the driver.
 */
export function WhenFields({
  days,
  values,
  errors,
}: {
  days: NonNullable<ShopperPageDisplay["secondChance"]>["days"];
  values: AnswerProblem["values"] | undefined;
  errors: Errors;
}) {
  const { t } = useTranslation("tracking");
  return (
    <div className="sp-when-fields">
      <fieldset
        className={errors.whenDay ? "sp-field sp-set bad" : "sp-field sp-set"}
        id="when-day"
        aria-describedby={errors.whenDay ? "when-day-error" : undefined}
      >
        <legend className="sp-label">{t("rescue.day")}</legend>
        <div className="sp-choices">
          {days.map((day, index) => (
            <label key={day.value} className="sp-choice">
              <input
                type="radio"
                name="whenDay"
                value={day.value}
                defaultChecked={values ? values.whenDay === day.value : index === 0}
                required
              />
              <span>{day.label}</span>
            </label>
          ))}
        </div>
        <FieldError id="when-day-error" code={errors.whenDay} />
      </fieldset>
      <fieldset
        className={errors.whenPart ? "sp-field sp-set bad" : "sp-field sp-set"}
        id="when-part"
        aria-describedby={errors.whenPart ? "when-part-error" : undefined}
      >
        <legend className="sp-label">{t("rescue.part")}</legend>
        <div className="sp-choices sp-choices-3">
          {DAY_PARTS.map((part) => (
            <label key={part} className="sp-choice">
              <input
                type="radio"
                name="whenPart"
                value={part}
                defaultChecked={values?.whenPart === part}
                required
              />
              <span>
                {t(`rescue.parts.${part}`)}
                <small>{t(`rescue.hours.${part}`)}</small>
              </span>
            </label>
          ))}
        </div>
        <FieldError id="when-part-error" code={errors.whenPart} />
      </fieldset>
      <div className={errors.whenNote ? "sp-field bad" : "sp-field"}>
        <label htmlFor="when-note">
          {t("rescue.note")} <small>({t("address.optional")})</small>
        </label>
        <input
          className="sp-input"
          id="when-note"
          name="whenNote"
          maxLength={200}
          defaultValue={values?.whenNote ?? ""}
          aria-invalid={errors.whenNote ? true : undefined}
          aria-describedby="when-note-hint"
        />
        <FieldError id="when-note-error" code={errors.whenNote} />
        <p className="sp-hint" id="when-note-hint">
          {t("rescue.noteHint")}
        </p>
      </div>
    </div>
  );
}
