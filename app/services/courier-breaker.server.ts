import {
  CourierCircuitOpenError,
  ENDPOINTS,
  isCourierError,
  type CourierClient,
  type CourierEndpoint,
} from "../courier";
import {
  admission,
  afterAnswer,
  afterNoAnswer,
  answerChanges,
  circuitOf,
  isNotAnswering,
  startTrial,
  type CircuitName,
} from "../courier/circuit";
import { longestCourierCallMs } from "../domain/lease-policy";
import { env } from "../env.server";
import { changeCircuit, readCircuit } from "../models/courier-circuits.server";
import { resumeWaitingDeliveries } from "../models/deliveries.server";

/**
 * The courier account's circuit breaker around a client (ADR 0019): every call first reads the
 * account's circuit (shared by all worker processes, in the database), is refused with
 * `CourierCircuitOpenError` while it is open, and reports afterwards whether the courier answered.
 * A refused call sends nothing.
 */
export interface CourierAccountRef {
  shop: string;
  environment: string;
}

export interface BreakerOptions {
  now: () => Date;
  /** How long a trial call may take (the longest courier call), so a lost trial is retried. */
  trialMs: number;
}

/** When the account's `circuit` lets calls through again; null when it does now. */
export async function circuitClosedAt(
  account: CourierAccountRef,
  circuit: CircuitName,
  now: Date,
): Promise<Date | null> {
  const verdict = admission(await readCircuit({ ...account, circuit }), now);
  return verdict.go ? null : verdict.retryAt;
}

export function withCircuitBreaker(
  client: CourierClient,
  account: CourierAccountRef,
  options: BreakerOptions,
): CourierClient {
  async function through<T>(endpoint: CourierEndpoint, call: () => Promise<T>): Promise<T> {
    const key = { ...account, circuit: circuitOf(endpoint) };
    const now = options.now();
    const circuit = await readCircuit(key);
    const verdict = admission(circuit, now);
    const refuse = (retryAt: Date) =>
      new CourierCircuitOpenError({
        endpoint,
        action: `calling the courier (${endpoint})`,
        outcome: "not_sent",
        retryAt,
      });
    if (!verdict.go) throw refuse(verdict.retryAt);
    if (verdict.trial) {
      // One trial at a time, across processes: whoever sets trialUntil first makes it.
      const claimed = await changeCircuit(key, (current) => {
        const again = admission(current, now);
        return again.go && again.trial
          ? startTrial(current, new Date(now.getTime() + options.trialMs))
          : null;
      });
      if (!claimed.changed) {
        const again = admission(claimed.state, now);
        if (!again.go || again.trial) throw refuse(again.go ? now : again.retryAt);
      }
    }
    // A trial the courier answers closes the circuit: the deliveries waiting for it go now, not
    // at the end of their own waits (ADR 0051).
    const answered = async () => {
      if (!verdict.trial && !answerChanges(circuit)) return;
      await changeCircuit(key, () => afterAnswer());
      if (verdict.trial) await resumeWaitingDeliveries(account.shop, options.now());
    };
    try {
      const result = await call();
      await answered();
      return result;
    } catch (error) {
      if (isCourierError(error)) {
        if (isNotAnswering(error)) {
          await changeCircuit(key, (current) =>
            afterNoAnswer(current, options.now(), error.message, verdict.trial),
          );
        } else if (error.outcome === "not_sent") {
          // Never left the app (an invalid request, a held-up send): says nothing of the courier.
          if (verdict.trial) await changeCircuit(key, (current) => startTrial(current, null));
        } else {
          // A refusal is an answer: the courier is there.
          await answered();
        }
      }
      throw error;
    }
  }

  const guarded: Record<string, unknown> = { baseUrl: client.baseUrl };
  for (const endpoint of Object.keys(ENDPOINTS) as CourierEndpoint[]) {
    const method = client[endpoint] as (...args: unknown[]) => Promise<unknown>;
    guarded[endpoint] = (...args: unknown[]) => through(endpoint, () => method.apply(client, args));
  }
  return guarded as unknown as CourierClient;
}

/**
 * The merchant's own courier calls (a quote, a cancel, "mark created", the reports) through the
 * account's circuit, as the worker's are (ADR 0019, 0049): while the courier is known not to
 * answer they are refused at once ("the courier is not answering") instead of each waiting out
 * its timeout, and a call that gets no answer counts toward opening it. Testing a key in
 * Settings does not go through it: that call asks whether this key and address work now.
 */
export function merchantCourierCalls(
  client: CourierClient,
  account: CourierAccountRef,
): CourierClient {
  return withCircuitBreaker(client, account, {
    now: () => new Date(),
    trialMs: longestCourierCallMs(env().COURIER_TIMEOUT_MS),
  });
}
