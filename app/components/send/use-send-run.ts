import { useFetcher } from "@remix-run/react";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { SEND_BATCH } from "../../domain/limits";
import type { SendActionResult } from "../../pages/send.server";
import type { SendProgress, SendStatus } from "../../actions/send-status.server";
import { notice, type Notice } from "../../domain/notices";

/** What the page knows of one selected order. */
export type RowOutcome =
  | { phase: "queued" }
  | { phase: "sending" }
  | { phase: "refused"; message: Notice; deliveryId: string | null }
  | { phase: "following"; deliveryId: string; status: SendStatus | null };

interface SendRun {
  orderIds: string[];
  batches: string[][];
  nextBatch: number;
}

type StatusReply = { statuses: SendStatus[]; error: string | null };

const POLL_MS = 1_500;
/** Polling stops when nothing has moved for this long; the Deliveries page has the rest. */
const STALL_MS = 3 * 60_000;

export const isSettled = (outcome: RowOutcome | undefined) =>
  outcome?.phase === "refused" || (outcome?.phase === "following" && !!outcome.status?.settled);

/** Where an order stands for the run's summary and its row's badge. */
export function progressOf(outcome: RowOutcome | undefined): SendProgress {
  if (outcome?.phase === "refused") return "not_sent";
  if (outcome?.phase === "following") return outcome.status?.progress ?? "in_progress";
  return "in_progress";
}

/**
 * A selection sent SEND_BATCH orders per request, one request after the other, then each
 * delivery followed (GET /app/send/status) until it has settled or nothing has moved for
 * STALL_MS. The list of orders is not read again meanwhile.
 */
export function useSendRun() {
  const [outcomes, setOutcomes] = useState<Record<string, RowOutcome>>({});
  const [run, setRun] = useState<SendRun | null>(null);
  const [lastProgressAt, setLastProgressAt] = useState(0);
  const [stalled, setStalled] = useState(false);
  const sender = useFetcher<SendActionResult>();
  const poller = useFetcher<StatusReply>();
  const { submit: submitBatch } = sender;
  const { load: loadStatuses } = poller;
  // The batch whose answer is awaited, and whether the request was seen under way.
  const inFlight = useRef<{ batch: number; busy: boolean } | null>(null);

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
        data &&
        (data.intent === "send" || data.intent === "invalid") &&
        data.batch === awaited.batch
          ? data
          : null;
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
                message: answered?.intent === "invalid" ? answered.error : notice("no_answer"),
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

  const start = useCallback((ids: string[]) => {
    if (ids.length === 0) return;
    const batches: string[][] = [];
    for (let i = 0; i < ids.length; i += SEND_BATCH) batches.push(ids.slice(i, i + SEND_BATCH));
    inFlight.current = null;
    setOutcomes((current) => ({
      ...current,
      ...Object.fromEntries(ids.map((id) => [id, { phase: "queued" } as const])),
    }));
    setStalled(false);
    setLastProgressAt(Date.now());
    setRun({ orderIds: ids, batches, nextBatch: 0 });
  }, []);

  const sending = run !== null && run.nextBatch < run.batches.length;
  const done = run ? run.orderIds.filter((id) => isSettled(outcomes[id])).length : 0;
  return {
    outcomes,
    run,
    start,
    sending,
    done,
    finished: run !== null && !sending && done === run.orderIds.length,
    stalled,
  };
}
