import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import {
  Banner,
  BlockStack,
  Box,
  Button,
  Card,
  EmptyState,
  IndexTable,
  InlineStack,
  Link,
  Page,
  Text,
} from "@shopify/polaris";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { formatDateTime } from "../i18n/format";
import { useLanguage } from "../i18n/language";
import { readPrivacyOutcome } from "../domain/privacy-outcome";
import { useSmallScreen } from "../components/small-screen";
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

type Request = ReturnType<typeof useLoaderData<typeof loader>>["requests"][number];

/** What was done, in the page's language (the stored sentence's figures, read back). */
function Outcome(props: { outcome: string | null }) {
  const { t } = useTranslation("privacy");
  const language = useLanguage();
  if (!props.outcome) return <>—</>;
  const read = readPrivacyOutcome(props.outcome);
  if (read.key === "held") return <>{t("outcomeHeld", { count: read.deliveries })}</>;
  if (read.key === "erased")
    return (
      <>
        {[
          t("outcomeErased", { count: read.deliveries }),
          read.cancelled > 0 ? t("outcomeCancelled", { count: read.cancelled }) : null,
          read.uncertain > 0 ? t("outcomeUncertain", { count: read.uncertain }) : null,
        ]
          .filter(Boolean)
          .join(" ")}
      </>
    );
  // A sentence of another form: as written on the English page, "Done." on the Arabic one.
  return <>{language === "en" ? read.text : t("outcomeDone")}</>;
}

/** The customer Shopify named, one click from their page in Shopify's admin. */
function Customer(props: { id: string | null }) {
  const { t } = useTranslation("privacy");
  if (!props.id) return <>—</>;
  return (
    <Link url={`shopify://admin/customers/${encodeURIComponent(props.id)}`} target="_top">
      <bdi translate="no">{t("customerNumber", { id: props.id })}</bdi>
    </Link>
  );
}

export default function Privacy() {
  const { requests } = useLoaderData<typeof loader>();
  const [error, setError] = useState<string | null>(null);
  const { t } = useTranslation("privacy");
  const language = useLanguage();
  const small = useSmallScreen();
  const topic = (r: Request) => (TOPICS[r.topic] ? t(`topic.${TOPICS[r.topic]}`) : r.topic);

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
        <Box paddingInline={{ xs: "400", sm: "0" }}>
          <Text as="p" tone="subdued">
            {t("intro")}
          </Text>
        </Box>
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
          ) : small ? (
            // On a phone, one block per request: nothing to scroll sideways to reach Download.
            <BlockStack>
              {requests.map((r, index) => (
                <Box
                  key={r.id}
                  padding="400"
                  borderBlockStartWidth={index > 0 ? "025" : undefined}
                  borderColor="border"
                >
                  <BlockStack gap="200">
                    <InlineStack align="space-between" blockAlign="center" gap="200">
                      <Text as="h3" variant="headingSm">
                        {topic(r)}
                      </Text>
                      <Text as="span" tone="subdued" variant="bodySm">
                        {formatDateTime(r.receivedAt, language)}
                      </Text>
                    </InlineStack>
                    <Text as="p">
                      <Customer id={r.customerId} /> · {t("orders")}: {r.orders}
                    </Text>
                    <Text as="p" tone="subdued">
                      <Outcome outcome={r.outcome} />
                    </Text>
                    {r.topic === "customers/data_request" ? (
                      <InlineStack>
                        <Button onClick={() => void download(r.id)}>{t("download")}</Button>
                      </InlineStack>
                    ) : null}
                  </BlockStack>
                </Box>
              ))}
            </BlockStack>
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
                  <IndexTable.Cell>{topic(r)}</IndexTable.Cell>
                  <IndexTable.Cell>
                    <Customer id={r.customerId} />
                  </IndexTable.Cell>
                  <IndexTable.Cell>{r.orders}</IndexTable.Cell>
                  <IndexTable.Cell>
                    <Text as="span" breakWord>
                      <Outcome outcome={r.outcome} />
                    </Text>
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
