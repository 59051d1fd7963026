import { spawn } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import { createCourierClient, type CourierClient } from "../app/courier";
import { parseCourierReply } from "../app/courier/reply";
import { areasSchema } from "../app/courier/results";

/**
 * Client overhead per call: the courier client against a raw `fetch` of the same endpoint (same
 * headers, JSON parsed), on loopback, against the sandbox running in its own process so its work
 * is not counted on this event loop. Blocks of raw and client calls alternate so drift (GC, CPU
 * frequency) falls on both alike. `npm run bench:courier [-- --calls 2000]`
 */
const CALLS = Number(process.argv[process.argv.indexOf("--calls") + 1]) || 2000;
const WARMUP = 300;
const BLOCK = 100;
const KEY = "bench-key";
const ROOT = path.resolve(import.meta.dirname, "..");

async function startSandbox(): Promise<{ url: string; stop: () => void }> {
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "scripts/sandbox.ts",
      "--port",
      "0",
      "--quiet",
      "--step-ms",
      "0",
      "--key",
      KEY,
    ],
    { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] },
  );
  const lines = createInterface({ input: child.stdout });
  const url = await new Promise<string>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the sandbox exited with ${code}`)));
    lines.on("line", (line) => {
      const match = /listening on (http:\/\/\S+)/.exec(line);
      if (match?.[1]) resolve(match[1]);
    });
  });
  return { url, stop: () => child.kill("SIGTERM") };
}

interface Figures {
  meanUs: number;
  p50Us: number;
  p99Us: number;
}

function figures(samples: number[]): Figures {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  const mean = sorted.reduce((s, v) => s + v, 0) / sorted.length;
  const us = (ms: number) => Math.round(ms * 1000);
  return { meanUs: us(mean), p50Us: us(at(0.5)), p99Us: us(at(0.99)) };
}

interface Case {
  name: string;
  raw: () => Promise<unknown>;
  client: () => Promise<unknown>;
}

async function measure(c: Case) {
  for (let i = 0; i < WARMUP; i++) {
    await c.raw();
    await c.client();
  }
  const raw: number[] = [];
  const client: number[] = [];
  for (let done = 0; done < CALLS; done += BLOCK) {
    for (const [run, samples] of [
      [c.raw, raw],
      [c.client, client],
    ] as const) {
      for (let i = 0; i < BLOCK; i++) {
        const started = performance.now();
        await run();
        samples.push(performance.now() - started);
      }
    }
  }
  const r = figures(raw);
  const k = figures(client);
  return {
    name: c.name,
    calls: CALLS,
    raw: r,
    client: k,
    overheadUs: k.meanUs - r.meanUs,
    ratio: Math.round((k.meanUs / r.meanUs) * 100) / 100,
    // Medians, steadier than means on a shared machine where p99 is scheduling noise.
    p50OverheadUs: k.p50Us - r.p50Us,
    p50Ratio: Math.round((k.p50Us / r.p50Us) * 100) / 100,
  };
}

const sandbox = await startSandbox();
try {
  const client: CourierClient = createCourierClient({ baseUrl: sandbox.url, apiKey: KEY });
  const headers = { authorization: `ApiKey ${KEY}`, accept: "application/json" };
  const governanceId = (await client.governances())[0]?.governanceId ?? 0;
  const areas = await client.areas(governanceId);
  const [first, second] = areas;
  const priceBody = {
    pickupAddress: { governanceId, areaId: first?.areaId ?? 0 },
    deliveryAddress: { governanceId, areaId: second?.areaId ?? 0 },
    packageDetails: { weight: 3 },
  };
  const rawJson = async (url: string, init?: RequestInit) => {
    const response = await fetch(url, { headers, ...init });
    const body = (await response.json()) as { responseCode: number };
    if (body.responseCode !== 200) throw new Error(`raw call failed: ${JSON.stringify(body)}`);
    return body;
  };

  const cases: Case[] = [
    {
      name: `GET governances (6 records)`,
      raw: () => rawJson(`${sandbox.url}/api/master/governances/ar`),
      client: () => client.governances(),
    },
    {
      name: `GET areas (${areas.length} records)`,
      raw: () => rawJson(`${sandbox.url}/api/master/areas/${governanceId}/ar`),
      client: () => client.areas(governanceId),
    },
    {
      name: "POST calculate-price",
      raw: () =>
        rawJson(`${sandbox.url}/api/orders/calculate-price-api`, {
          method: "POST",
          headers: { ...headers, "content-type": "application/json" },
          body: JSON.stringify(priceBody),
        }),
      client: () => client.calculatePrice(priceBody),
    },
  ];

  console.log(
    `Courier client overhead on loopback: ${CALLS} calls per side after ${WARMUP} warm-up, Node ${process.version}`,
  );
  const results = [];
  for (const c of cases) {
    const result = await measure(c);
    results.push(result);
    const { raw, client: ours } = result;
    console.log(`  ${result.name}`);
    console.log(`    raw fetch  ${raw.meanUs} µs/call mean, p50 ${raw.p50Us}, p99 ${raw.p99Us}`);
    console.log(`    client     ${ours.meanUs} µs/call mean, p50 ${ours.p50Us}, p99 ${ours.p99Us}`);
    console.log(
      `    overhead   ${result.overheadUs} µs mean, ${result.p50OverheadUs} µs median · ratio ${result.ratio.toFixed(2)} mean, ${result.p50Ratio.toFixed(2)} median`,
    );
  }

  // The parser alone (envelope, schema, records kept raw), without any I/O.
  const reply = await fetch(`${sandbox.url}/api/master/areas/${governanceId}/ar`, { headers });
  const bytes = new Uint8Array(await reply.arrayBuffer());
  const parseRuns = 20_000;
  const parse = () =>
    parseCourierReply(
      { status: 200, headers: reply.headers, bytes },
      { endpoint: "areas", action: "bench", schema: areasSchema },
    );
  for (let i = 0; i < 2000; i++) parse();
  const started = performance.now();
  for (let i = 0; i < parseRuns; i++) parse();
  const parseUs = Math.round(((performance.now() - started) / parseRuns) * 1000 * 10) / 10;
  console.log(`  parsing one areas reply (${bytes.length} bytes) alone: ${parseUs} µs`);

  const worst = Math.max(...results.map((r) => r.ratio));
  const worstMedian = Math.max(...results.map((r) => r.p50Ratio));
  console.log(
    `  worst ratio client/raw: ${worst.toFixed(2)} on means, ${worstMedian.toFixed(2)} on medians`,
  );
  console.log(
    JSON.stringify({
      bench: "courier-client-overhead",
      calls: CALLS,
      warmup: WARMUP,
      node: process.version,
      cases: results,
      parseAreasUs: parseUs,
      worstRatio: worst,
      worstMedianRatio: worstMedian,
    }),
  );
} finally {
  sandbox.stop();
}
