import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Banner, BlockStack, Button, Card, Link, List, Page } from "@shopify/polaris";
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
  if (!query.success) return { html: null, error: "badQuery" as const, leftOut: [] };
  const outcome = await printableLabels(session.shop, admin, query.data);
  if (!outcome.ok) {
    return outcome.status === 404
      ? { html: null, error: "notFound" as const, leftOut: [] }
      : { html: null, error: "noneToPrint" as const, leftOut: outcome.leftOut };
  }
  return {
    html: renderLabelsDocument(outcome.labels, { size: query.data.size }),
    error: null,
    leftOut: outcome.leftOut,
  };
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
  const { html, error, leftOut } = useLoaderData<typeof loader>();
  const frame = useRef<HTMLIFrameElement>(null);
  const { t } = useTranslation("labels");
  const fit = useCallback(() => fitToFrame(frame.current), []);
  useEffect(() => {
    // The document is given to the frame here, not in the server's HTML: the page would carry
    // it twice (as the frame's attribute and in the page's data), 1.2 MB for 50 labels.
    if (frame.current && html) frame.current.srcdoc = html;
    window.addEventListener("resize", fit);
    return () => window.removeEventListener("resize", fit);
  }, [fit, html]);
  return (
    <Page title={t("title")} backAction={{ content: t("back"), url: "/app/deliveries" }}>
      <BlockStack gap="400">
        {error && error !== "noneToPrint" ? (
          <Banner tone="warning">{t(`error.${error}`)}</Banner>
        ) : null}
        {leftOut.length > 0 ? (
          <Banner
            tone={error ? "warning" : "info"}
            title={error ? t("leftOut.noneTitle") : t("leftOut.someTitle")}
          >
            <List>
              {leftOut.map((group) => (
                <List.Item key={group.reason}>
                  {t(`leftOut.reason.${group.reason}`, { count: group.count })}{" "}
                  {group.reason === "needs_address" ? (
                    <Link url="/app/address-review">{t("leftOut.openReview")}</Link>
                  ) : group.deliveryIds.length === 1 ? (
                    <Link url={`/app/deliveries/${group.deliveryIds[0]}`}>
                      {t("leftOut.openDelivery")}
                    </Link>
                  ) : null}
                </List.Item>
              ))}
            </List>
          </Banner>
        ) : null}
        {html ? (
          <Card>
            <BlockStack gap="300">
              <Button variant="primary" onClick={() => frame.current?.contentWindow?.print()}>
                {t("print")}
              </Button>
              <iframe
                ref={frame}
                title={t("frameTitle")}
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
