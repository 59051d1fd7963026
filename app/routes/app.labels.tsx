import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Banner, BlockStack, Button, Card, Page } from "@shopify/polaris";
import { useCallback, useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { labelsQuery } from "../api-contract";
import { printableLabels } from "../extension-api/labels.server";
import { renderLabelsDocument } from "../labels";
import { authenticate } from "../shopify.server";

// The labels of deliveries named in the URL (the order page's block links here), shown in the
// app and printed from it; the print actions load the same document from /api/labels.
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session, admin } = await authenticate.admin(request);
  const search = new URL(request.url).searchParams;
  const query = labelsQuery.safeParse({
    deliveryIds: search.get("deliveryIds") ?? undefined,
    orderIds: search.get("orderIds") ?? undefined,
    size: search.get("size") ?? undefined,
  });
  if (!query.success) return { html: null, error: "badQuery" as const };
  const outcome = await printableLabels(session.shop, admin, query.data);
  if (!outcome.ok) {
    return {
      html: null,
      error:
        outcome.status === 404
          ? ("notFound" as const)
          : outcome.why === "finished"
            ? ("finished" as const)
            : ("noneYet" as const),
    };
  }
  return { html: renderLabelsDocument(outcome.labels, { size: query.data.size }), error: null };
};

/**
 * On screen the labels are shrunk to the frame's width (a phone is narrower than an A6 label), in
 * a style for the screen only: printing still gets each label at its real size.
 */
function fitToFrame(frame: HTMLIFrameElement | null) {
  const doc = frame?.contentDocument;
  if (!frame || !doc?.documentElement) return;
  let style = doc.getElementById("fit-to-frame");
  if (!style) {
    style = doc.createElement("style");
    style.id = "fit-to-frame";
    doc.head.append(style);
  }
  style.textContent = "";
  const scale = Math.min(1, frame.clientWidth / doc.documentElement.scrollWidth);
  if (scale < 1) style.textContent = `@media screen { html { zoom: ${scale.toFixed(3)}; } }`;
}

export default function Labels() {
  const { html, error } = useLoaderData<typeof loader>();
  const frame = useRef<HTMLIFrameElement>(null);
  const { t } = useTranslation("labels");
  const fit = useCallback(() => fitToFrame(frame.current), []);
  useEffect(() => {
    // The frame may have loaded before the page came alive (server-rendered): fit it now too.
    if (frame.current?.contentDocument?.readyState === "complete") fit();
    window.addEventListener("resize", fit);
    return () => window.removeEventListener("resize", fit);
  }, [fit]);
  return (
    <Page title={t("title")} backAction={{ content: t("back"), url: "/app/deliveries" }}>
      <BlockStack gap="400">
        {error ? <Banner tone="warning">{t(`error.${error}`)}</Banner> : null}
        {html ? (
          <Card>
            <BlockStack gap="300">
              <Button variant="primary" onClick={() => frame.current?.contentWindow?.print()}>
                {t("print")}
              </Button>
              <iframe
                ref={frame}
                title={t("frameTitle")}
                srcDoc={html}
                onLoad={fit}
                style={{ width: "100%", height: "80vh", border: 0 }}
              />
            </BlockStack>
          </Card>
        ) : null}
      </BlockStack>
    </Page>
  );
}
