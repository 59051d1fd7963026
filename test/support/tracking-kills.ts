import { resetEnvForTests } from "../../app/env.server";
import { runDueDeliveries } from "../../app/pipeline/worker.server";
import { startCourierSandbox } from "../../sandbox/courier";
import { startChildWorker } from "./child-worker";
import { testWorker } from "./pipeline";
import { startStandInShop } from "./standin-shop";
import { SANDBOX_KEY } from "./test-env";

/**
 * Where a worker process (test/support/delivery-worker-child.ts) is stopped on the way from the
 * courier's create to the tracking number on Shopify (issue 24):
 * - `tracking-write`: killed (SIGKILL) 0–5 ms after the Shopify stand-in took its tracking write,
 *   before the row records it;
 * - `courier-create`: killed 0–40 ms after the courier answered its create;
 * - `anywhere`: killed 0–300 ms after it started;
 * - `stopped`: stopped (SIGSTOP) as it turns to the tracking number; once its lease has lapsed
 *   another worker takes the deliveries over and puts the tracking on Shopify; then it is resumed
 *   (SIGCONT), as a frozen process, or one whose kill hit only its npm or tsx wrapper, goes on.
 */
export type KillPoint = "tracking-write" | "courier-create" | "anywhere" | "stopped";

export interface KillFigures {
  /** Rounds whose worker process died of the SIGKILL (one that finished first is not counted). */
  kills: number;
  /** Rounds whose worker was stopped past its lease and resumed. */
  stops: number;
  fulfillments: number;
  /** Fulfillments with their tracking on Shopify after the round. */
  tracked: number;
  /** Fulfillments whose tracking Shopify accepted more than once. */
  rewritten: number;
  byPoint: Record<KillPoint, { rounds: number; fulfillments: number; rewritten: number }>;
}

/** The test's time: real time moved on by what the takeovers skipped (leases lapsing). */
function shiftingClock() {
  let offsetMs = 0;
  return {
    get offsetMs() {
      return offsetMs;
    },
    get now() {
      return new Date(Date.now() + offsetMs);
    },
    set now(at: Date) {
      offsetMs = Math.max(offsetMs, at.getTime() - Date.now());
    },
  };
}

const random = (maxMs: number) => Math.floor(Math.random() * maxMs);

/**
 * `rounds` times, the points in turn: one order or three (every other turn) fulfilled on the Shopify stand-in and
 * built here (pending → ready), a worker process started on them (its Admin API the stand-in,
 * over HTTP) and killed or stopped at the round's point; then another worker (this process) takes
 * over once the dead one's lease has lapsed. Counts what the stand-in accepted of each
 * fulfillment's tracking. Needs the app's environment on a database the child opens too (SQLite
 * in WAL, or PostgreSQL). `resumedRunsOut`: a stopped worker, resumed, runs until it ends (by
 * default it is killed 0–200 ms after).
 */
