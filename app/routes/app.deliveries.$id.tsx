import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import {
  Badge,
  Banner,
  BlockStack,
  Box,
  Button,
  Card,
  InlineStack,
  Layout,
  Link,
  Page,
  Text,
  TextField,
} from "@shopify/polaris";
import { useState } from "react";
import { CourierExceptionsCard } from "../components/deliveries/courier-exceptions-card";
import { cancelDelivery } from "../deliveries/cancel.server";
import { deliveryExceptionItems } from "../deliveries/courier-exceptions.server";
import { markDeliveryCreated } from "../deliveries/mark-created.server";
import { retryDelivery } from "../deliveries/retry.server";
import { Unreadable } from "../deliveries/domain/json-column";
import { STATE_LABELS } from "../deliveries/domain/states";
import { SHOPIFY_EVENT_LABELS } from "../deliveries/domain/courier-status";
import {
  findBalanceCollector,
  getDelivery,
  type DeliveryEventRow,
} from "../models/deliveries.server";
import { isStuck } from "../models/delivery-list.server";
import { authenticate } from "../shopify.server";

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const delivery = await getDelivery(session.shop, params.id ?? "");
  if (!delivery) throw new Response("No such delivery in this shop.", { status: 404 });
  const orderNumericId = delivery.orderId.split("/").pop();
  // Split fulfillments: one delivery of the order collects its balance (ADR 0026).
  const collector = delivery.cashToCollect
    ? null
    : await findBalanceCollector(session.shop, delivery.orderId, delivery.id);
  return {
    delivery: {
      id: delivery.id,
      orderName: delivery.orderName,
      orderAdminPath: `shopify://admin/orders/${orderNumericId}`,
      state: delivery.state,
      stateReason: delivery.stateReason,
      reference: delivery.reference,
      environment: delivery.environment,
      courierOrderId: delivery.courierOrderId,
      courierOrderNumber: delivery.courierOrderNumber,
      courierStatus: delivery.courierStatus,
      courierStatusAt: delivery.courierStatusAt?.toISOString() ?? null,
      // One Shopify does not have (a hand edit) is shown as unknown.
      shopifyEventStatus:
        delivery.shopifyEventStatus instanceof Unreadable
          ? ("unknown" as const)
          : delivery.shopifyEventStatus,
      // A status Shopify refused, owed to it and tried again later (ADR 0008); one that no longer
      // reads is shown as owed, without its status.
      shopifyOwed: delivery.shopifyPending && {
        status:
          delivery.shopifyPending instanceof Unreadable ? null : delivery.shopifyPending.status,
        retryAt: delivery.shopifyRetryAt?.toISOString() ?? null,
      },
      nextLookAt: delivery.syncAt?.toISOString() ?? null,
      lastLookAt: delivery.trackedAt?.toISOString() ?? null,
      stuck: isStuck(delivery),
      paidMarkedAt: delivery.paidMarkedAt?.toISOString() ?? null,
      trackingUrl: delivery.trackingUrl,
      attempts: delivery.attempts,
      lastError: delivery.lastError,
      cancelRequestedAt: delivery.cancelRequestedAt?.toISOString() ?? null,
      cancelReason: delivery.cancelReason,
      request:
        delivery.request && !(delivery.request instanceof Unreadable)
          ? delivery.request.body
          : null,
      requestProblem: delivery.request instanceof Unreadable ? delivery.request.problem : null,
      payment: {
        cashToCollect: delivery.cashToCollect,
        collectedBy: collector ? { id: collector.id, orderName: collector.orderName } : null,
      },
    },
    events: delivery.events.map((e) => ({
      id: e.id,
      at: e.at.toISOString(),
      kind: e.kind,
      message: e.message,
      courier: courierAnswerOf(e.data),
    })),
    exceptions: await deliveryExceptionItems(session.shop, delivery.id),
  };
};

/** The courier's answer kept on a timeline event (ids, statuses, messages), if any. */
function courierAnswerOf(data: DeliveryEventRow["data"]): Record<string, unknown> | null {
  // An answer that no longer reads is left out; the entry's message stays.
  return data && !(data instanceof Unreadable) ? (data.courier ?? null) : null;
}

