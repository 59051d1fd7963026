import { useFetcher } from "@remix-run/react";
import { useAppBridge } from "@shopify/app-bridge-react";
import { Button } from "@shopify/polaris";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import type { ReleaseOutcome } from "../../pages/customer-answers.server";

/**
 * What the merchant does with an ask: copy the customer's link (to send it by WhatsApp or SMS)
 * and "Release now". Both pages post the release to Customer answers' action.
 */

/** Copies text: the Clipboard API where the admin's frame allows it, else a selected field. */
async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const field = document.createElement("textarea");
    field.value = text;
    field.setAttribute("readonly", "");
    field.style.position = "fixed";
    field.style.opacity = "0";
    document.body.appendChild(field);
    field.select();
    const copied = document.execCommand("copy");
    field.remove();
    return copied;
  }
}

export function CopyLinkButton(props: {
  link: string;
  orderName: string | null;
  variant?: "primary" | "secondary";
}) {
  const { t } = useTranslation("answers");
  const shopify = useAppBridge();
  return (
    <Button
      size="slim"
      variant={props.variant}
      accessibilityLabel={
        props.orderName ? t("answers:actions.copyLinkFor", { order: props.orderName }) : undefined
      }
      onClick={async () => {
        const copied = await copyText(props.link);
        shopify.toast.show(
          copied ? t("answers:actions.copied") : t("answers:actions.copyFailed"),
          copied ? undefined : { isError: true },
        );
      }}
    >
      {t("answers:actions.copyLink")}
    </Button>
  );
}

export function ReleaseButton(props: { askId: string; orderName: string | null }) {
  const { t } = useTranslation("answers");
  const shopify = useAppBridge();
  const fetcher = useFetcher<ReleaseOutcome>();
  const outcome = fetcher.data;
  // Said as soon as the answer arrives: the page's data reloads after it and a released order
  // leaves the Waiting tab, this button with it.
  useEffect(() => {
    if (!outcome) return;
    shopify.toast.show(
      outcome.ok ? t("answers:actions.released") : t(`answers:errors.${outcome.error}`),
      outcome.ok ? undefined : { isError: true },
    );
  }, [outcome, shopify, t]);
  return (
    <fetcher.Form method="post" action="/app/customer-answers">
      <input type="hidden" name="intent" value="release" />
      <input type="hidden" name="askId" value={props.askId} />
      <Button
        size="slim"
        submit
        loading={fetcher.state !== "idle"}
        accessibilityLabel={
          props.orderName ? t("answers:actions.releaseFor", { order: props.orderName }) : undefined
        }
      >
        {t("answers:actions.release")}
      </Button>
    </fetcher.Form>
  );
}

/**
 * Opens the merchant's WhatsApp with the message to the customer written in the customer's
 * language (issue 27), for merchants without WhatsApp Business. Given only while the order waits
 * and the customer's phone can be reached on WhatsApp.
 */
export function WhatsAppChatButton(props: { url: string; orderName: string | null }) {
  const { t } = useTranslation("answers");
  return (
    <Button
      size="slim"
      url={props.url}
      target="_blank"
      accessibilityLabel={
        props.orderName ? t("answers:actions.whatsappFor", { order: props.orderName }) : undefined
      }
    >
      {t("answers:actions.whatsapp")}
    </Button>
  );
}
