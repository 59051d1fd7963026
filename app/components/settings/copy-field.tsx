import { Button, TextField } from "@shopify/polaris";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";

/** A value to paste somewhere else (Meta's dashboard, a message to the courier), with a Copy button. */
export function CopyField(props: { label: string; value: string; helpText?: ReactNode }) {
  const { t } = useTranslation("settings");
  const [copied, setCopied] = useState(false);
  const copy = () => {
    void navigator.clipboard
      ?.writeText(props.value)
      .then(() => setCopied(true))
      .catch(() => setCopied(false));
  };
  return (
    <TextField
      label={props.label}
      value={props.value}
      readOnly
      autoComplete="off"
      helpText={props.helpText}
      connectedRight={
        <Button
          onClick={copy}
          accessibilityLabel={`${t("whatsapp.callback.copy")}: ${props.label}`}
        >
          {copied ? t("whatsapp.callback.copied") : t("whatsapp.callback.copy")}
        </Button>
      }
    />
  );
}
