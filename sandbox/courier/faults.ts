/** Operations of the courier interface, named as the app's client names them. */
export const SANDBOX_ENDPOINTS = [
  "createOrder",
  "createBulk",
  "calculatePrice",
  "history",
  "getOrder",
  "track",
  "cancel",
  "governances",
  "areas",
  "vehicleTypes",
  "orderStatuses",
  "exceptions",
  "corporateOrdersReport",
] as const;
export type SandboxEndpoint = (typeof SANDBOX_ENDPOINTS)[number];

/**
 * - `latency`: waits `latencyMs` before answering (adds up with other faults);
 * - `error`: answers `status` (default 503) with an error envelope, doing nothing;
 * - `rateLimit`: answers 429 with `Retry-After: retryAfter` (seconds or an HTTP date; default 1);
 * - `commitThenHang`: does the work (an order is created), then holds the reply for `hangMs`
 *   (default: until the client gives up or the sandbox closes);
 * - `stallBody`: does the work, sends the headers and the first half of the body, then holds the
 *   rest for `hangMs` (default: until the client gives up or the sandbox closes);
 * - `malformedJson`: does the work, then answers HTTP 200 with broken JSON;
 * - `closeConnection`: destroys the socket without answering, before the work or, with
 *   `afterCommit`, after it;
 * - `rejectKey`: answers 401 whatever the key, as if it had been revoked;
 * - `commitLate`: a create (or bulk create) accepts the order but records it only `commitAfterMs`
 *   later (default 20 000) on the sandbox's clock: no read shows it before. The reply is `status`
 *   at once when given (a gateway's 504), else held until the client gives up (or `hangMs`);
 * - `ignorePaging`: history answers its first page whatever `page` asks, without a total.
 */
export type FaultKind =
  | "latency"
  | "error"
  | "rateLimit"
  | "commitThenHang"
  | "stallBody"
  | "malformedJson"
  | "closeConnection"
  | "rejectKey"
  | "commitLate"
  | "ignorePaging";

export interface FaultRule {
  /** Which operation; `*` for all of them. */
  endpoint: SandboxEndpoint | "*";
  kind: FaultKind;
  /** Fires on the next `times` matching calls. Default 1, or unlimited with a `probability`. */
  times?: number;
  /** Fires on each matching call with this probability (seeded, so runs repeat). */
  probability?: number;
  latencyMs?: number;
  status?: number;
  retryAfter?: number | string;
  hangMs?: number;
  afterCommit?: boolean;
  commitAfterMs?: number;
}

interface ActiveRule extends FaultRule {
  id: number;
  remaining: number;
}

/** mulberry32: a small seeded generator, so probabilistic faults fire the same way every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const KINDS: ReadonlySet<string> = new Set<FaultKind>([
  "latency",
  "error",
  "rateLimit",
  "commitThenHang",
  "stallBody",
  "malformedJson",
  "closeConnection",
  "rejectKey",
  "commitLate",
  "ignorePaging",
]);

/** The faults armed on a sandbox. Rules are tried in the order they were added. */
export class FaultInjector {
  private rules: ActiveRule[] = [];
  private nextId = 1;
  private random: () => number;

  constructor(seed = 42) {
    this.random = seededRandom(seed);
  }

  /** Arms a fault; returns its id (for `remove`). */
  add(rule: FaultRule): number {
    if (!KINDS.has(rule.kind)) throw new Error(`Unknown fault kind ${String(rule.kind)}`);
    if (rule.probability !== undefined && !(rule.probability >= 0 && rule.probability <= 1)) {
      throw new Error("probability must be between 0 and 1");
    }
    const remaining = rule.times ?? (rule.probability !== undefined ? Infinity : 1);
    const id = this.nextId++;
    this.rules.push({ ...rule, id, remaining });
    return id;
  }

  remove(id: number): void {
    this.rules = this.rules.filter((r) => r.id !== id);
  }

  clear(): void {
    this.rules = [];
  }

  reseed(seed: number): void {
    this.random = seededRandom(seed);
  }

  list(): FaultRule[] {
    return this.rules.map(({ id: _id, remaining, ...rule }) => ({
      ...rule,
      ...(Number.isFinite(remaining) ? { times: remaining } : {}),
    }));
  }

  /**
   * The faults that fire for this call: the total latency, and at most one other fault (the first
   * armed one that fires).
   */
  draw(endpoint: SandboxEndpoint): { latencyMs: number; fault: FaultRule | undefined } {
    let latencyMs = 0;
    let fault: FaultRule | undefined;
    for (const rule of this.rules) {
      if (rule.endpoint !== "*" && rule.endpoint !== endpoint) continue;
      if (rule.kind !== "latency" && fault) continue;
      if (rule.remaining <= 0) continue;
      if (rule.probability !== undefined && this.random() >= rule.probability) continue;
      rule.remaining -= 1;
      if (rule.kind === "latency") latencyMs += rule.latencyMs ?? 0;
      else fault = rule;
    }
    this.rules = this.rules.filter((r) => r.remaining > 0);
    return { latencyMs, fault };
  }
}
