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

const TOPIC_LABELS: Record<string, string> = {
  "customers/data_request": "Data request",
  "customers/redact": "Erasure",
  "shop/redact": "Shop erasure",
};

const when = new Intl.DateTimeFormat("en-GB", {
  dateStyle: "medium",
  timeStyle: "short",
  timeZone: "Asia/Kuwait",
});

export default function Privacy() {
  const { requests } = useLoaderData<typeof loader>();
  const [error, setError] = useState<string | null>(null);

  // A fetch, not a link: App Bridge adds the session token to the app's own fetches.
  const download = async (id: string) => {
    setError(null);
    const response = await fetch(`/app/privacy-export/${encodeURIComponent(id)}`);
    if (!response.ok) {
      setError("The data could not be put together. Reload the page and try again.");
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
    <Page title="Privacy requests">
      <BlockStack gap="400">
        <Text as="p" tone="subdued">
          Shopify forwards your customers&apos; requests to see or erase their data. Erasures are
          carried out as they arrive. For a data request, download what this app holds on the
          customer&apos;s orders and send it to them.
        </Text>
        {error ? (
          <Banner tone="critical" onDismiss={() => setError(null)}>
            {error}
          </Banner>
        ) : null}
        <Card padding="0">
          {requests.length === 0 ? (
            <EmptyState heading="No privacy requests" image="">
              <p>Customers&apos; data and erasure requests appear here.</p>
            </EmptyState>
          ) : (
            <IndexTable
              resourceName={{ singular: "request", plural: "requests" }}
              itemCount={requests.length}
              selectable={false}
              headings={[
                { title: "Received" },
                { title: "Kind" },
                { title: "Customer" },
                { title: "Orders" },
                { title: "Outcome" },
                { title: "" },
              ]}
            >
              {requests.map((r, index) => (
                <IndexTable.Row id={r.id} key={r.id} position={index}>
                  <IndexTable.Cell>{when.format(new Date(r.receivedAt))}</IndexTable.Cell>
                  <IndexTable.Cell>{TOPIC_LABELS[r.topic] ?? r.topic}</IndexTable.Cell>
                  <IndexTable.Cell>{r.customerId ?? "—"}</IndexTable.Cell>
                  <IndexTable.Cell>{r.orders}</IndexTable.Cell>
                  <IndexTable.Cell>{r.outcome ?? "—"}</IndexTable.Cell>
                  <IndexTable.Cell>
                    {r.topic === "customers/data_request" ? (
                      <Button onClick={() => void download(r.id)}>Download data</Button>
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
