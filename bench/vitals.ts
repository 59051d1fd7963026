/**
 * Web vitals of the admin pages alone (issue 14), to iterate on them quickly: the built server
 * (built first if stale) on a small SQLite seed, and bench/pages.ts's own webVitals, each round on
 * a server just started, as bench:pages measures it; prints each page's median and range. With
 * `--against REF`, that commit's build is measured too, alternating with this tree's, so both see
 * the same machine. The figures of record are bench:pages's.
 *
 *   npx tsx bench/vitals.ts [--rounds 5] [--rows 2000] [--against main] [--explain]
 *
 * `--explain` also prints, for each page, the LCP entry's element and what the page loaded
 * before it (each request's start and end, from the Resource Timing entries).
 */
import path from "node:path";
import { parseArgs } from "node:util";
import {
  appBridgeStandIn,
  benchServerEnv,
  embeddedUrl,
  launchVitalsBrowser,
  newVitalsPage,
  pageSet,
  seedSqlite,
  shapes,
  sqliteLookup,
  webVitals,
} from "./pages";
import { ensureBuilt, startBuiltServer } from "./support/app-server";
import { buildBefore } from "./support/before-tree";
import { freePort, migrateDatabase, ROOT, scratchDir } from "./support/scratch";

const { values: args } = parseArgs({
  options: {
    rounds: { type: "string", default: "5" },
    rows: { type: "string", default: "2000" },
    against: { type: "string" },
    explain: { type: "boolean", default: false },
  },
});
const ROUNDS = Number(args.rounds);
const ROWS = Number(args.rows);
const PAGES = ["home", "list", "tab:delivered", "search:name", "deep", "delivery"];

const scratch = scratchDir("bench-vitals");
const build = ensureBuilt(scratch.dir);
console.log(`build ${build.state}${build.state === "stale" ? `: ${build.reason}` : ""}`);
const trees: Record<string, string> = {};
if (args.against) {
  trees[args.against] = buildBefore(args.against, scratch.dir);
  console.log(`${args.against} built`);
}
trees["this tree"] = ROOT;
const file = path.join(scratch.dir, "vitals.sqlite");
migrateDatabase(file);
seedSqlite(file, shapes(ROWS, 3, Math.round(ROWS / 2)), Date.now());
const pages = await pageSet("after", sqliteLookup(file));

async function withServer<T>(root: string, run: (url: string) => Promise<T>): Promise<T> {
  const port = await freePort();
  const server = await startBuiltServer({
    root,
    port,
    startTimeoutMs: 120_000,
    logFile: path.join(scratch.dir, "server.log"),
    env: benchServerEnv(port, `file:${file}`, await appBridgeStandIn()),
  });
  try {
    return await run(server.url);
  } finally {
    await server.stop();
  }
}

if (args.explain) {
  for (const [label, root] of Object.entries(trees)) {
    console.log(`--- ${label}`);
    await withServer(root, (url) => explain(url));
  }
}
const lcp: Record<string, Record<string, number[]>> = {};
const cls: Record<string, Record<string, number[]>> = {};
for (let round = 0; round < ROUNDS; round += 1) {
  for (const [label, root] of Object.entries(trees)) {
    const v = await withServer(root, (url) => webVitals(url, pages));
    for (const [name, figures] of Object.entries(v)) {
      ((lcp[label] ??= {})[name] ??= []).push(figures.lcpMs);
      ((cls[label] ??= {})[name] ??= []).push(figures.cls);
      if (args.explain)
        for (const shift of figures.shifts) console.log(`${label} ${name} shift ${shift}`);
    }
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
for (const label of Object.keys(trees)) {
  console.log(label);
  for (const name of PAGES) {
    const l = lcp[label]?.[name] ?? [];
    console.log(
      `  ${name.padEnd(14)} LCP median ${String(median(l)).padStart(5)} ms (${Math.min(...l)}–${Math.max(...l)}), CLS max ${Math.max(...(cls[label]?.[name] ?? []))}`,
    );
  }
}
console.log(JSON.stringify({ bench: "vitals", rows: ROWS, rounds: ROUNDS, lcp, cls }));

async function explain(base: string) {
  const browser = await launchVitalsBrowser();
  try {
    for (const name of PAGES) {
      const page = pages[name]!;
      const tab = await newVitalsPage(browser);
      await tab.goto(await embeddedUrl(base, page.shop!, page.path), { waitUntil: "load" });
      await tab.waitForTimeout(1000);
      // A plain function (no named inner functions: tsx's __name helper is not in the page).
      const report = await tab.evaluate(
        () =>
          new Promise<string[]>((resolve) => {
            const lines: string[] = [];
            new PerformanceObserver((list) => {
              for (const e of list.getEntries() as (PerformanceEntry & {
                element?: Element;
                renderTime: number;
                loadTime: number;
                size: number;
              })[]) {
                const el = e.element;
                const what = el
                  ? `<${el.tagName.toLowerCase()} class="${String(el.className).slice(0, 60)}"> "${(el.textContent ?? "").trim().slice(0, 40)}" connected=${el.isConnected}`
                  : "(element gone)";
                lines.push(`  LCP ${Math.round(e.startTime)} ms size ${e.size} ${what}`);
              }
            }).observe({ type: "largest-contentful-paint", buffered: true });
            const nav = performance.getEntriesByType(
              "navigation",
            )[0] as PerformanceNavigationTiming;
            lines.push(
              `  document: response ${Math.round(nav.responseStart)}–${Math.round(nav.responseEnd)} ms, DOMContentLoaded ${Math.round(nav.domContentLoadedEventEnd)}, load ${Math.round(nav.loadEventEnd)}, ${nav.encodedBodySize} B on the wire, ${nav.decodedBodySize} B`,
            );
            for (const p of performance.getEntriesByType("paint")) {
              lines.push(`  ${p.name} ${Math.round(p.startTime)} ms`);
            }
            for (const r of performance.getEntriesByType(
              "resource",
            ) as (PerformanceResourceTiming & { renderBlockingStatus?: string })[]) {
              lines.push(
                `  ${String(Math.round(r.startTime)).padStart(5)}–${String(Math.round(r.responseEnd)).padStart(5)} ms ${r.initiatorType.padEnd(6)} ${r.renderBlockingStatus ?? ""} ${r.encodedBodySize} B ${r.name.replace(location.origin, "").slice(0, 90)}`,
              );
            }
            setTimeout(() => resolve(lines), 300);
          }),
      );
      console.log(`${name} ${page.path.slice(0, 60)}\n${report.join("\n")}`);
      await tab.context().close();
    }
  } finally {
    await browser.close();
  }
}
