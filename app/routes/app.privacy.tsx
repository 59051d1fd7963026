import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import {
  Banner,
  BlockStack,
  Button,
  Card,
  EmptyState,
  IndexTable,
  Page,
  Text,
} from "@shopify/polaris";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { formatDateTime } from "../i18n/format";
import { useLanguage } from "../i18n/language";
import { translateMessage } from "../i18n/messages";
import { listComplianceRequests } from "../models/privacy.server";
import { authenticate } from "../shopify.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const requests = await listComplianceRequests(session.shop);
  return {
    requests: requests.map((r) => ({
      id: r.id,
      topic: r.topic,
      customerId: r.customerId,
      orders: r.orderIds.length,
      receivedAt: r.receivedAt.toISOString(),
      outcome: r.outcome,
    })),
  };
};

const TOPICS: Record<string, string> = {
  "customers/data_request": "dataRequest",
  "customers/redact": "erasure",
  "shop/redact": "shopErasure",
};

export default function Privacy() {
  const { requests } = useLoaderData<typeof loader>();
  const [error, setError] = useState<string | null>(null);
  const { t } = useTranslation("privacy");
  const language = useLanguage();

  // A fetch, not a link: App Bridge adds the session token to the app's own fetches.
  const download = async (id: string) => {
    setError(null);
    const response = await fetch(`/app/privacy-export/${encodeURIComponent(id)}`);
    if (!response.ok) {
      setError(t("downloadFailed"));
      return;
    }
    const url = URL.createObjectURL(await response.blob());
    const link = document.createElement("a");
    link.href = url;
    link.download = `customer-data-${id}.json`;
    link.click();
    // Revoked once the browser has started the download.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };

  return (
    <Page title={t("title")}>
      <BlockStack gap="400">
        <Text as="p" tone="subdued">
          {t("intro")}
        </Text>
        {error ? (
          <Banner tone="critical" onDismiss={() => setError(null)}>
            {error}
          </Banner>
        ) : null}
        <Card padding="0">
          {requests.length === 0 ? (
            <EmptyState heading={t("emptyTitle")} image="">
              <p>{t("empty")}</p>
            </EmptyState>
          ) : (
            <IndexTable
              resourceName={{ singular: t("request"), plural: t("requests") }}
              itemCount={requests.length}
              selectable={false}
              headings={[
                { title: t("received") },
                { title: t("kind") },
                { title: t("customer") },
                { title: t("orders") },
                { title: t("outcome") },
                { title: t("actions") },
              ]}
            >
              {requests.map((r, index) => (
                <IndexTable.Row id={r.id} key={r.id} position={index}>
                  <IndexTable.Cell>{formatDateTime(r.receivedAt, language)}</IndexTable.Cell>
                  <IndexTable.Cell>
                    {TOPICS[r.topic] ? t(`topic.${TOPICS[r.topic]}`) : r.topic}
                  </IndexTable.Cell>
                  <IndexTable.Cell>
                    <bdi translate="no">{r.customerId ?? "—"}</bdi>
                  </IndexTable.Cell>
                  <IndexTable.Cell>{r.orders}</IndexTable.Cell>
                  <IndexTable.Cell>
                    <span dir="auto">{r.outcome ? translateMessage(t, r.outcome) : "—"}</span>
                  </IndexTable.Cell>
                  <IndexTable.Cell>
                    {r.topic === "customers/data_request" ? (
                      <Button onClick={() => void download(r.id)}>{t("download")}</Button>
                    ) : null}
                  </IndexTable.Cell>
                </IndexTable.Row>
              ))}
            </IndexTable>
          )}
        </Card>
      </BlockStack>
    </Page>
  );
}
