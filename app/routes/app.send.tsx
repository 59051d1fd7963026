// Over 400 lines: one component holds the page's state (selection, a bulk run followed to its end).
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import {
  Link as RemixLink,
  useFetcher,
  useLoaderData,
  type ShouldRevalidateFunction,
} from "@remix-run/react";
import {
  Badge,
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
  ProgressBar,
  Spinner,
  Text,
} from "@shopify/polaris";
import { useEffect, useMemo, useRef, useState } from "react";
import { z } from "zod";
import { BULK_LIMIT, SEND_BATCH } from "../deliveries/domain/limits";
import { quoteOrder, type QuoteOutcome } from "../deliveries/quote.server";
import type { SendProgress, SendStatus } from "../deliveries/send-status.server";
import { sendOrdersToCourier, type SendOutcome } from "../deliveries/send.server";
import { listSendableOrders } from "../deliveries/sendable-orders.server";
import { authenticate } from "../shopify.server";

const pageQuery = z.object({ after: z.string().min(1).max(2_000).optional().catch(undefined) });

/** A page of sendable orders: the first on opening, the next ones for "Load more". */
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { admin } = await authenticate.admin(request);
  const { after } = pageQuery.parse(Object.fromEntries(new URL(request.url).searchParams));
  return listSendableOrders(admin, after ?? null);
};

const orderGid = z.string().regex(/^gid:\/\/shopify\/Order\/\d+$/, "Unknown order.");
const sendForm = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("quote"), orderId: orderGid }),
  z.object({
    intent: z.literal("send"),
    /** Which batch of the page's selection this is, echoed back. */
    batch: z.coerce.number().int().min(0).max(BULK_LIMIT).optional(),
    /** How many orders the merchant selected in all (this request carries a batch of them). */
    selected: z.coerce
      .number()
      .int()
      .min(1)
      .max(BULK_LIMIT, `Select at most ${BULK_LIMIT} orders at a time.`)
      .optional(),
    orderIds: z
      .array(orderGid)
      .min(1, "Select at least one order.")
      .max(SEND_BATCH, `Send at most ${SEND_BATCH} orders per request.`),
  }),
]);

export type SendActionResult =
  | { intent: "quote"; orderId: string; quote: QuoteOutcome }
  | { intent: "send"; batch: number | null; outcomes: SendOutcome[] }
  | { intent: "invalid"; batch: number | null; error: string };

