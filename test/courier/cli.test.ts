import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildCreateOrderBody } from "../../app/courier";
import { startCourierSandbox, type CourierSandbox } from "../../sandbox/courier";
import { runCourierCli } from "../../scripts/courier";
import { orderInput, place, TEST_KEY } from "./fixtures";

let sandbox: CourierSandbox;
let dir: string;

beforeAll(async () => {
  sandbox = await startCourierSandbox({ acceptedKeys: [TEST_KEY] });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "courier-cli-"));
});
afterAll(async () => {
  await sandbox.close();
  fs.rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => sandbox.reset());

async function cli(args: string[], env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCourierCli(args, {
    stdout: (t) => out.push(t),
    stderr: (t) => err.push(t),
    env: { COURIER_BASE_URL: sandbox.url, COURIER_API_KEY: TEST_KEY, ...env },
  });
  const stdout = out.join("\n");
  const stderr = err.join("\n");
  // Whatever happens, the key is never printed.
  expect(stdout + stderr).not.toContain(TEST_KEY);
  return { code, stdout, stderr, json: () => JSON.parse(stdout) as unknown };
}

const writeJson = (name: string, value: unknown) => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, JSON.stringify(value));
  return file;
};

describe("the courier command line", () => {
  it("pings and lists master data as JSON", async () => {
    const ping = await cli(["ping"]);
    expect(ping.code).toBe(0);
    expect(ping.json()).toMatchObject({ ok: true, governances: 6 });

    const { governanceId } = place(sandbox, "Salmiya");
    const areas = await cli(["--lang", "en", "areas", String(governanceId)]);
    expect(areas.code).toBe(0);
    expect((areas.json() as { areaName: string }[]).map((a) => a.areaName)).toContain("Salmiya");
    expect((await cli(["statuses"])).code).toBe(0);
    expect((await cli(["vehicle-types"])).code).toBe(0);
    expect(await cli(["master-data"]).then((r) => r.json())).toMatchObject({ governances: 6 });
  });

  it("creates from a wire-format file, then gets, tracks, finds and cancels the order", async () => {
    const file = writeJson(
      "order.json",
      buildCreateOrderBody(orderInput(sandbox, { notes: "ref:CLI-1" })),
    );
    const created = await cli(["create", "--file", file]);
    expect(created.code).toBe(0);
    const { orderId } = created.json() as { orderId: string };
    expect(sandbox.orders.has(orderId)).toBe(true);

    expect((await cli(["get", orderId])).json()).toMatchObject({ orderId, status: "pending" });
    expect((await cli(["track", orderId])).json()).toMatchObject({ status: "pending" });
    expect((await cli(["history", "--search", "CLI-1"])).json()).toMatchObject({ total: 1 });
    expect((await cli(["cancel", orderId, "--reason", "test"])).json()).toMatchObject({
      status: "cancelled",
    });
    expect((await cli(["report"])).json()).toMatchObject({ totalOrders: 1 });
    expect((await cli(["exceptions"])).json()).toMatchObject({ exceptions: [] });
  });

  it("validates a create file before sending it", async () => {
    const body = buildCreateOrderBody(orderInput(sandbox));
    const file = writeJson("bad.json", {
      ...body,
      deliveryAddress: { ...body.deliveryAddress, contactPhone: "123" },
    });
    const result = await cli(["create", "--file", file]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/not sent.*deliveryAddress\.contactPhone/);
    expect(sandbox.requestLog).toHaveLength(0);
  });

  it("prints the typed error's message for a rejected key", async () => {
    const rejected = await cli(["--key", "wrong-key", "ping"]);
    expect(rejected.code).toBe(1);
    expect(rejected.stderr).toMatch(/rejected the API key/);
  });

  it("lets --key override the environment", async () => {
    const overridden = await cli(["--key", TEST_KEY, "ping"], { COURIER_API_KEY: "wrong-key" });
    expect(overridden.code).toBe(0);
  });

  it("exits 3 when a create's outcome is unknown", async () => {
    sandbox.faults.add({ endpoint: "createOrder", kind: "commitThenHang" });
    const file = writeJson("order2.json", buildCreateOrderBody(orderInput(sandbox)));
    const result = await cli(["--timeout", "200", "create", "--file", file]);
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/not known whether the courier created the order/);
  });

  it.each([
    [[]],
    [["frobnicate"]],
    [["areas", "x"]],
    [["areas"]],
    [["create"]],
    [["--lang", "fr", "governances"]],
    [["--base-url", "ftp://example.com", "ping"]],
    [["--nope", "ping"]],
  ])("exits 2 with the usage for %j", async (args) => {
    const result = await cli(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("Usage: npm run courier");
    expect(sandbox.requestLog).toHaveLength(0);
  });
});
