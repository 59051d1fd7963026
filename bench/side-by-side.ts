/**
 * Benchmarks of this tree beside the same benchmarks of another commit, in one run on one machine:
 * for a change that must not cost speed (a refactor), the figures of both, round after round, in
 * alternating order so that a machine growing busier or quieter weighs on both alike.
 *
 *   npm run bench:side-by-side -- --against main [--rounds 3] [--bench "webhooks,pipeline --quick,sync"]
 *
 * The other commit is taken with `git archive` into a scratch folder, with this tree's
 * node_modules linked in and its server built (bench/support/before-tree.ts); each tree runs its
 * own benchmark files against its own code. For every numeric figure of a benchmark's last JSON
 * line it prints the median of the rounds for both and the ratio (this tree / the other), and it
 * ends with one JSON line of all of them and the machine's load average. Each run's whole output
 * is kept in test-results/bench-side-by-side/ (a figure only one side printed is listed there).
 */
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { buildBefore } from "./support/before-tree";
import { ROOT, scratchDir } from "./support/scratch";

const { values: args } = parseArgs({
  options: {
    against: { type: "string", default: "main" },
    rounds: { type: "string", default: "3" },
    bench: { type: "string", default: "webhooks,pipeline --quick,sync --deliveries 2000,faults" },
  },
});
const rounds = Number(args.rounds);
const benches = args.bench!.split(",").map((spec) => {
  const [name, ...rest] = spec.trim().split(/\s+/);
  return { name: name!, extra: rest };
});

type Figures = Record<string, number>;

/** Numeric leaves of a JSON object, keyed by their path ("busy.p99Ms"). */
function numbers(value: unknown, prefix = "", into: Figures = {}): Figures {
  if (typeof value === "number" && Number.isFinite(value)) into[prefix] = value;
  else if (value && typeof value === "object" && !Array.isArray(value)) {
    for (const [key, inner] of Object.entries(value)) {
      numbers(inner, prefix ? `${prefix}.${key}` : key, into);
    }
  }
  return into;
}

const LOGS = path.join(ROOT, "test-results", "bench-side-by-side");
fs.mkdirSync(LOGS, { recursive: true });

function run(root: string, name: string, extra: string[], log: string): Promise<Figures> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", path.join(root, "bench", `${name}.ts`), ...extra],
      { cwd: root, env: { ...process.env, FORCE_COLOR: "0" }, stdio: ["ignore", "pipe", "pipe"] },
    );
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      fs.writeFileSync(log, out);
      const last = out
        .trim()
        .split("\n")
        .reverse()
        .find((line) => line.startsWith("{"));
      if (!last) {
        reject(new Error(`bench ${name} in ${root} printed no JSON line (exit ${code}):\n${out}`));
        return;
      }
      resolve(numbers(JSON.parse(last)));
    });
  });
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

const scratch = scratchDir("bench-side-by-side");
console.log(`Building ${args.against} in a scratch copy…`);
/** The benchmarks that start the built server; the others run the other tree's sources alone. */
const SERVED = new Set(["webhooks", "pages", "security", "vitals", "faults"]);
const before = buildBefore(args.against!, scratch.dir, {
  build: benches.some((bench) => SERVED.has(bench.name)),
});
const head = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT }).toString().trim();
console.log(
  `This tree: ${head}${execFileSync("git", ["status", "--porcelain"], { cwd: ROOT }).length ? " (with uncommitted changes)" : ""}; the other: ${args.against}; ${rounds} rounds`,
);

const result: Record<string, Record<string, { before: number; after: number; ratio: number }>> = {};
for (const { name, extra } of benches) {
  const label = [name, ...extra].join(" ");
  const seen = { before: [] as Figures[], after: [] as Figures[] };
  for (let round = 0; round < rounds; round++) {
    // Alternate who goes first, so a trend in the machine's load is shared.
    const order = round % 2 === 0 ? (["before", "after"] as const) : (["after", "before"] as const);
    for (const side of order) {
      const started = Date.now();
      const log = path.join(LOGS, `${label.replace(/[^\w.-]+/g, "_")}-${side}-${round + 1}.log`);
      seen[side].push(await run(side === "before" ? before : ROOT, name, extra, log));
      console.log(
        `  ${label}: round ${round + 1}, ${side === "before" ? args.against : "this tree"} in ${((Date.now() - started) / 1000).toFixed(0)} s (load ${os.loadavg()[0]!.toFixed(1)})`,
      );
    }
  }
  result[label] = {};
  console.log(`\n${label} (median of ${rounds}; ratio = this tree / ${args.against})`);
  const keys = Object.keys(seen.after[0]!).filter((key) => key in seen.before[0]!);
  const oneSided = [
    ...Object.keys(seen.after[0]!)
      .filter((key) => !(key in seen.before[0]!))
      .map((k) => `${k} (this tree only)`),
    ...Object.keys(seen.before[0]!)
      .filter((key) => !(key in seen.after[0]!))
      .map((k) => `${k} (${args.against} only)`),
  ];
  for (const key of keys) {
    const b = median(seen.before.map((figures) => figures[key]!).filter((v) => v !== undefined));
    const a = median(seen.after.map((figures) => figures[key]!).filter((v) => v !== undefined));
    const ratio = b === 0 ? (a === 0 ? 1 : Infinity) : a / b;
    result[label]![key] = { before: b, after: a, ratio: Number(ratio.toFixed(3)) };
    console.log(
      `  ${key.padEnd(48)} ${String(b).padStart(12)}  ${String(a).padStart(12)}  ×${ratio.toFixed(3)}`,
    );
  }
  if (oneSided.length) console.log(`  printed by one side only: ${oneSided.join(", ")}`);
  console.log(`  whole outputs: ${path.relative(ROOT, LOGS)}/`);
  console.log("");
}
scratch.remove();
console.log(
  JSON.stringify({
    against: args.against,
    head,
    rounds,
    loadAverage: os.loadavg(),
    benches: result,
  }),
);
