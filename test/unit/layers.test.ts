import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/paths";

/**
 * The layer rules of eslint.config.js (ADR 0055) fail `npm run lint` on an import upwards and on
 * an import cycle. Each case lints a file's text as if it were written at that path.
 */
const eslint = new ESLint({ cwd: ROOT });

async function problems(file: string, text: string) {
  const [result] = await eslint.lintText(text, { filePath: path.join(ROOT, file) });
  return (result?.messages ?? []).map((m) => `${m.ruleId}: ${m.message}`);
}

describe("the app's layers, as lint enforces them", () => {
  it("refuse a model importing the pipeline", async () => {
    const found = await problems(
      "app/models/example.server.ts",
      'import { runDueDeliveries } from "../pipeline/worker.server";\nexport const run = runDueDeliveries;\n',
    );
    expect(found.some((p) => p.startsWith("no-restricted-imports"))).toBe(true);
  });

  it("refuse the pure core importing a module with I/O", async () => {
    const found = await problems(
      "app/domain/example.ts",
      'import { getDelivery } from "../models/deliveries.server";\nexport const read = getDelivery;\n',
    );
    expect(found.some((p) => p.startsWith("no-restricted-imports"))).toBe(true);
  });

  it("refuse the pipeline importing a page", async () => {
    const found = await problems(
      "app/pipeline/example.server.ts",
      'import { deliveryPage } from "../pages/delivery.server";\nexport const page = deliveryPage;\n',
    );
    expect(found.some((p) => p.startsWith("no-restricted-imports"))).toBe(true);
  });

  it("let a page import an action, the pipeline and the pure core", async () => {
    const found = await problems(
      "app/pages/example.server.ts",
      [
        'import { retryDelivery } from "../actions/retry.server";',
        'import { kickDeliveryWorker } from "../pipeline/drain-loop.server";',
        'import { STATE_LABELS } from "../domain/states";',
        "export const all = [retryDelivery, kickDeliveryWorker, STATE_LABELS];",
        "",
      ].join("\n"),
    );
    expect(found).toEqual([]);
  });

  it("refuse an import cycle", async () => {
    // domain/timeline.ts imports domain/states.ts: states importing timeline closes a cycle.
    const found = await problems(
      "app/domain/states.ts",
      'import { TIMELINE_KINDS } from "./timeline";\nexport const cycle = TIMELINE_KINDS;\n',
    );
    expect(found.some((p) => p.startsWith("import-x/no-cycle"))).toBe(true);
  });

  it("refuse the WhatsApp client importing the app's data", async () => {
    const found = await problems(
      "app/whatsapp/example.ts",
      'import { getDelivery } from "../models/deliveries.server";\nexport const read = getDelivery;\n',
    );
    expect(found.some((p) => p.startsWith("no-restricted-imports"))).toBe(true);
  });

  it("refuse the pure core importing the WhatsApp client", async () => {
    const found = await problems(
      "app/domain/example.ts",
      'import { sendTemplate } from "../whatsapp";\nexport const send = sendTemplate;\n',
    );
    expect(found.some((p) => p.startsWith("no-restricted-imports"))).toBe(true);
  });

  it("let the shopper's side import the WhatsApp client", async () => {
    const found = await problems(
      "app/shopper/example.server.ts",
      'import { sendTemplate } from "../whatsapp";\nexport const send = sendTemplate;\n',
    );
    expect(found).toEqual([]);
  });
}, 60_000);
