import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { ROOT } from "../support/paths";
import { shopDomain } from "../support/shopify";
import { testEnvironment } from "../support/test-env";
import { TEST_DATABASE_URL } from "./setup/file";

/**
 * `npm run worker` (`node --import tsx scripts/worker.ts`) in a process of its own, with its
 * output collected. The signal goes to the node process that runs the worker: through the `tsx`
 * command, a wrapper would relay it and SIGKILL the worker if it did not answer within 30 ms.
 */
function startWorker(env: Record<string, string>) {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/worker.ts"], {
    cwd: ROOT,
    env: { ...process.env, ...testEnvironment(env), WORKER_INTERVAL_MS: "200" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  return {
    child,
    exited,
    output: () => ({ stdout, stderr }),
    async printed(text: string) {
      while (!stdout.includes(text)) {
        if (child.exitCode !== null) throw new Error(`worker exited: ${stdout}${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
}

/** Polls until `done`; after `tries` reads, fails with what the worker printed. */
async function until<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  printed: () => unknown,
  tries = 150,
): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the worker did not get there; it printed ${JSON.stringify(printed())}`);
}

describe("npm run worker", () => {
  it("works the due deliveries on PostgreSQL in a process of its own until SIGTERM stops it", async () => {
    const shop = shopDomain("pg-worker");
    // Installed, but without the Shopify session the worker needs: the worker takes the row,
    // fails to reach Shopify for it, and gives it back with the error and a later attempt.
    await prisma.shopSettings.create({ data: { shop } });
    const queued = await prisma.delivery.create({
      data: {
        shop,
        orderId: "gid://shopify/Order/1",
        fulfillmentId: "gid://shopify/Fulfillment/1",
        source: "webhook",
        state: "pending",
        environment: "sandbox",
        reference: "worker-1",
        nextAttemptAt: new Date(Date.now() - 1000),
      },
    });

    const worker = startWorker({ DATABASE_URL: TEST_DATABASE_URL, DELIVERY_WORKER: "off" });
    await worker.printed("started");
    const worked = await until(
      () => prisma.delivery.findUniqueOrThrow({ where: { id: queued.id } }),
      (d) => d.lastError !== null,
      worker.output,
    );
    expect(worked.leaseOwner).toBeNull();
    expect(worked.state).toBe("pending");
    expect(worked.nextAttemptAt!.getTime()).toBeGreaterThan(queued.nextAttemptAt!.getTime());

    worker.child.kill("SIGTERM");
    expect(await worker.exited).toBe(0);
    expect(worker.output().stdout).toMatch(/SIGTERM, finishing the passes under way/);
    expect(worker.output().stdout).toMatch(/stopped/);
  });

  it("refuses to run on SQLite, where the web process runs the worker", async () => {
    const worker = startWorker({ DATABASE_URL: "file:./data/test/never-created.sqlite" });
    expect(await worker.exited).toBe(1);
    expect(worker.output().stderr).toMatch(/needs DATABASE_URL to be PostgreSQL/);
  });
});
