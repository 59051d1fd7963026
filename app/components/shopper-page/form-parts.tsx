import { useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorCode } from "./view";

/** Set once the page runs in the browser: the first render is the server's, to the letter. */
export function useEnhanced() {
  const [enhanced, setEnhanced] = useState(false);
  useEffect(() => setEnhanced(true), []);
  return enhanced;
}

export function FieldError({ id, code }: { id: string; code: string | undefined }) {
  const { t } = useTranslation("tracking");
  const known = errorCode(code);
  if (!known) return null;
  return (
    <p className="sp-err" id={id}>
      {t(`error.${known}`)}
    </p>
  );
}

/** The box the shopper ticks to say the cash will be ready; the browser insists on it. */
export function CashConfirmation({
  id,
  cash,
  error,
  checked,
}: {
  id: string;
  cash: string;
  error?: string;
  checked?: boolean;
}) {
  const { t } = useTranslation("tracking");
  return (
    <div className={error ? "sp-field bad" : "sp-field"}>
      <label className="sp-check" htmlFor={id}>
        <input
          id={id}
          type="checkbox"
          name="cashConfirmed"
          value="yes"
          defaultChecked={checked}
          required
          aria-describedby={error ? `${id}-error` : undefined}
        />
        <span>{t("cash.confirm", { amount: cash })}</span>
      </label>
      <FieldError id={`${id}-error`} code={error} />
    </div>
  );
}

export function SubmitButton({ intent, label }: { intent: string; label: string }) {
  const { t } = useTranslation("tracking");
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  return (
    <button className="sp-btn sp-btn-go" type="submit" disabled={busy}>
      {busy ? t("address.saving") : label}
    </button>
  );
}