export const action = async ({ request, params }: ActionFunctionArgs) => {
  const { session, admin } = await authenticate.admin(request);
  const form = Object.fromEntries(await request.formData());
  const id = params.id ?? "";
  const outcome =
    form.intent === "cancel"
      ? await cancelDelivery(session.shop, id, "cancelled by the merchant in the app")
      : form.intent === "mark_created"
        ? await markDeliveryCreated(session.shop, id, form)
        : await retryDelivery(session.shop, admin, id);
  return Response.json(outcome, { status: outcome.ok ? 200 : 400 });
};

type LoadedDelivery = Awaited<ReturnType<typeof loader>>["delivery"];

/** Who collects the order's balance: this delivery, another one of the order, or nobody. */
function PaymentLine({ payment }: { payment: LoadedDelivery["payment"] }) {
  if (payment.cashToCollect) {
    return (
      <Text as="p">
        Cash on delivery: the driver collects {payment.cashToCollect} KWD, the order&apos;s whole
        outstanding balance. Other deliveries of this order collect nothing.
      </Text>
    );
  }
  if (payment.collectedBy) {
    return (
      <Text as="p">
        Prepaid: the order&apos;s outstanding balance is collected by{" "}
        <Link url={`/app/deliveries/${payment.collectedBy.id}`}>its other delivery</Link>; the value
        declared here is this parcel&apos;s items.
      </Text>
    );
  }
  return <Text as="p">Prepaid: the driver collects nothing.</Text>;
}

/** "Mark created": the merchant found the order at the courier and gives its number. */
function MarkCreatedForm() {
  const [number, setNumber] = useState("");
  return (
    <Form method="post">
      <input type="hidden" name="intent" value="mark_created" />
      <InlineStack gap="200" blockAlign="end">
        <TextField
          label="Courier order number you found"
          name="courierOrder"
          value={number}
          onChange={setNumber}
          autoComplete="off"
          helpText="Checked with the courier before the delivery is marked created."
        />
        <Button submit disabled={number.trim() === ""}>
          Mark created
        </Button>
      </InlineStack>
    </Form>
  );
}

/** `key: value` pairs of a courier answer, the empty ones left out. */
function describeAnswer(answer: Record<string, unknown>): string {
  return Object.entries(answer)
    .filter(([, value]) => value !== null && value !== undefined && value !== "")
    .filter(([, value]) => !(Array.isArray(value) && value.length === 0))
    .map(([key, value]) => `${key}: ${typeof value === "string" ? value : JSON.stringify(value)}`)
    .join(", ");
}

const when = new Intl.DateTimeFormat("en-GB", {
  dateStyle: "medium",
  timeStyle: "medium",
  timeZone: "Asia/Kuwait",
});

