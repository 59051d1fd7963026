import type { LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link as RemixLink, useLoaderData, useSearchParams } from "@remix-run/react";
import {
  Badge,
  BlockStack,
  Button,
  Card,
  EmptyState,
  IndexTable,
  InlineStack,
  Page,
  Select,
  Text,
  TextField,
} from "@shopify/polaris";
import { useState } from "react";
import { z } from "zod";
import {
  ATTENTION_STATES,
  DELIVERY_STATES,
  STATE_LABELS,
  type DeliveryState,
} from "../deliveries/domain/states";
import { isStuck, listDeliveries } from "../models/delivery-list.server";
import { authenticate } from "../shopify.server";

const listQuery = z.object({
  state: z
    .union([z.enum(DELIVERY_STATES), z.literal("attention")])
    .optional()
    .catch(undefined),
  q: z.string().trim().max(100).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(10_000).optional().catch(undefined),
});

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const query = listQuery.parse(Object.fromEntries(new URL(request.url).searchParams));
  const result = await listDeliveries({
    shop: session.shop,
    state: query.state,
    search: query.q || undefined,
    page: query.page,
  });
  return {
    ...result,
    deliveries: result.deliveries.map((d) => ({
      id: d.id,
      orderName: d.orderName,
      state: d.state,
      stateReason: d.stateReason,
      courierOrderNumber: d.courierOrderNumber,
      stuck: isStuck(d),
      updatedAt: d.updatedAt.toISOString(),
    })),
  };
};

const tone = (state: DeliveryState) =>
  ATTENTION_STATES.includes(state)
    ? ("critical" as const)
    : state === "delivered" || state === "created"
      ? ("success" as const)
      : state === "skipped" || state === "cancelled"
        ? undefined
        : ("info" as const);

const when = new Intl.DateTimeFormat("en-GB", {
  dateStyle: "medium",
  timeStyle: "short",
  timeZone: "Asia/Kuwait",
});

export default function Deliveries() {
  const { deliveries, total, page, pageSize } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const [search, setSearch] = useState(params.get("q") ?? "");
  const [state, setState] = useState(params.get("state") ?? "");
  const pageUrl = (n: number) => {
    const next = new URLSearchParams(params);
    next.set("page", String(n));
    return `?${next.toString()}`;
  };
  return (
    <Page title="Deliveries">
      <BlockStack gap="400">
        <Card>
          <Form method="get">
            <InlineStack gap="300" blockAlign="end">
              <div style={{ minWidth: 260 }}>
                <TextField
                  label="Search by order or courier number"
                  name="q"
                  value={search}
                  onChange={setSearch}
                  autoComplete="off"
                />
              </div>
              <Select
                label="State"
                name="state"
                value={state}
                onChange={setState}
                options={[
                  { label: "All", value: "" },
                  { label: "Needs attention", value: "attention" },
                  ...DELIVERY_STATES.map((s) => ({ label: STATE_LABELS[s], value: s })),
                ]}
              />
              <Button submit>Filter</Button>
            </InlineStack>
          </Form>
        </Card>
        <Card padding="0">
          {deliveries.length === 0 ? (
            <EmptyState heading="No deliveries yet" image="">
              <p>Deliveries appear here when orders are fulfilled or sent to the courier.</p>
            </EmptyState>
          ) : (
            <IndexTable
              itemCount={deliveries.length}
              selectable={false}
              headings={[
                { title: "Order" },
                { title: "State" },
                { title: "Courier number" },
                { title: "Updated" },
              ]}
            >
              {deliveries.map((d, index) => (
                <IndexTable.Row id={d.id} key={d.id} position={index}>
                  <IndexTable.Cell>
                    <RemixLink to={`/app/deliveries/${d.id}`}>{d.orderName ?? "Order"}</RemixLink>
                  </IndexTable.Cell>
                  <IndexTable.Cell>
                    <BlockStack gap="100">
                      <span>
                        <Badge tone={tone(d.state)}>{STATE_LABELS[d.state]}</Badge>
                        {d.stuck && (
                          <>
                            {" "}
                            <Badge tone="warning">No movement for 3 days</Badge>
                          </>
                        )}
                      </span>
                      {d.stateReason && (
                        <Text as="span" tone="subdued" variant="bodySm">
                          {d.stateReason}
                        </Text>
                      )}
                    </BlockStack>
                  </IndexTable.Cell>
                  <IndexTable.Cell>{d.courierOrderNumber ?? "—"}</IndexTable.Cell>
                  <IndexTable.Cell>{when.format(new Date(d.updatedAt))}</IndexTable.Cell>
                </IndexTable.Row>
              ))}
            </IndexTable>
          )}
        </Card>
        <InlineStack gap="300" align="center" blockAlign="center">
          <Button url={pageUrl(page - 1)} disabled={page <= 1}>
            Previous
          </Button>
          <Text as="span">
            Page {page} of {Math.max(1, Math.ceil(total / pageSize))} · {total} deliveries
          </Text>
          <Button url={pageUrl(page + 1)} disabled={page * pageSize >= total}>
            Next
          </Button>
        </InlineStack>
      </BlockStack>
    </Page>
  );
}
