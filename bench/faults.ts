/**
 * The pipeline under faults (issue 11): every scenario of bench/faults/ (index.ts lists them) in
 * turn, in this process, on a scratch SQLite database, each with its own sandboxes. A scenario
 * prints readable lines and returns its figures; the last line is one JSON object with all of
 * them, the machine's load average and `targetsMet`. Exits 1 when a figure misses its target (or
 * a scenario fails).
 *
 *   npm run bench:faults [-- --only "late commits,courier outage"]
 */
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { productionBenchEnvironment } from "../test/support/test-env";
import { migrateDatabase, scratchDir } from "./support/scratch";

const { values: args } = parseArgs({ options: { only: { type: "string" } } });

/** The issue's targets, by figure; a figure without one is reported only. */
const TARGETS: Record<string, { text: string; met: (value: number, all: Figures) => boolean }> = {
  duplicatesPausedWorker: { text: "0", met: (v) => v === 0 },
  duplicatesLateCommit: { text: "0", met: (v) => v === 0 },
  duplicatesHistoryPaging: { text: "0", met: (v) => v === 0 },
  outageParkedForMerchant: { text: "0", met: (v) => v === 0 },
  outageCourierCallsPerDeliveryPerMinute: { text: "≤ 2", met: (v) => v <= 2 },
  outageRecoverySeconds: { text: "0 to 60", met: (v) => v >= 0 && v <= 60 },
  missedWebhooksRecovered: {
    text: "= missedWebhooks",
    met: (v, all) => v === all.missedWebhooks,
  },
  throttledParked: { text: "0", met: (v) => v === 0 },
  missedWebhooksRecordedTwice: { text: "0", met: (v) => v === 0 },
  trackingRewritesAfterCrash: { text: "0", met: (v) => v === 0 },
  largeOrderLineItemsSent: { text: "1000", met: (v) => v === 1000 },
  trackingRewritesAfterKill: { text: "0", met: (v) => v === 0 },
  refreshCallsPerExpiry: { text: "1", met: (v) => v === 1 },
  intakeP99BusyMs: { text: "≤ 100", met: (v) => v <= 100 },
  concurrentRetryServerErrors: { text: "0", met: (v) => v === 0 },
  concurrentRetryDuplicates: { text: "0", met: (v) => v === 0 },
  webProcessExitsOnDbDrop: { text: "0", met: (v) => v === 0 },
  acknowledgedLostOnDbDrop: { text: "0", met: (v) => v === 0 },
  lockedDbWebhookMaxMs: { text: "≤ 5000", met: (v) => v <= 5_000 },
  lockedDbAcknowledgedLost: { text: "0", met: (v) => v === 0 },
};
type Figures = Record<string, number>;

const scratch = scratchDir("bench-faults");
// The app reads its environment on first use: set before any scenario (and so the app) loads.
Object.assign(
  process.env,
  productionBenchEnvironment({
    DATABASE_URL: migrateDatabase(path.join(scratch.dir, "bench.sqlite")),
  }),
);
const { scenarios } = await import("./faults/index");
const only = args.only?.split(",").map((name) => name.trim());

console.log(
  `bench:faults — Node ${process.version}, load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}`,
);
const figures: Figures = {};
let failed = false;
for (const scenario of scenarios) {
  if (only && !only.includes(scenario.name)) continue;
  console.log(`\n${scenario.name}`);
  const started = performance.now();
  try {
    const result = await scenario.run((line) => console.log(`  ${line}`));
    Object.assign(figures, result);
    for (const [name, value] of Object.entries(result)) {
      const target = TARGETS[name];
      const verdict = target ? (target.met(value, figures) ? "met" : "MISSED") : "";
      console.log(`  ${name} = ${value}${target ? ` (target ${target.text}: ${verdict})` : ""}`);
    }
  } catch (error) {
    failed = true;
    console.log(
      `  FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
  }
  console.log(`  (${((performance.now() - started) / 1000).toFixed(1)} s)`);
}

const missed = Object.entries(figures).filter(
  ([name, value]) => TARGETS[name] && !TARGETS[name].met(value, figures),
);
const targetsMet = !failed && missed.length === 0;
console.log(
  JSON.stringify({
    ...figures,
    loadAverage: Math.round(os.loadavg()[0]! * 100) / 100,
    targetsMet,
  }),
);
scratch.remove();
process.exit(targetsMet ? 0 : 1);
