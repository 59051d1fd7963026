import type { SendOutcomeView, SendStatusResponse } from "../../app/api-contract";
import type { AppApi } from "./api";

/** The most orders one request sends (the app's SEND_BATCH; it refuses more). */
export const SEND_BATCH = 10;

export type SendProgress = SendStatusResponse["statuses"][number]["progress"];

export type OrderProgress =
  | { orderId: string; orderName: string | null; phase: "waiting" }
  | { orderId: string; orderName: string | null; phase: "failed"; message: string }
  | {
      orderId: string;
      orderName: string | null;
      phase: "following" | "settled";
      deliveryId: string;
      /** Where the delivery stands (null until the first look), and the app's words for it. */
      progress: SendProgress | null;
      message: string;
      good: boolean;
    };

export interface BulkSendOptions {
  onProgress: (rows: OrderProgress[], done: number, total: number) => void;
  sleep?: (ms: number) => Promise<void>;
  /** How long to wait between looks at the deliveries sent, and how many looks at most. */
  pollMs?: number;
  maxPolls?: number;
  /** A request that failed, in the merchant's words (the error's own message by default). */
  describeError?: (error: unknown) => string;
}

/**
 * Sends a selection of orders in batches the app accepts, then follows each delivery until it
 * has settled (created at the courier, or waiting for the merchant), reporting every change.
 * A batch that fails as a whole marks its orders failed and the next batch still goes.
 */
export async function runBulkSend(
  api: Pick<AppApi, "send" | "sendStatus">,
  orderIds: readonly string[],
  options: BulkSendOptions,
): Promise<OrderProgress[]> {
  const sleep = options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  const rows: OrderProgress[] = orderIds.map((orderId) => ({
    orderId,
    orderName: null,
    phase: "waiting",
  }));
  const report = () =>
    options.onProgress(
      [...rows],
      rows.filter((r) => r.phase === "failed" || r.phase === "settled").length,
      rows.length,
    );
  report();
  for (let i = 0; i < orderIds.length; i += SEND_BATCH) {
    const batch = orderIds.slice(i, i + SEND_BATCH);
    let outcomes: SendOutcomeView[];
    try {
      outcomes = (await api.send(batch)).outcomes;
    } catch (error) {
      const message = options.describeError
        ? options.describeError(error)
        : error instanceof Error
          ? error.message
          : String(error);
      outcomes = batch.map((orderId) => ({
        orderId,
        orderName: null,
        ok: false,
        error: message,
        deliveryId: null,
      }));
    }
    for (const outcome of outcomes) {
      const index = rows.findIndex((r) => r.orderId === outcome.orderId);
      if (index < 0) continue;
      rows[index] =
        outcome.ok && outcome.deliveryId
          ? {
              orderId: outcome.orderId,
              orderName: outcome.orderName,
              phase: "following",
              deliveryId: outcome.deliveryId,
              progress: null,
              message: "",
              good: true,
            }
          : {
              orderId: outcome.orderId,
              orderName: outcome.orderName,
              phase: "failed",
              message: outcome.error ?? "",
            };
    }
    report();
  }
  for (let look = 0; look < (options.maxPolls ?? 60); look++) {
    const following = rows.flatMap((r) => (r.phase === "following" ? [r.deliveryId] : []));
    if (following.length === 0) break;
    await sleep(options.pollMs ?? 2000);
    let statuses: SendStatusResponse["statuses"];
    try {
      statuses = (await api.sendStatus(following)).statuses;
    } catch {
      continue;
    }
    for (const status of statuses) {
      const index = rows.findIndex(
        (r) => r.phase === "following" && r.deliveryId === status.deliveryId,
      );
      const row = rows[index];
      if (!row || row.phase !== "following") continue;
      rows[index] = {
        ...row,
        phase: status.settled ? "settled" : "following",
        progress: status.progress,
        message: status.message,
        good: status.progress === "created",
      };
    }
    report();
  }
  return rows;
}
