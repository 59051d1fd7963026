import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import {
  Form,
  Link as RemixLink,
  useActionData,
  useLoaderData,
  useNavigation,
} from "@remix-run/react";
import {
  Banner,
  BlockStack,
  Button,
  Card,
  Checkbox,
  EmptyState,
  IndexTable,
  InlineStack,
  List,
  Page,
  Text,
} from "@shopify/polaris";
import { useState } from "react";
import { z } from "zod";
import { BULK_LIMIT } from "../deliveries/limits";
import {
  quoteOrder,
  sendOrdersToCourier,
  type QuoteOutcome,
  type SendOutcome,
} from "../deliveries/send.server";
import { authenticate } from "../shopify.server";
import { fetchSendableOrders } from "../shopify/orders";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { admin } = await authenticate.admin(request);
  const orders = await fetchSendableOrders(admin, 40);
  return {
    orders: orders.map((o) => ({
      id: o.id,
      name: o.name,
      createdAt: o.createdAt,
      city: o.shippingAddress?.city ?? null,
      country: o.shippingAddress?.countryCodeV2 ?? null,
      total: `${o.totalPriceSet.shopMoney.amount} ${o.totalPriceSet.shopMoney.currencyCode}`,
      financialStatus: o.displayFinancialStatus,
    })),
  };
};

const orderGid = z.string().regex(/^gid:\/\/shopify\/Order\/\d+$/, "Unknown order.");
const sendForm = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("quote"), orderId: orderGid }),
  z.object({
    intent: z.literal("send"),
    orderIds: z
      .array(orderGid)
      .min(1, "Select at least one order.")
      .max(BULK_LIMIT, `Select at most ${BULK_LIMIT} orders.`),
  }),
]);

export type SendActionResult =
  | { intent: "quote"; orderId: string; quote: QuoteOutcome }
  | { intent: "send"; outcomes: SendOutcome[] }
  | { intent: "invalid"; error: string };

export const action = async ({ request }: ActionFunctionArgs) => {
  const { session, admin } = await authenticate.admin(request);
  const formData = await request.formData();
  const parsed = sendForm.safeParse({
    intent: formData.get("intent"),
    orderId: formData.get("orderId") ?? undefined,
    orderIds: formData.getAll("orderIds"),
  });
  if (!parsed.success) {
    return Response.json(
      {
        intent: "invalid",
        error: parsed.error.issues[0]?.message ?? "Invalid form.",
      } satisfies SendActionResult,
      { status: 400 },
    );
  }
  const form = parsed.data;
  if (form.intent === "quote") {
    const quote = await quoteOrder(session.shop, admin, form.orderId);
    return Response.json({
      intent: "quote",
      orderId: form.orderId,
      quote,
    } satisfies SendActionResult);
  }
  const outcomes = await sendOrdersToCourier(
    session.shop,
    admin,
    form.orderIds,
    form.orderIds.length > 1 ? "bulk" : "manual",
  );
  return Response.json({ intent: "send", outcomes } satisfies SendActionResult);
};

export default function SendOrders() {
  const { orders } = useLoaderData<typeof loader>();
  const result = useActionData<SendActionResult>();
  const navigation = useNavigation();
  const sending = navigation.state !== "idle" && navigation.formData?.get("intent") === "send";
  const [selected, setSelected] = useState<string[]>([]);
  const toggle = (id: string) => (checked: boolean) =>
    setSelected((s) => (checked ? [...s, id] : s.filter((x) => x !== id)));

  return (
    <Page
      title="Send to courier"
      subtitle="Unfulfilled orders. Sending fulfils the order in Shopify and creates the courier delivery."
    >
      <BlockStack gap="400">
        {result?.intent === "invalid" && <Banner tone="critical">{result.error}</Banner>}
        {result?.intent === "send" && (
          <Banner
            tone={result.outcomes.every((o) => o.ok) ? "success" : "warning"}
            title={`${result.outcomes.filter((o) => o.ok).length} of ${result.outcomes.length} sent`}
          >
            <List>
              {result.outcomes.map((o) => (
                <List.Item key={o.orderId}>
                  {o.orderName ?? o.orderId}:{" "}
                  {o.ok ? (
                    <RemixLink to={`/app/deliveries/${o.deliveryId}`}>
                      on its way to the courier
                    </RemixLink>
                  ) : (
                    o.error
                  )}
                </List.Item>
              ))}
            </List>
          </Banner>
        )}
        {result?.intent === "quote" && (
          <Banner
            tone={result.quote.ok ? "info" : "warning"}
            title={`Price quote for ${orders.find((o) => o.id === result.orderId)?.name ?? "the order"}`}
          >
            {result.quote.ok ? (
              <BlockStack gap="100">
                <Text as="p" variant="headingSm">
                  {`${result.quote.price ?? "No price given"} ${result.quote.currency ?? ""}`}
                </Text>
                <Text as="p">
                  {`Based on ${result.quote.basis.weightKg} kg${result.quote.basis.weightKnown ? "" : " (no item has a weight in Shopify: the default parcel weight)"}, from ${result.quote.basis.from} to ${result.quote.basis.to}, ${result.quote.basis.cashOnDelivery ? `${result.quote.basis.value} KWD to collect` : `declared value ${result.quote.basis.value} KWD`}.`}
                </Text>
              </BlockStack>
            ) : (
              result.quote.error
            )}
          </Banner>
        )}
        <Card padding="0">
          {orders.length === 0 ? (
            <EmptyState heading="No unfulfilled orders" image="">
              <p>Open orders waiting to be fulfilled appear here.</p>
            </EmptyState>
          ) : (
            <IndexTable
              itemCount={orders.length}
              selectable={false}
              headings={[
                { title: "" },
                { title: "Order" },
                { title: "City" },
                { title: "Total" },
                { title: "Payment" },
                { title: "" },
              ]}
            >
              {orders.map((order, index) => (
                <IndexTable.Row id={order.id} key={order.id} position={index}>
                  <IndexTable.Cell>
                    <Checkbox
                      label={`Select ${order.name}`}
                      labelHidden
                      checked={selected.includes(order.id)}
                      onChange={toggle(order.id)}
                    />
                  </IndexTable.Cell>
                  <IndexTable.Cell>{order.name}</IndexTable.Cell>
                  <IndexTable.Cell>
                    {[order.city, order.country].filter(Boolean).join(", ")}
                  </IndexTable.Cell>
                  <IndexTable.Cell>{order.total}</IndexTable.Cell>
                  <IndexTable.Cell>{order.financialStatus ?? ""}</IndexTable.Cell>
                  <IndexTable.Cell>
                    <Form method="post">
                      <input type="hidden" name="intent" value="quote" />
                      <input type="hidden" name="orderId" value={order.id} />
                      <Button submit variant="plain" accessibilityLabel={`Quote ${order.name}`}>
                        Quote
                      </Button>
                    </Form>
                  </IndexTable.Cell>
                </IndexTable.Row>
              ))}
            </IndexTable>
          )}
        </Card>
        <Form method="post">
          <input type="hidden" name="intent" value="send" />
          {selected.map((id) => (
            <input key={id} type="hidden" name="orderIds" value={id} />
          ))}
          <InlineStack gap="300" blockAlign="center">
            <Button submit variant="primary" disabled={selected.length === 0} loading={sending}>
              {`Send ${selected.length || ""} to courier`.replace("  ", " ")}
            </Button>
            <Text as="span" tone="subdued">
              Up to {BULK_LIMIT} orders at a time.
            </Text>
          </InlineStack>
        </Form>
      </BlockStack>
    </Page>
  );
}
