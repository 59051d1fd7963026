/**
 * One expiry of the shop's offline token with three processes of the app needing the Admin API at
 * once, ten clients each (as a worker pass does), against the Shopify stand-in, whose refresh
 * tokens work once (ADR 0015). Figures: refresh calls for the one expiry, and Admin clients that
 * failed.
 */
import { spawn } from "node:child_process";
import { Session } from "@shopify/shopify-api";
import prisma from "../../app/db.server";
import { sessionStorage } from "../../app/shopify.server";
import { startTestStandIn } from "../../test/shopify-standin/support";
import type { Log } from "../support/fault-courier";
import { ROOT } from "../support/scratch";

const SHOP = "bench-token-refresh.myshopify.com";
const PROCESSES = 3;
const CLIENTS = 10;

function appProcess(standInUrl: string) {
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "--import",
      "./sandbox/shopify/preload.ts",
      "test/support/token-refresh-child.ts",
      SHOP,
      String(CLIENTS),
    ],
    {
      cwd: ROOT,
      env: { ...process.env, SHOPIFY_STANDIN_URL: standInUrl },
      stdio: ["pipe", "pipe", "pipe"],
    },
  );
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", () => undefined);
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  return {
    async ready() {
      while (!output.includes("ready")) await new Promise((resolve) => setTimeout(resolve, 50));
    },
    go: () => child.stdin.write("go\n"),
    async result() {
      await exited;
      const line = output.split("\n").find((l) => l.startsWith("{"));
      return line ? (JSON.parse(line) as { ok: number; errors: string[] }) : { ok: 0, errors: [] };
    },
  };
}

export async function run(log: Log): Promise<Record<string, number>> {
  const standIn = await startTestStandIn({ shop: SHOP });
  try {
    await prisma.shopSettings.create({ data: { shop: SHOP } });
    // A token exchange's grant, stored as it would be four minutes before its end.
    const granted = standIn.auth.handleTokenRequest({
      client_id: process.env.SHOPIFY_API_KEY,
      client_secret: process.env.SHOPIFY_API_SECRET,
      grant_type: "urn:ietf:params:oauth:grant-type:token-exchange",
      subject_token: standIn.auth.sessionToken(),
      subject_token_type: "urn:ietf:params:oauth:token-type:id_token",
      requested_token_type: "urn:shopify:params:oauth:token-type:offline-access-token",
      expiring: "1",
    }).body as { access_token: string; scope: string; refresh_token: string };
    await sessionStorage.storeSession(
      new Session({
        id: `offline_${SHOP}`,
        shop: SHOP,
        state: "",
        isOnline: false,
        accessToken: granted.access_token,
        scope: granted.scope,
        expires: new Date(Date.now() + 4 * 60_000),
        refreshToken: granted.refresh_token,
        refreshTokenExpires: new Date(Date.now() + 90 * 86_400_000),
      }),
    );
    standIn.auth.requests.length = 0;
    const processes = Array.from({ length: PROCESSES }, () => appProcess(standIn.url));
    for (const p of processes) await p.ready();
    for (const p of processes) p.go();
    const results = await Promise.all(processes.map((p) => p.result()));
    const refreshes = standIn.auth.requests.filter((r) => r.grantType === "refresh_token");
    const failed =
      results.reduce((n, r) => n + r.errors.length, 0) +
      (PROCESSES * CLIENTS - results.reduce((n, r) => n + r.ok + r.errors.length, 0));
    log(
      `${PROCESSES} processes × ${CLIENTS} Admin clients at one expiry: ${refreshes.length} refresh calls (${refreshes.filter((r) => r.status === 200).length} accepted), ${failed} clients failed${results[0]?.errors[0] ? `, e.g. "${results[0].errors[0].slice(0, 120)}"` : ""}`,
    );
    return { refreshCallsPerExpiry: refreshes.length, refreshClientsFailed: failed };
  } finally {
    await standIn.close();
  }
}
