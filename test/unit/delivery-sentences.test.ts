import { describe, expect, it } from "vitest";
import { areaSearchMatches, areaSearchRank, searchText } from "../../app/domain/area-search";
import { normalizeKuwaitiPhone } from "../../app/domain/contact-phone";
import { Unreadable } from "../../app/domain/json-column";
import { explainMatch, type MatchLevel } from "../../app/domain/match-explanation";
import { DELIVERY_STATES } from "../../app/domain/states";
import {
  courierSaid,
  timelineSentence,
  TIMELINE_KINDS,
  type Sentence,
} from "../../app/domain/timeline";
import { eventText, TIMELINE_TEXTS } from "../../app/domain/timeline-text";
import type { AddressDoubt } from "../../app/addresses";
import { addressDoubtSchema, doubtText } from "../../app/domain/address-doubt";
import { leafKeys, type Catalog } from "../../app/i18n/catalog-check";
import { LANGUAGES, resources } from "../../app/i18n/config";

/**
 * ADR 0043: a timeline entry's kind and data become a catalog key and parameters. Every key the
 * mechanism can produce is in both catalogs, with the placeholders its parameters fill.
 */
const catalogs = resources as Record<string, Record<string, Catalog>>;
const delivery = Object.fromEntries(
  LANGUAGES.map((language) => [language, leafKeys(catalogs[language]!.delivery ?? {})]),
);
const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)/g)].map((m) => m[1]!).sort();

const DOUBTS: AddressDoubt[] = [
  { kind: "two_areas", areas: ["Salwa", "Rumaithiya"] },
  { kind: "only_landmark", area: "Adan", typed: "Adan" },
  { kind: "only_generic", typed: "Kuwait City" },
  { kind: "person_name", typed: "Rawda" },
  { kind: "could_be", typed: "Salmi", areas: ["Salmi", "Salmiya"] },
  { kind: "town_or_governorate", area: "Hawalli", typed: "Hawalli" },
  { kind: "part_unclear", area: "Salmiya", typed: "North Salmiya" },
  { kind: "governorate_differs", area: "Salmiya", governorate: "Al Ahmadi" },
  { kind: "everyday_word", area: "Salwa", typed: "salwa" },
];

/** Every sentence the timeline and the match explanation can produce, with sample data. */
function producible(): Sentence[] {
  const sentences: Sentence[] = [];
  for (const kind of [...TIMELINE_KINDS, "something_new"]) {
    sentences.push(timelineSentence({ kind, data: null }));
    sentences.push(
      timelineSentence({
        kind,
        data: { courier: { orderNumber: "KW1" }, state: "picked_up", name: "PICKED" },
      }),
    );
    sentences.push(timelineSentence({ kind, data: { state: "created" } }));
  }
  for (const key of TIMELINE_TEXTS.filter((key) => !key.startsWith("area_doubt_"))) {
    sentences.push(
      timelineSentence({
        kind: "ready",
        data: { text: eventText(key, { area: "Salmiya", amount: "1.000", number: "KW1" }) },
      }),
    );
  }
  const reasons = [
    'area Salmiya («السالمية») from "slmya" in city (spelling variant)',
    'area Salmiya («السالمية») from "Salmiya" in address1 (known spelling)',
    'area Salmiya («السالمية») from "Salmiya" in address2 (known spelling)',
    'area Salmiya («السالمية») from "Salmiya" in zip (known spelling)',
    'area Salmiya («السالمية») from "Salmiya" in note (known spelling)',
    "province KW-HA agrees",
    "province KW-AH (Ahmadi) disagrees; Salmiya is in Hawalli",
    "no province code to check against",
    '"Salmiya" is also an everyday word; nothing around it marks it as the area',
    "only Salmiya appears, as a landmark (...); the area is a guess",
    '"Sabah" could be Sabah Al-Salem or Sabah Al-Ahmad',
    "the courier's area list has no Salmiya («السالمية»)",
  ];
  // Each doubt's sentence, from the one mechanism that writes it (domain/address-doubt.ts).
  for (const doubt of DOUBTS) {
    const text = doubtText(doubt);
    expect(text.key.startsWith("area_doubt_")).toBe(true);
    sentences.push(timelineSentence({ kind: "needs_address", data: { text } }));
    sentences.push(
      ...explainMatch({ area: "Salmiya", confident: false, doubt, reasons }).sentences,
    );
  }
  for (const match of [
    { area: "Salmiya", confident: true, confidence: 0.93, reasons },
    { area: "Salmiya", confident: false, confidence: 0.5, reasons },
    { area: "Salmiya", reasons: ["remembered by the merchant: Salmiya"] },
    { fixedByMerchant: true },
    { area: null, reasons: ["no area name found"] },
  ])
    sentences.push(...explainMatch(match).sentences);
  return sentences;
}

