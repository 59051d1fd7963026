import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  NOTICE_CODES,
  NOTICE_DATA_PARAMS,
  notice,
  noticeSchema,
  readNotice,
  type NoticeCode,
} from "../../app/domain/notices";
import { leafKeys, type Catalog } from "../../app/i18n/catalog-check";
import { LANGUAGES, resources } from "../../app/i18n/config";

/**
 * ADR 0045: what an action or a loader tells the merchant is a code from a closed list and data;
 * the page renders it from the `notices` catalog in its language.
 */
const catalogs = resources as Record<string, Record<string, Catalog>>;
const notices = Object.fromEntries(
  LANGUAGES.map((language) => [language, leafKeys(catalogs[language]!.notices ?? {})]),
);
const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)/g)].map((m) => m[1]!).sort();

/** The parameters each code is written with (app/actions, app/pages, app/pipeline), by name. */
const PARAMS: Record<NoticeCode, readonly string[]> = {
  ...(Object.fromEntries(NOTICE_CODES.map((code) => [code, []])) as Record<NoticeCode, []>),
  cancel_not_possible: ["state"],
  already_sent: ["state"],
  shopify_said: ["detail"],
  courier_said: ["detail"],
  history_undetermined: ["reference"],
  send_batch_too_large: ["count"],
  quote_too_many: ["count"],
  select_too_many: ["count"],
  not_kwd: ["currency"],
  courier_lookup_failed: ["number"],
  courier_has_no_order: ["number"],
  order_for_other_delivery: ["number", "other", "reference"],
  courier_order_linked_elsewhere: ["other"],
  marked_created: ["number"],
  found_in_history: ["number"],
};

describe("notices (ADR 0045)", () => {
  it("has every code in both catalogs, with the placeholders its parameters fill", () => {
    const problems: string[] = [];
    for (const code of NOTICE_CODES) {
      for (const language of LANGUAGES) {
        const text = notices[language]!.get(code);
        if (text === undefined) problems.push(`${language} lacks notices:${code}`);
        else if (placeholders(text).join() !== [...PARAMS[code]].sort().join())
          problems.push(`${language} notices:${code} has {{${placeholders(text).join("}}, {{")}}}`);
      }
    }
    expect(problems).toEqual([]);
    // Nothing in the catalogs that no code produces.
    for (const language of LANGUAGES)
      expect([...notices[language]!.keys()].sort()).toEqual([...NOTICE_CODES].sort());
  });

  it("says every Arabic notice in Arabic: only brand and unit names stay in Latin letters", () => {
    for (const code of NOTICE_CODES) {
      const text = notices.ar!.get(code)!.replace(/\{\{\s*\w+\s*\}\}/g, "");
      const latin = text.replace(/Shopify Markets|Shopify|API|KWD/g, "").match(/[A-Za-z]{2,}/g);
      expect(latin, code).toBeNull();
    }
  });

  it("puts data in as data: each data parameter is one the page isolates", () => {
    const data = new Set<string>(NOTICE_DATA_PARAMS);
    const rendered = new Set(["state", "count", "amount"]);
    for (const code of NOTICE_CODES)
      for (const name of PARAMS[code])
        expect(data.has(name) || rendered.has(name), name).toBe(true);
  });

  it("reads what crosses to the page through zod, and never shows a sentence it does not know", () => {
    const sample = notice("cancel_not_possible", { state: "delivered" });
    expect(noticeSchema.parse(sample)).toEqual(sample);
    expect(readNotice(sample)).toEqual(sample);
    expect(readNotice({ code: "no_such_delivery" })).toEqual({
      code: "no_such_delivery",
      params: {},
    });
    // An English sentence (what the server answered before) or an unknown code reads as "failed".
    expect(readNotice("A delivery that is delivered can no longer be cancelled.").code).toBe(
      "failed",
    );
    expect(readNotice({ code: "made_up" }).code).toBe("failed");
  });

  it("leaves no English sentence in what the page's actions answer", () => {
    // The actions and services whose outcomes a page of the app renders.
    const files = [
      "actions/cancel.server.ts",
      "pages/cancel-dialog.server.ts",
      "actions/retry.server.ts",
      "actions/quote.server.ts",
      "actions/send.server.ts",
      "pages/send.server.ts",
      "actions/review.server.ts",
      "actions/mark-created.server.ts",
      "actions/sendable-orders.server.ts",
      "actions/fix.server.ts",
      "pages/fix.server.ts",
      "pages/address-review.server.ts",
      "pages/pickup-locations.server.ts",
    ];
    const sentences: string[] = [];
    for (const file of files) {
      const source = readFileSync(new URL(`../../app/${file}`, import.meta.url), "utf8");
      for (const match of source.matchAll(
        /\b(?:error|why|notRemembered|refuseAll|fail|refuse)\s*[:(]\s*["`]([A-Z][^"`]*)/g,
      ))
        sentences.push(`${file}: ${match[1]!.slice(0, 60)}`);
    }
    expect(sentences).toEqual([]);
  });
});