export default function DeliveryPage() {
  const { delivery, events, exceptions } = useLoaderData<typeof loader>();
  const result = useActionData<{ ok: boolean; error?: string; message?: string }>();
  const canRetry = ["rejected", "needs_review", "needs_attention"].includes(delivery.state);
  const canCancel =
    !["cancelled", "skipped", "delivered", "returned"].includes(delivery.state) &&
    !delivery.cancelRequestedAt;
  return (
    <Page
      title={`Delivery for ${delivery.orderName ?? "order"}`}
      backAction={{ url: "/app/deliveries" }}
      titleMetadata={<Badge>{STATE_LABELS[delivery.state]}</Badge>}
      secondaryActions={[
        { content: "Open the order in Shopify", url: delivery.orderAdminPath, target: "_top" },
      ]}
    >
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            {result?.error && <Banner tone="critical">{result.error}</Banner>}
            {result?.ok && (
              <Banner tone={result.message ? "info" : "success"}>
                {result.message ?? "Done."}
              </Banner>
            )}
            {delivery.cancelRequestedAt && delivery.state !== "cancelled" && (
              <Banner tone="info">
                Cancellation requested {when.format(new Date(delivery.cancelRequestedAt))} (
                {delivery.cancelReason}): the app is carrying it out
                {delivery.courierOrderNumber ? " at the courier" : ""}; the outcome appears on the
                timeline.
              </Banner>
            )}
            {delivery.stateReason && (
              <Banner tone={canRetry || delivery.state === "needs_address" ? "warning" : "info"}>
                {delivery.stateReason}
              </Banner>
            )}
            <CourierExceptionsCard exceptions={exceptions} />
            <InlineStack gap="300">
              {canRetry && (
                <Form method="post">
                  <input type="hidden" name="intent" value="retry" />
                  <Button submit variant="primary">
                    {delivery.state === "needs_attention" ? "Try again" : "Send again"}
                  </Button>
                </Form>
              )}
              {delivery.state === "needs_review" && <MarkCreatedForm />}
              {canCancel && (
                <Form method="post">
                  <input type="hidden" name="intent" value="cancel" />
                  <Button submit tone="critical">
                    Cancel delivery
                  </Button>
                </Form>
              )}
            </InlineStack>
            <Card>
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  Timeline
                </Text>
                {events.map((event) => (
                  <InlineStack key={event.id} gap="300" wrap={false}>
                    <Box minWidth="170px">
                      <Text as="span" tone="subdued">
                        {when.format(new Date(event.at))}
                      </Text>
                    </Box>
                    <BlockStack gap="100">
                      <Text as="span">{event.message}</Text>
                      {event.courier && (
                        <Text as="span" tone="subdued" variant="bodySm">
                          The courier answered: <code>{describeAnswer(event.courier)}</code>
                        </Text>
                      )}
                    </BlockStack>
                  </InlineStack>
                ))}
              </BlockStack>
            </Card>
            {(delivery.request !== null || delivery.requestProblem !== null) && (
              <Card>
                <BlockStack gap="200">
                  <Text as="h2" variant="headingMd">
                    Request sent to the courier
                  </Text>
                  {delivery.request !== null ? (
                    <pre style={{ whiteSpace: "pre-wrap", fontSize: 12, margin: 0 }}>
                      {JSON.stringify(delivery.request, null, 2)}
                    </pre>
                  ) : (
                    <Text as="p" tone="caution">
                      The request stored for this delivery can no longer be read (
                      {delivery.requestProblem}).
                    </Text>
                  )}
                </BlockStack>
              </Card>
            )}
          </BlockStack>
        </Layout.Section>
        <Layout.Section variant="oneThird">
          <Card>
            <BlockStack gap="200">
              <Text as="h2" variant="headingMd">
                Courier
              </Text>
              <Text as="p">Order number: {delivery.courierOrderNumber ?? "not yet"}</Text>
              <Text as="p">
                Status at the courier: {delivery.courierStatus ?? "—"}
                {delivery.courierStatusAt &&
                  ` (since ${when.format(new Date(delivery.courierStatusAt))})`}
              </Text>
              {delivery.shopifyEventStatus && (
                <Text as="p">
                  Shown on Shopify:{" "}
                  {delivery.shopifyEventStatus === "unknown"
                    ? "a shipment status the app can no longer read"
                    : SHOPIFY_EVENT_LABELS[delivery.shopifyEventStatus]}
                </Text>
              )}
              {delivery.shopifyOwed && (
                <Text as="p" tone="caution">
                  Not yet on Shopify:{" "}
                  {delivery.shopifyOwed.status
                    ? SHOPIFY_EVENT_LABELS[delivery.shopifyOwed.status]
                    : "a shipment status the app can no longer read"}{" "}
                  (Shopify refused it; see the timeline
                  {delivery.shopifyOwed.retryAt
                    ? `; tried again ${when.format(new Date(delivery.shopifyOwed.retryAt))}`
                    : ""}
                  )
                </Text>
              )}
              {delivery.stuck && (
                <Banner tone="warning">
                  The courier has not moved this parcel for three days. Check with the courier.
                </Banner>
              )}
              {delivery.lastLookAt && (
                <Text as="p" tone="subdued">
                  Last asked the courier: {when.format(new Date(delivery.lastLookAt))}
                  {delivery.nextLookAt
                    ? `; next: ${when.format(new Date(delivery.nextLookAt))}`
                    : "; no more (final)"}
                </Text>
              )}
              {delivery.paidMarkedAt && (
                <Text as="p">
                  Marked paid in Shopify: {when.format(new Date(delivery.paidMarkedAt))}
                </Text>
              )}
              {(delivery.request !== null || delivery.requestProblem !== null) && (
                <PaymentLine payment={delivery.payment} />
              )}
              <Text as="p">Environment: {delivery.environment}</Text>
              <Text as="p">Reference: {delivery.reference}</Text>
              <Text as="p">Attempts: {delivery.attempts}</Text>
              {delivery.lastError && (
                <Text as="p" tone="critical">
                  Last error: {delivery.lastError}
                </Text>
              )}
              {delivery.trackingUrl && (
                <Button url={delivery.trackingUrl} target="_blank" variant="plain">
                  Tracking page
                </Button>
              )}
            </BlockStack>
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