describe("timeline sentences (ADR 0043)", () => {
  it("samples every kind of doubt the matcher can give", () => {
    const kinds = addressDoubtSchema.options.map((option) => option.shape.kind.value);
    expect(DOUBTS.map((doubt) => doubt.kind).sort()).toEqual([...kinds].sort());
    expect(TIMELINE_TEXTS.filter((key) => key.startsWith("area_doubt_")).sort()).toEqual(
      kinds.map((kind) => `area_doubt_${kind}`).sort(),
    );
  });

  it("has every key the timeline and the match explanation produce, in both languages, with their placeholders", () => {
    const problems: string[] = [];
    for (const sentence of producible()) {
      for (const language of LANGUAGES) {
        const text = delivery[language]!.get(sentence.key);
        if (text === undefined) problems.push(`${language} lacks delivery:${sentence.key}`);
        else if (
          placeholders(text).some((name) => !(name in sentence.params)) ||
          placeholders(text).join() !== placeholders(delivery.en!.get(sentence.key) ?? "").join()
        )
          problems.push(`${language} delivery:${sentence.key} placeholders ${placeholders(text)}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("has a label for every level of match and a reason for every state the page explains", () => {
    const levels: MatchLevel[] = ["merchant", "remembered", "sure", "unsure", "none", "unknown"];
    for (const language of LANGUAGES) {
      for (const level of levels)
        expect(delivery[language]!.has(`match.level.${level}`)).toBe(true);
      for (const state of [
        "rejected",
        "needs_address",
        "needs_review",
        "needs_attention",
        "unknown",
        "failed",
        "returned",
        "skipped",
      ] as const) {
        expect(DELIVERY_STATES).toContain(state);
        expect(delivery[language]!.has(`why.${state}`)).toBe(true);
      }
    }
  });

  it("prefers the sentence the writer chose to its kind's", () => {
    expect(
      timelineSentence({
        kind: "ready",
        data: { text: eventText("ready_cod", { amount: "12.500" }) },
      }),
    ).toEqual({ key: "timeline.text.ready_cod", params: { amount: "12.500" } });
    expect(timelineSentence({ kind: "ready", data: null })).toEqual({
      key: "timeline.kind.ready",
      params: {},
    });
  });

  it("says a courier status as the state it means, and an unknown kind in general words", () => {
    expect(
      timelineSentence({ kind: "courier_status", data: { status: "X", state: "picked_up" } }),
    ).toEqual({ key: "timeline.kind.courier_status", params: { state: "picked_up" } });
    expect(timelineSentence({ kind: "courier_status", data: { state: "nonsense" } }).key).toBe(
      "timeline.kind.courier_status_plain",
    );
    expect(timelineSentence({ kind: "made_up", data: null }).key).toBe("timeline.kind.other");
    expect(
      timelineSentence({ kind: "created", data: new Unreadable("DeliveryEvent.data", "x", "{") })
        .key,
    ).toBe("timeline.kind.created");
  });

  it("reads the courier's first status apart from the app's own created entry", () => {
    // issue 29: "Created at the courier" appeared twice, once for the app's create and once for
    // the courier's first status, which means the same state.
    const created = timelineSentence({
      kind: "created",
      data: { courier: { orderNumber: "KW1" } },
    });
    const first = timelineSentence({
      kind: "courier_status",
      data: { status: "CREATED", state: "created" },
    });
    expect(first.key).toBe("timeline.kind.courier_status_created");
    for (const language of LANGUAGES) {
      const say = (s: Sentence) => delivery[language]!.get(s.key);
      expect(say(first)).not.toBe(say(created));
      expect(say(first)).not.toMatch(/Created at the courier|أُنشئت لدى شركة التوصيل/);
    }
  });

  it("names the courier's order number where the entry kept it", () => {
    expect(
      timelineSentence({
        kind: "reconciled",
        data: { courier: { found: { orderNumber: "KW9" } } },
      }),
    ).toEqual({ key: "timeline.kind.reconciled_number", params: { number: "KW9" } });
  });

  it("quotes the courier's own words from the kept answer", () => {
    expect(courierSaid({ courier: { message: "Block is required" } })).toBe("Block is required");
    expect(courierSaid({ courier: { error: "CourierTimeoutError" } })).toBeNull();
    expect(courierSaid(null)).toBeNull();
  });
});

describe("how sure the match was", () => {
  it("explains a confident match and where its name was found", () => {
    const explained = explainMatch({
      area: "Salmiya",
      confident: true,
      confidence: 0.934,
      reasons: [
        'area Salmiya («السالمية») from "slmya" in city (spelling variant)',
        "province KW-HA agrees",
      ],
    });
    expect(explained.level).toBe("sure");
    expect(explained.percent).toBe(93);
    expect(explained.sentences.map((s) => s.key)).toEqual([
      "match.sure",
      "match.foundIn.city",
      "match.variant",
      "match.governorateAgrees",
    ]);
  });

  it("says the merchant chose the area, without the matcher's guesses", () => {
    const explained = explainMatch({
      area: "Salmiya",
      fixedByMerchant: true,
      reasons: ['area Salmiya («السالمية») from "x" in city (known spelling)'],
    });
    expect(explained.level).toBe("merchant");
    expect(explained.sentences.map((s) => s.key)).toEqual(["match.merchant"]);
  });
});

describe("the corrected phone", () => {
  it.each([
    ["99991234", "+96599991234"],
    ["+965 9999 1234", "+96599991234"],
    ["00965-5555-0000", "+96555550000"],
    ["٩٩٩٩١٢٣٤", "+96599991234"],
    ["2222 3333", "+96522223333"],
  ])("reads %s as %s", (typed, phone) => {
    expect(normalizeKuwaitiPhone(typed)).toBe(phone);
  });

  it.each(["12345", "39991234", "999912345", "+44 20 7946 0958", "phone"])(
    "refuses %s",
    (typed) => {
      expect(normalizeKuwaitiPhone(typed)).toBeNull();
    },
  );
});

describe("the area picker's search", () => {
  const salmiya = searchText(["السالميه", "Salmiya", "السالمية", "Salmiyah", "سالمية"]);
  it.each(["salmiya", "SALMIYA", "Al-Salmiya", "السالمية", "سالميه", "slmya", "Salmi"])(
    "finds Salmiya by %s",
    (typed) => {
      expect(areaSearchMatches(salmiya, typed)).toBe(true);
    },
  );
  it("lists the nearest name first for a transliteration", () => {
    const salam = searchText(["سلام", "Salam", "السلام"]);
    expect(areaSearchMatches(salam, "slmya")).toBe(true);
    expect(areaSearchRank(salmiya, "slmya")).toBeLessThan(areaSearchRank(salam, "slmya"));
  });
  it.each(["Hawalli", "حولي", "sl"])("does not find it by %s", (typed) => {
    expect(areaSearchMatches(salmiya, typed)).toBe(false);
  });
});
