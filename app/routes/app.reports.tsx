import type { LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link as RemixLink, useLoaderData } from "@remix-run/react";
import {
  Banner,
  BlockStack,
  Button,
  Card,
  DataTable,
  InlineStack,
  Page,
  Text,
  TextField,
} from "@shopify/polaris";
import { useState } from "react";
import { courierReports } from "../services/courier-reports.server";
import { authenticate } from "../shopify.server";

const day = (offsetDays: number) =>
  new Date(Date.now() + 3 * 3_600_000 + offsetDays * 86_400_000).toISOString().slice(0, 10);
const isDay = (value: string | null): value is string =>
  !!value && /^\d{4}-\d{2}-\d{2}$/.test(value);

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const url = new URL(request.url);
  const from = isDay(url.searchParams.get("from")) ? url.searchParams.get("from")! : day(-30);
  const to = isDay(url.searchParams.get("to")) ? url.searchParams.get("to")! : day(0);
  const reports = await courierReports(session.shop, from, to);
  return {
    from,
    to,
    ...reports,
    exceptions: reports.exceptions.map((e) => ({
      ...e,
      firstSeenAt: e.firstSeenAt.toISOString(),
    })),
  };
};

export default function Reports() {
  const data = useLoaderData<typeof loader>();
  const [from, setFrom] = useState(data.from);
  const [to, setTo] = useState(data.to);
  return (
    <Page title="Courier reports" subtitle="What the courier's own records say, beside the app's.">
      <BlockStack gap="400">
        <Card>
          <Form method="get">
            <InlineStack gap="300" blockAlign="end">
              <TextField
                label="From"
                type="date"
                name="from"
                value={from}
                onChange={setFrom}
                autoComplete="off"
              />
              <TextField
                label="To"
                type="date"
                name="to"
                value={to}
                onChange={setTo}
                autoComplete="off"
              />
              <Button submit>Show</Button>
            </InlineStack>
          </Form>
        </Card>
        {!data.connected ? (
          <Banner tone="warning">Connect the courier in Settings to see its reports.</Banner>
        ) : (
          <>
            <Card>
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  The courier&apos;s report for the period
                </Text>
                {data.reportError ? (
                  <Banner tone="critical">{data.reportError}</Banner>
                ) : (
                  <DataTable
                    columnContentTypes={["text", "text"]}
                    headings={["What", "Courier's figure"]}
                    rows={(data.report ?? []).map((r) => [r.field, r.value])}
                  />
                )}
              </BlockStack>
            </Card>
            <Card>
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  Courier orders the app does not know
                </Text>
                <Text as="p" tone="subdued">
                  Orders in the courier&apos;s records for the period that no delivery in the app
                  matches, for example ones created in the courier&apos;s own website. They are
                  listed only; nothing is imported.
                </Text>
                {data.historyError ? (
                  <Banner tone="critical">{data.historyError}</Banner>
                ) : data.unknown.length === 0 ? (
                  <Text as="p">{`All ${data.seen} courier orders of the period are deliveries in the app.`}</Text>
                ) : (
                  <DataTable
                    columnContentTypes={["text", "text", "text"]}
                    headings={["Courier order", "Courier status", "Created"]}
                    rows={data.unknown.map((o) => [o.orderNumber, o.status, o.createdAt])}
                  />
                )}
              </BlockStack>
            </Card>
          </>
        )}
        <Card>
          <BlockStack gap="300">
            <Text as="h2" variant="headingMd">
              Exceptions the courier reported
            </Text>
            {data.exceptions.length === 0 ? (
              <Text as="p" tone="subdued">
                None.
              </Text>
            ) : (
              <DataTable
                columnContentTypes={["text", "text", "text", "text"]}
                headings={["Order", "What happened", "بالعربية", "When"]}
                rows={data.exceptions.map((e) => [
                  e.deliveryId ? (
                    <RemixLink key={e.id} to={`/app/deliveries/${e.deliveryId}`}>
                      {e.orderName ?? e.courierOrderId ?? "Delivery"}
                    </RemixLink>
                  ) : (
                    `${e.courierOrderId ?? "—"} (not in the app)`
                  ),
                  e.description ?? e.type ?? "",
                  e.descriptionArabic ?? "",
                  e.happenedAt ?? e.firstSeenAt.slice(0, 10),
                ])}
              />
            )}
          </BlockStack>
        </Card>
      </BlockStack>
    </Page>
  );
}
