import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Banner, BlockStack, Button, Card, Page } from "@shopify/polaris";
import { useRef } from "react";
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
  if (!query.success) return { html: null, error: query.error.issues[0]?.message ?? "" };
  const outcome = await printableLabels(session.shop, admin, query.data);
  if (!outcome.ok) return { html: null, error: outcome.error };
  return { html: renderLabelsDocument(outcome.labels, { size: query.data.size }), error: null };
};

export default function Labels() {
  const { html, error } = useLoaderData<typeof loader>();
  const frame = useRef<HTMLIFrameElement>(null);
  return (
    <Page title="Shipping labels" backAction={{ url: "/app/deliveries" }}>
      <BlockStack gap="400">
        {error ? <Banner tone="warning">{error}</Banner> : null}
        {html ? (
          <Card>
            <BlockStack gap="300">
              <Button variant="primary" onClick={() => frame.current?.contentWindow?.print()}>
                Print
              </Button>
              <iframe
                ref={frame}
                title="Labels"
                srcDoc={html}
                style={{ width: "100%", height: "80vh", border: 0 }}
              />
            </BlockStack>
          </Card>
        ) : null}
      </BlockStack>
    </Page>
  );
}
