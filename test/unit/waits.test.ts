import { describe, expect, it } from "vitest";
import {
  LONG_WAIT_MS,
  longWait,
  longWaitSentence,
  readWaitKind,
  WAIT_KINDS,
} from "../../app/domain/waits";
import { leafKeys, type Catalog } from "../../app/i18n/catalog-check";
import { LANGUAGES, resources } from "../../app/i18n/config";

/** Waits that never count as a failure, and what the pages say of one that lasts (issue 24). */
const now = new Date("2026-11-28T12:00:00Z");
const ago = (ms: number) => new Date(now.getTime() - ms);
const waitingFor = (kind: string | null, since: Date | null, more = {}) => ({
  state: "pending" as const,
  trackingPushedAt: null,
  waitingSince: since,
  waitingFor: kind,
  ...more,
});

describe("a delivery waiting without failing", () => {
  it("is not said to wait long before half an hour", () => {
    expect(longWait(waitingFor("shopify_budget", ago(LONG_WAIT_MS - 1_000)), now)).toBeNull();
  });

  it("is said to wait for what it waits for since it began, after half an hour", () => {
    const since = ago(LONG_WAIT_MS);
    expect(longWait(waitingFor("courier_down", since), now)).toEqual({
      kind: "courier_down",
      since: since.toISOString(),
    });
  });

  it("is no longer said to wait once its tracking is on Shopify", () => {
    const row = waitingFor("shopify_budget", ago(LONG_WAIT_MS * 2), {
      state: "created",
      trackingPushedAt: ago(1_000),
    });
    expect(longWait(row, now)).toBeNull();
  });

  it("is not said to wait in a state the merchant is already asked about", () => {
    const row = waitingFor("shopify_budget", ago(LONG_WAIT_MS * 2), { state: "needs_attention" });
    expect(longWait(row, now)).toBeNull();
  });

  it("reads a kind of wait the app no longer knows as none", () => {
    expect(readWaitKind("courier_on_holiday")).toBeNull();
    expect(longWait(waitingFor("courier_on_holiday", ago(LONG_WAIT_MS * 2)), now)).toBeNull();
  });
});

describe("the sentences of a long wait", () => {
  const catalogs = resources as Record<string, Record<string, Catalog>>;

  it("are in both languages, on the delivery's page and in the list, with the time it began", () => {
    const problems: string[] = [];
    for (const kind of WAIT_KINDS) {
      const { key } = longWaitSentence({ kind, since: now.toISOString() });
      for (const language of LANGUAGES)
        for (const namespace of ["delivery", "deliveries"]) {
          const text = leafKeys(catalogs[language]![namespace] ?? {}).get(key);
          if (!text?.includes("{{at}}")) problems.push(`${language} ${namespace}:${key}`);
        }
    }
    expect(problems).toEqual([]);
  });
});
