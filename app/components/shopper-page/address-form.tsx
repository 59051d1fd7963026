import { Form } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { AreaField } from "./area-field";
import { CashConfirmation, FieldError, SubmitButton } from "./form-parts";
import { LocationField } from "./location-field";
import { WhenFields } from "./when-fields";
import { errorCode, type AnswerProblem, type FormField, type ShopperPageDisplay } from "./view";

type Errors = NonNullable<AnswerProblem["errors"]>;

/** One tap: the address as shown is right (and, when asked, the cash will be ready). */
export function ConfirmForm({
  intent,
  label,
  cash,
  problem,
}: {
  intent: "confirm" | "cash";
  label: string;
  cash: string | null;
  problem: AnswerProblem | undefined;
}) {
  const { t } = useTranslation("tracking");
  const errors = problem?.values.intent === intent ? problem.errors : undefined;
  const formError = errorCode(errors?.form ?? errors?.intent);
  return (
    <Form method="post" className="sp-form" replace>
      <input type="hidden" name="intent" value={intent} />
      {cash !== null && (
        <CashConfirmation
          id={`cash-${intent}`}
          cash={cash}
          error={errors?.cashConfirmed}
          checked={problem?.values.intent === intent && problem.values.cashConfirmed === "yes"}
        />
      )}
      {formError && <p className="sp-err">{t(`error.${formError}`)}</p>}
      <SubmitButton intent={intent} label={label} />
    </Form>
  );
}

/**
 * "Fix my address": governorate → area → block, street, avenue, house or building, floor,
 * apartment, PACI, notes, another phone, the shopper's location. A plain form: without
 * JavaScript the areas are one list grouped by governorate; with it, the governorate filters the
 * list, a search box finds an area by any of its names in either language, and "use my location"
 * adds the phone's position.
 */
export function AddressForm({
  page,
  problem,
  askCash,
  rescue = false,
}: {
  page: ShopperPageDisplay;
  problem: AnswerProblem | undefined;
  askCash: boolean;
  /** After a failed attempt: when they will be in first, the phone, then the address. */
  rescue?: boolean;
}) {
  const { t } = useTranslation("tracking");
  const formRef = useRef<HTMLFormElement>(null);
  const intent = rescue ? "rescue" : "fix";
  const fromFix = problem?.values.intent === intent;
  const values = fromFix ? problem.values : undefined;
  const errors: Errors = (fromFix && problem.errors) || {};
  const initial = (field: FormField): string => {
    if (values) return values[field] ?? "";
    const parts = page.place?.parts as Record<string, string | null> | undefined;
    return parts?.[field] ?? "";
  };
  // What the shop asked about is marked on the empty fields that would answer it.
  const reasons: readonly string[] = page.question?.reasons ?? [];
  const both = reasons.includes("block_and_street_or_house");
  const needed = new Set<FormField>([
    ...(both || reasons.includes("block") ? (["block"] as const) : []),
    ...(both || reasons.includes("street_or_house") ? (["street", "house"] as const) : []),
  ]);
  // After a refused save (with JavaScript) the first field to fix gets the focus.
  useEffect(() => {
    if (problem?.errors && fromFix)
      formRef.current?.querySelector<HTMLElement>("[aria-invalid=true]")?.focus();
  }, [problem, fromFix]);

  const field = (
    name: FormField,
    options: {
      optional?: boolean;
      inputMode?: "numeric" | "tel" | "text";
      maxLength?: number;
      hint?: string;
      autoComplete?: string;
      type?: string;
    } = {},
  ) => {
    const id = `fix-${name}`;
    const error = errors[name];
    const described = [error && `${id}-error`, options.hint && `${id}-hint`].filter(Boolean);
    const need = needed.has(name) && initial(name) === "";
    return (
      <div className={error ? "sp-field bad" : "sp-field"}>
        <label htmlFor={id}>
          {rescue && name === "phone" ? t("rescue.phone") : t(`address.${name}`)}
          {options.optional && <small> ({t("address.optional")})</small>}
          {need && <small className="sp-needed"> ({t("address.needed")})</small>}
        </label>
        <input
          className={need ? "sp-input need" : "sp-input"}
          id={id}
          name={name}
          type={options.type ?? "text"}
          defaultValue={initial(name)}
          inputMode={options.inputMode}
          maxLength={options.maxLength ?? 60}
          autoComplete={options.autoComplete ?? "off"}
          aria-invalid={error ? true : undefined}
          aria-describedby={described.length > 0 ? described.join(" ") : undefined}
        />
        <FieldError id={`${id}-error`} code={error} />
        {options.hint && (
          <p className="sp-hint" id={`${id}-hint`}>
            {options.hint}
          </p>
        )}
      </div>
    );
  };

  const phone = field("phone", {
    optional: true,
    type: "tel",
    inputMode: "tel",
    maxLength: 30,
    autoComplete: "tel",
    hint: rescue
      ? page.phone
        ? t("rescue.phoneHint", { phone: page.phone })
        : t("rescue.phoneHintNone")
      : undefined,
  });
  return (
    <Form method="post" className="sp-form" id="fix" ref={formRef} replace>
      <input type="hidden" name="intent" value={intent} />
      {rescue && page.secondChance && (
        <>
          <WhenFields days={page.secondChance.days} values={values} errors={errors} />
          {phone}
          <h3 className="sp-fix-title">{t("rescue.addressTitle")}</h3>
        </>
      )}
      {page.choices && (
        <AreaField
          choices={page.choices}
          areaId={values ? (values.areaId ?? "") : page.place ? String(page.place.areaId) : ""}
          error={errors.areaId ?? errors.governanceId}
        />
      )}
      <div className="sp-grid">
        {field("block", { inputMode: "numeric", maxLength: 20 })}
        {field("street")}
        {field("avenue", { optional: true })}
        {field("house")}
        {field("building", { optional: true })}
        {field("floor", { optional: true, maxLength: 20 })}
        {field("apartment", { optional: true, maxLength: 20 })}
        {field("paci", { optional: true, inputMode: "numeric", maxLength: 12 })}
      </div>
      <p className="sp-hint">{t("address.houseHint")}</p>
      <div className={errors.notes ? "sp-field bad" : "sp-field"}>
        <label htmlFor="fix-notes">
          {t("address.notes")} <small>({t("address.optional")})</small>
        </label>
        <textarea
          className="sp-input"
          id="fix-notes"
          name="notes"
          maxLength={300}
          rows={3}
          defaultValue={values?.notes ?? ""}
          aria-invalid={errors.notes ? true : undefined}
          aria-describedby="fix-notes-hint"
        />
        <FieldError id="fix-notes-error" code={errors.notes} />
        <p className="sp-hint" id="fix-notes-hint">
          {t("address.notesHint")}
        </p>
      </div>
      {!rescue && phone}
      <LocationField
        latitude={values?.latitude ?? ""}
        longitude={values?.longitude ?? ""}
        error={errors.latitude ?? errors.longitude}
      />
      {askCash && page.cash !== null && (
        <CashConfirmation
          id="cash-fix"
          cash={page.cash}
          error={errors.cashConfirmed}
          checked={values?.cashConfirmed === "yes"}
        />
      )}
      {errorCode(errors.form ?? errors.intent) && (
        <p className="sp-err">{t(`error.${errorCode(errors.form ?? errors.intent)!}`)}</p>
      )}
      <SubmitButton intent={intent} label={rescue ? t("rescue.save") : t("address.save")} />
    </Form>
  );
}
