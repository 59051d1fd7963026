import type { CourierEndpoint } from "./endpoints";
import { CourierTimeoutError, CourierUnavailableError, type CourierError } from "./errors";

/**
 * The circuit breaker of one courier account, as pure rules (ADR 0019); where its state lives and
 * how calls go through it is the caller's business. Creates have a circuit of their own: a
 * courier that fails every create while its history answers stops taking new orders without
 * stopping the history searches that settle the ones already sent.
 */
export type CircuitName = "create" | "other";

export function circuitOf(endpoint: CourierEndpoint): CircuitName {
  return endpoint === "createOrder" || endpoint === "createBulk" ? "create" : "other";
}

export interface CircuitState {
  state: "closed" | "open";
  /** Calls in a row the courier did not answer. */
  failures: number;
  /** Times in a row the circuit opened (kept for the record; each open lasts `OPEN_MS`). */
  opens: number;
  openUntil: Date | null;
  /** A trial call is under way until then. */
  trialUntil: Date | null;
  lastError: string | null;
}

export const CLOSED_CIRCUIT: CircuitState = {
  state: "closed",
  failures: 0,
  opens: 0,
  openUntil: null,
  trialUntil: null,
  lastError: null,
};

/** Calls in a row the courier leaves unanswered before the circuit opens. */
export const FAILURES_TO_OPEN = 5;
/**
 * How long the circuit stays open before its next trial call, every time: a courier that comes
 * back is found within 15 s whatever the outage's length, by one call per circuit of the account
 * whatever the number of deliveries waiting (ADR 0051). Each delivery still spaces its own calls
 * (`courierDownWaitMs`), so the trials go to whichever waiting delivery is due.
 */
export const OPEN_MS = 15_000;
/** How soon a caller turned away during someone else's trial call comes back. */
export const TRIAL_RECHECK_MS = 5_000;

/** The courier did not answer: down, refusing connections, failing on its side, slow or asking to slow down. */
export function isNotAnswering(error: CourierError): boolean {
  return error instanceof CourierUnavailableError || error instanceof CourierTimeoutError;
}

/**
 * Whether a call may go out at `now`: always while closed; while open, none until `openUntil`,
 * then one trial at a time (the caller claims it, so only one of many workers makes it).
 */
export type Admission = { go: true; trial: boolean } | { go: false; retryAt: Date };

export function admission(circuit: CircuitState, now: Date): Admission {
  if (circuit.state === "closed") return { go: true, trial: false };
  if (circuit.openUntil && now < circuit.openUntil)
    return { go: false, retryAt: circuit.openUntil };
  if (circuit.trialUntil && now < circuit.trialUntil) {
    return { go: false, retryAt: new Date(now.getTime() + TRIAL_RECHECK_MS) };
  }
  return { go: true, trial: true };
}

/**
 * A trial call starts; it holds the trial until `until` (the longest a call can take), or null
 * when it gives the trial back unmade.
 */
export function startTrial(circuit: CircuitState, until: Date | null): CircuitState {
  return { ...circuit, trialUntil: until };
}

/**
 * The courier did not answer a call: counted; the circuit opens after enough in a row, and opens
 * again when the trial call fails. A call let through before the circuit opened (another
 * worker's failures opened it meanwhile) only counts.
 */
export function afterNoAnswer(
  circuit: CircuitState,
  now: Date,
  message: string,
  trial: boolean,
): CircuitState {
  const failures = circuit.failures + 1;
  const opening = circuit.state === "open" ? trial : failures >= FAILURES_TO_OPEN;
  if (!opening) return { ...circuit, failures, lastError: message };
  const opens = circuit.opens + 1;
  return {
    state: "open",
    failures,
    opens,
    openUntil: new Date(now.getTime() + OPEN_MS),
    trialUntil: null,
    lastError: message,
  };
}

/** The courier answered (whatever it said): the circuit closes and counts from zero. */
export function afterAnswer(): CircuitState {
  return CLOSED_CIRCUIT;
}

/** Whether an answer changes anything (a closed circuit with nothing counted stays as it is). */
export function answerChanges(circuit: CircuitState): boolean {
  return circuit.state !== "closed" || circuit.failures > 0;
}