export const action = async ({ request }: ActionFunctionArgs) => {
  const { session, admin } = await authenticate.admin(request);
  const formData = await request.formData();
  const parsed = sendForm.safeParse({
    intent: formData.get("intent"),
    orderId: formData.get("orderId") ?? undefined,
    batch: formData.get("batch") ?? undefined,
    selected: formData.get("selected") ?? undefined,
    orderIds: formData.getAll("orderIds"),
  });
  if (!parsed.success) {
    const batch = Number(formData.get("batch"));
    return Response.json(
      {
        intent: "invalid",
        batch: Number.isInteger(batch) ? batch : null,
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
    (form.selected ?? form.orderIds.length) > 1 ? "bulk" : "manual",
  );
  return Response.json({
    intent: "send",
    batch: form.batch ?? null,
    outcomes,
  } satisfies SendActionResult);
};

// Sending and quoting change no order the page shows until it is done: the list is not read
// again from Shopify after every batch (each read costs query points).
export const shouldRevalidate: ShouldRevalidateFunction = ({
  formData,
  defaultShouldRevalidate,
}) => {
  const intent = formData?.get("intent");
  return intent === "send" || intent === "quote" ? false : defaultShouldRevalidate;
};

type StatusReply = { statuses: SendStatus[]; error: string | null };

/** What the page knows of one selected order. */
type RowOutcome =
  | { phase: "queued" }
  | { phase: "sending" }
  | { phase: "refused"; message: string; deliveryId: string | null }
  | { phase: "following"; deliveryId: string; status: SendStatus | null };

interface SendRun {
  orderIds: string[];
  batches: string[][];
  nextBatch: number;
}

const POLL_MS = 1_500;
/** Polling stops when nothing has moved for this long; the Deliveries page has the rest. */
const STALL_MS = 3 * 60_000;

const isSettled = (outcome: RowOutcome | undefined) =>
  outcome?.phase === "refused" || (outcome?.phase === "following" && !!outcome.status?.settled);

export default function SendOrders() {
  const firstPage = useLoaderData<typeof loader>();
  const [orders, setOrders] = useState(firstPage.orders);
  const [nextCursor, setNextCursor] = useState(firstPage.nextCursor);
  const [selected, setSelected] = useState<string[]>([]);
  const [outcomes, setOutcomes] = useState<Record<string, RowOutcome>>({});
  const [run, setRun] = useState<SendRun | null>(null);
  const [lastProgressAt, setLastProgressAt] = useState(0);
  const [stalled, setStalled] = useState(false);
  const pager = useFetcher<typeof loader>();
  const sender = useFetcher<SendActionResult>();
  const poller = useFetcher<StatusReply>();
  const quoter = useFetcher<SendActionResult>();
  const { submit: submitBatch } = sender;
  const { load: loadStatuses } = poller;
  // The batch whose answer is awaited, and whether the request was seen under way.
  const inFlight = useRef<{ batch: number; busy: boolean } | null>(null);

  // "Load more": the next page joins the list.
  useEffect(() => {
    if (pager.state !== "idle" || !pager.data) return;
    const page = pager.data;
    setOrders((current) => {
      const known = new Set(current.map((o) => o.id));
      return [...current, ...page.orders.filter((o) => !known.has(o.id))];
    });
    setNextCursor(page.nextCursor);
  }, [pager.state, pager.data]);

  // Sending: one batch at a time, the next when the previous one's answer is in.
  useEffect(() => {
    if (!run) return;
    const awaited = inFlight.current;
    if (awaited) {
      if (sender.state !== "idle") {
        awaited.busy = true;
        return;
      }
      if (!awaited.busy) return;
      inFlight.current = null;
      const batch = run.batches[awaited.batch] ?? [];
      const data = sender.data;
      const answered =
        data && data.intent !== "quote" && data.batch === awaited.batch ? data : null;
      setOutcomes((current) => {
        const next = { ...current };
        for (const orderId of batch) {
          const outcome =
            answered?.intent === "send"
              ? answered.outcomes.find((o) => o.orderId === orderId)
              : undefined;
          next[orderId] = !outcome
            ? {
                phase: "refused",
                message:
                  answered?.intent === "invalid" ? answered.error : "The app did not answer.",
                deliveryId: null,
              }
            : outcome.ok
              ? { phase: "following", deliveryId: outcome.deliveryId, status: null }
              : { phase: "refused", message: outcome.error, deliveryId: outcome.deliveryId };
        }
        return next;
      });
      setLastProgressAt(Date.now());
      setRun({ ...run, nextBatch: run.nextBatch + 1 });
      return;
    }
    if (sender.state !== "idle" || run.nextBatch >= run.batches.length) return;
    const batch = run.batches[run.nextBatch]!;
    inFlight.current = { batch: run.nextBatch, busy: false };
    setOutcomes((current) => ({
      ...current,
      ...Object.fromEntries(batch.map((id) => [id, { phase: "sending" } as const])),
    }));
    const form = new FormData();
    form.set("intent", "send");
    form.set("batch", String(run.nextBatch));
    form.set("selected", String(run.orderIds.length));
    for (const id of batch) form.append("orderIds", id);
    submitBatch(form, { method: "post" });
  }, [run, submitBatch, sender.state, sender.data]);

  // Following: each delivery's state, until every one has settled.
  const unsettled = useMemo(
    () =>
      Object.values(outcomes).flatMap((o) =>
        o.phase === "following" && !o.status?.settled ? [o.deliveryId] : [],
      ),
    [outcomes],
  );
  const unsettledKey = unsettled.join(",");
  useEffect(() => {
    if (poller.state !== "idle" || unsettledKey === "" || stalled) return;
    const timer = setTimeout(() => {
      if (Date.now() - lastProgressAt > STALL_MS) setStalled(true);
      else loadStatuses(`/app/send/status?ids=${unsettledKey}`);
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [loadStatuses, poller.state, unsettledKey, stalled, lastProgressAt]);
  useEffect(() => {
    if (poller.state !== "idle" || !poller.data) return;
    const statuses = poller.data.statuses;
    setOutcomes((current) => {
      let changed = false;
      const next = { ...current };
      for (const status of statuses) {
        const row = next[status.orderId];
        if (row?.phase !== "following" || row.deliveryId !== status.deliveryId) continue;
        if (row.status?.message === status.message && row.status.settled === status.settled)
          continue;
        next[status.orderId] = { ...row, status };
        changed = true;
      }
      if (changed) setLastProgressAt(Date.now());
      return changed ? next : current;
    });
  }, [poller.state, poller.data]);

  const sending = run !== null && run.nextBatch < run.batches.length;
  const done = run ? run.orderIds.filter((id) => isSettled(outcomes[id])).length : 0;
  const finished = run !== null && !sending && done === run.orderIds.length;
  const overLimit = selected.length > BULK_LIMIT;
  const selectable = (id: string) => {
    const outcome = outcomes[id];
    return !outcome || (outcome.phase === "refused" && outcome.deliveryId === null);
  };
  const toggle = (id: string) => (checked: boolean) =>
    setSelected((s) => (checked ? [...s, id] : s.filter((x) => x !== id)));
  const start = () => {
    const ids = orders.map((o) => o.id).filter((id) => selected.includes(id));
    if (ids.length === 0 || ids.length > BULK_LIMIT) return;
    const batches: string[][] = [];
    for (let i = 0; i < ids.length; i += SEND_BATCH) batches.push(ids.slice(i, i + SEND_BATCH));
    inFlight.current = null;
    setOutcomes((current) => ({
      ...current,
      ...Object.fromEntries(ids.map((id) => [id, { phase: "queued" } as const])),
    }));
    setSelected([]);
    setStalled(false);
    setLastProgressAt(Date.now());
    setRun({ orderIds: ids, batches, nextBatch: 0 });
  };
  const quote = quoter.data?.intent === "quote" ? quoter.data : null;

  return (
    <Page
      title="Send to courier"
      subtitle="Unfulfilled orders. Sending fulfils the order in Shopify and creates the courier delivery."
    >
      <BlockStack gap="400">
        {overLimit && (
          <Banner tone="critical" title={`${selected.length} orders selected`}>
            Send at most {BULK_LIMIT} orders at a time: unselect {selected.length - BULK_LIMIT}.
          </Banner>
        )}
        {run && (
          <Card>
            <BlockStack gap="200">
              <InlineStack gap="200" blockAlign="center">
                <Text as="h2" variant="headingSm">
                  {`${done} of ${run.orderIds.length} done`}
                </Text>
                {sending && (
                  <Text as="span" tone="subdued">
                    {`Fulfilling in Shopify: batch ${run.nextBatch + 1} of ${run.batches.length}`}
                  </Text>
                )}
                {!sending && !finished && !stalled && (
                  <Text as="span" tone="subdued">
                    Waiting for the courier&apos;s answers
                  </Text>
                )}
              </InlineStack>
              <ProgressBar
                progress={run.orderIds.length ? (100 * done) / run.orderIds.length : 0}
                tone={finished ? "success" : "primary"}
                size="small"
              />
              {finished && <RunSummary orderIds={run.orderIds} outcomes={outcomes} />}
              {stalled && !finished && (
                <Text as="p" tone="caution">
                  Some deliveries are still on their way; follow them on the{" "}
                  <RemixLink to="/app/deliveries">Deliveries</RemixLink> page.
                </Text>
              )}
            </BlockStack>
          </Card>
        )}
        {quote && (
          <Banner
            tone={quote.quote.ok ? "info" : "warning"}
            title={`Price quote for ${orders.find((o) => o.id === quote.orderId)?.name ?? "the order"}`}
          >
            {quote.quote.ok ? (
              <BlockStack gap="100">
                <Text as="p" variant="headingSm">
                  {`${quote.quote.price ?? "No price given"} ${quote.quote.currency ?? ""}`}
                </Text>
                <Text as="p">
                  {`Based on ${quote.quote.basis.weightKg} kg${quote.quote.basis.weightKnown ? "" : " (no item has a weight in Shopify: the default parcel weight)"}, from ${quote.quote.basis.from} to ${quote.quote.basis.to}, ${quote.quote.basis.cashOnDelivery ? `${quote.quote.basis.value} KWD to collect` : `declared value ${quote.quote.basis.value} KWD`}.`}
                </Text>
              </BlockStack>
            ) : (
              quote.quote.error
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
                { title: "Outcome" },
              ]}
            >
              {orders.map((order, index) => (
                <IndexTable.Row id={order.id} key={order.id} position={index}>
                  <IndexTable.Cell>
                    <Checkbox
                      label={`Select ${order.name}`}
                      labelHidden
                      checked={selected.includes(order.id)}
                      disabled={!selectable(order.id) || sending}
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
                    <Button
                      variant="plain"
                      accessibilityLabel={`Quote ${order.name}`}
                      loading={
                        quoter.state !== "idle" && quoter.formData?.get("orderId") === order.id
                      }
                      onClick={() =>
                        quoter.submit({ intent: "quote", orderId: order.id }, { method: "post" })
                      }
                    >
                      Quote
                    </Button>
                  </IndexTable.Cell>
                  <IndexTable.Cell>
                    <OrderOutcome outcome={outcomes[order.id]} />
                  </IndexTable.Cell>
                </IndexTable.Row>
              ))}
            </IndexTable>
          )}
        </Card>
        <InlineStack gap="300" blockAlign="center" align="space-between">
          <InlineStack gap="300" blockAlign="center">
            <Button
              variant="primary"
              disabled={selected.length === 0 || overLimit || sending}
              loading={sending}
              onClick={start}
            >
              {selected.length > 0 ? `Send ${selected.length} to courier` : "Send to courier"}
            </Button>
            <Button
              disabled={sending}
              onClick={() => setSelected(orders.map((o) => o.id).filter((id) => selectable(id)))}
            >
              {`Select all ${orders.length} loaded`}
            </Button>
            {selected.length > 0 && (
              <Button variant="plain" onClick={() => setSelected([])}>
                Clear selection
              </Button>
            )}
            <Text as="span" tone="subdued">
              {`${selected.length} selected; up to ${BULK_LIMIT} at a time.`}
            </Text>
          </InlineStack>
          {nextCursor && (
            <Button
              loading={pager.state !== "idle"}
              onClick={() => pager.load(`/app/send?after=${encodeURIComponent(nextCursor)}`)}
            >
              Load more orders
            </Button>
          )}
        </InlineStack>
      </BlockStack>
    </Page>
  );
}

const TONE: Record<SendProgress, "success" | "critical" | "warning" | "info" | undefined> = {
  created: "success",
  rejected: "critical",
  needs_address: "warning",
  needs_review: "warning",
  needs_attention: "warning",
  not_sent: "critical",
  cancelled: undefined,
  in_progress: "info",
};

const BADGE: Record<SendProgress, string> = {
  created: "Created",
  rejected: "Rejected",
  needs_address: "Needs address",
  needs_review: "Needs review",
  needs_attention: "Needs attention",
  not_sent: "Not sent",
  cancelled: "Cancelled",
  in_progress: "In progress",
};

function OrderOutcome({ outcome }: { outcome: RowOutcome | undefined }) {
  if (!outcome) return null;
  if (outcome.phase === "queued")
    return (
      <Text as="span" tone="subdued">
        Waiting its turn
      </Text>
    );
  if (outcome.phase === "sending")
    return (
      <InlineStack gap="100" blockAlign="center">
        <Spinner size="small" accessibilityLabel="Fulfilling" />
        <Text as="span">Fulfilling in Shopify</Text>
      </InlineStack>
    );
  const progress: SendProgress =
    outcome.phase === "refused" ? "not_sent" : (outcome.status?.progress ?? "in_progress");
  const message =
    outcome.phase === "refused"
      ? outcome.message
      : (outcome.status?.message ?? "Fulfilled in Shopify; preparing the courier request");
  return (
    <InlineStack gap="100" blockAlign="center" wrap={false}>
      <Badge tone={TONE[progress]}>{BADGE[progress]}</Badge>
      {outcome.deliveryId ? (
        <RemixLink to={`/app/deliveries/${outcome.deliveryId}`}>{message}</RemixLink>
      ) : (
        <Text as="span">{message}</Text>
      )}
    </InlineStack>
  );
}

function RunSummary({
  orderIds,
  outcomes,
}: {
  orderIds: string[];
  outcomes: Record<string, RowOutcome>;
}) {
  const counts = new Map<SendProgress, number>();
  for (const id of orderIds) {
    const outcome = outcomes[id];
    const progress: SendProgress =
      outcome?.phase === "refused"
        ? "not_sent"
        : outcome?.phase === "following"
          ? (outcome.status?.progress ?? "in_progress")
          : "in_progress";
    counts.set(progress, (counts.get(progress) ?? 0) + 1);
  }
  return (
    <List>
      {[...counts].map(([progress, n]) => (
        <List.Item key={progress}>{`${BADGE[progress]}: ${n}`}</List.Item>
      ))}
    </List>
  );
}