export async function killRounds(options: {
  name: string;
  rounds: number;
  points: readonly KillPoint[];
  resumedRunsOut?: boolean;
  log?: (line: string) => void;
}): Promise<KillFigures> {
  const clock = shiftingClock();
  let onCourierReply: ((line: string) => void) | undefined;
  const sandbox = await startCourierSandbox({
    acceptedKeys: [SANDBOX_KEY],
    clock: () => clock.now.getTime(),
    log: (line) => onCourierReply?.(line),
  });
  const previousSandboxUrl = process.env.COURIER_SANDBOX_URL;
  process.env.COURIER_SANDBOX_URL = sandbox.url;
  resetEnvForTests();
  const shopify = await startStandInShop(options.name, clock);
  // Each call is logged as it arrives, before it runs (its operation name is read later).
  let onGraphql: ((query: string) => void) | undefined;
  const calls = shopify.standIn.store.graphqlLog;
  const push = calls.push.bind(calls);
  calls.push = (...records) => {
    const length = push(...records);
    for (const record of records) onGraphql?.(record.query);
    return length;
  };
  const none = () => ({ rounds: 0, fulfillments: 0, rewritten: 0 });
  const figures: KillFigures = {
    kills: 0,
    stops: 0,
    fulfillments: 0,
    tracked: 0,
    rewritten: 0,
    byPoint: {
      "tracking-write": none(),
      "courier-create": none(),
      anywhere: none(),
      stopped: none(),
    },
  };
  try {
    for (let round = 0; round < options.rounds; round += 1) {
      const point = options.points[round % options.points.length]!;
      const fulfillments = Array.from(
        { length: Math.floor(round / options.points.length) % 2 === 0 ? 1 : 3 },
        () => shopify.fulfilNewOrder().fulfillmentId,
      );
      await shopify.standIn.webhooks.flush();
      clock.now = new Date();
      // Built here, in one pass: the child starts at the create.
      await runDueDeliveries(testWorker({ clock, owner: `${options.name}-builder` }).deps, 20);

      const child = startChildWorker(`${options.name}-${round}`, [
        "--shopify",
        shopify.standIn.url,
        "--until-idle",
        "--timeout-ms",
        "5000",
        "--now-offset-ms",
        String(clock.offsetMs),
        ...(point === "stopped" ? ["--pause", "before-tracking"] : []),
      ]);
      const kill = () => {
        try {
          child.signal("SIGKILL");
        } catch {
          // It had ended.
        }
      };
      // 0: at once, before the stand-in has even answered (it applies the write all the same).
      const killIn = (ms: number) => (ms === 0 ? kill() : setTimeout(kill, ms));
      if (point === "tracking-write") {
        onGraphql = (query) => {
          if (!query.includes("mutation DeliveryTrackingUpdate")) return;
          onGraphql = undefined;
          killIn(random(6));
        };
      } else if (point === "courier-create") {
        onCourierReply = (line) => {
          if (!line.includes("/api/orders/create")) return;
          onCourierReply = undefined;
          killIn(random(40));
        };
      } else if (point === "anywhere") {
        await child.printed("ready");
        killIn(random(300));
      } else {
        await child.printed("paused before-tracking");
        await child.stopped();
        clock.now = new Date(clock.now.getTime() + 10 * 60_000);
        await testWorker({ clock, owner: `${options.name}-while-stopped-${round}` }).settle();
        child.signal("SIGCONT");
        if (!options.resumedRunsOut) killIn(random(200));
      }
      const exit = await child.exited;
      onGraphql = undefined;
      onCourierReply = undefined;
      if (exit === "SIGKILL") figures.kills += 1;
      if (point === "stopped") figures.stops += 1;

      // Another worker, once the dead one's lease has lapsed.
      clock.now = new Date(clock.now.getTime() + 10 * 60_000);
      await testWorker({ clock, owner: `${options.name}-takes-over-${round}` }).settle();

      const writes = shopify.trackingWrites();
      const of = figures.byPoint[point];
      of.rounds += 1;
      for (const id of fulfillments) {
        const n = writes.get(id) ?? 0;
        figures.fulfillments += 1;
        of.fulfillments += 1;
        if (n >= 1) figures.tracked += 1;
        if (n > 1) {
          figures.rewritten += 1;
          of.rewritten += 1;
        }
      }
      options.log?.(
        `round ${round + 1}, ${point}, ${fulfillments.length} ${fulfillments.length === 1 ? "delivery" : "deliveries"}: ${exit === "SIGKILL" ? "killed" : `ended (${String(exit)})`}, tracking writes ${fulfillments.map((id) => writes.get(id) ?? 0).join(", ")}`,
      );
    }
    return figures;
  } finally {
    onGraphql = undefined;
    onCourierReply = undefined;
    await shopify.close();
    await sandbox.close();
    if (previousSandboxUrl === undefined) delete process.env.COURIER_SANDBOX_URL;
    else process.env.COURIER_SANDBOX_URL = previousSandboxUrl;
    resetEnvForTests();
  }
}
