import { decide } from "./decide";
import type { AddressDoubt } from "./doubt";
import { kindOf, label } from "./evidence";
import { extendMentions, findFuzzyMentions } from "./fuzzy-mentions";
import {
  findArea,
  findGovernorate,
  governorateOfArea,
  type GazetteerArea,
  type GazetteerGovernorate,
} from "./gazetteer";
import {
  type FieldAnalysis,
  type Mention,
  analyzeField,
  exactMentions,
  markAlone,
  streetNames,
} from "./mentions";
import { applyDirections, applyQualifiers } from "./name-phrases";
import { type OverrideKey, buildOverrideKey } from "./override-key";
import { type AddressParts, type PartName, emptyParts } from "./parts";
import type { FieldName } from "./tokens";

/** An address as Shopify gives it (order shipping address or Location). Any field may be missing. */
export interface AddressInput {
  provinceCode?: string | null;
  city?: string | null;
  address1?: string | null;
  address2?: string | null;
  zip?: string | null;
  countryCode?: string | null;
}

export type { OverrideKey } from "./override-key";

/** A merchant's remembered answer for one spelling (see {@link overrideKey}). */
export interface AreaOverride {
  /** The value of {@link overrideKey} for the address the merchant fixed. */
  key: string;
  /** Governorate: Shopify zone code or gazetteer name. */
  governorate: string;
  /** Area: gazetteer English or Arabic name. */
  area: string;
}

export interface MatchOptions {
  /** The shop's remembered answers; applied before anything else. */
  overrides?: readonly AreaOverride[];
}

/** The matcher's answer for one address. */
export interface AddressMatch {
  governorate: GazetteerGovernorate | null;
  area: GazetteerArea | null;
  /** 0 to 1: how sure the matcher is of the area. */
  confidence: number;
  /** True when the delivery can go out without asking the merchant. */
  confident: boolean;
  parts: AddressParts;
  /** Why, in plain words, for the merchant and for support. */
  reasons: string[];
  /** Why it is not confident, as data a page says in its language; null when confident. */
  doubt: AddressDoubt | null;
  /**
   * The key under which the merchant can remember the answer for this spelling, or null when the
   * address cannot be remembered ({@link overrideKeyFor} says why).
   */
  overrideKey: string | null;
}

/** Confidence from which an address is sent without asking the merchant. */
export const CONFIDENT_AT = 0.8;

// Where shoppers put the area, most trusted first (Shopify's City field is labelled for it).
const AREA_FIELDS: readonly FieldName[] = ["city", "address2", "address1", "zip"];
// Where the street-level parts usually are.
const PART_FIELDS: readonly FieldName[] = ["address1", "address2", "city", "zip"];

function asText(value: unknown): string {
  return typeof value === "string" ? value : "";
}

function collectParts(
  analyses: ReadonlyMap<FieldName, FieldAnalysis>,
  reasons: string[],
): AddressParts {
  const parts = emptyParts();
  const conflicts = new Map<PartName, Set<string>>();
  for (const field of PART_FIELDS) {
    const analysis = analyses.get(field);
    if (analysis === undefined) continue;
    const hits = [...analysis.numbered, ...analysis.named].sort((a, b) => a.from - b.from);
    for (const hit of hits) {
      const current = parts[hit.part];
      if (current === null) parts[hit.part] = hit.value;
      else if (current.toLowerCase() !== hit.value.toLowerCase()) {
        const values = conflicts.get(hit.part) ?? new Set([current]);
        values.add(hit.value);
        conflicts.set(hit.part, values);
      }
    }
  }
  for (const [part, values] of conflicts) {
    reasons.push(
      `the address gives more than one ${part} (${[...values].join(", ")}); kept ${parts[part] ?? ""}`,
    );
  }
  return parts;
}

function unlabelledPaci(
  analyses: ReadonlyMap<FieldName, FieldAnalysis>,
  parts: AddressParts,
  reasons: string[],
): void {
  if (parts.paci !== null) return;
  for (const analysis of analyses.values()) {
    const token = analysis.tokens.find(
      (t, i) => !analysis.used[i] && t.kind === "number" && /^\d{8}$/.test(t.raw),
    );
    if (token !== undefined) {
      reasons.push(
        `8-digit number ${token.raw} has no PACI label (it may be a phone number); not used as the PACI number`,
      );
      return;
    }
  }
}

const overrideMaps = new WeakMap<readonly AreaOverride[], Map<string, AreaOverride>>();

function findOverride(
  overrides: readonly AreaOverride[] | undefined,
  key: string | null,
): AreaOverride | undefined {
  if (overrides === undefined || !Array.isArray(overrides) || overrides.length === 0 || !key)
    return undefined;
  let byKey = overrideMaps.get(overrides);
  if (byKey === undefined) {
    byKey = new Map();
    for (const override of overrides) {
      if (typeof override?.key === "string" && !byKey.has(override.key))
        byKey.set(override.key, override);
    }
    overrideMaps.set(overrides, byKey);
  }
  return byKey.get(key);
}

function analyze(input: AddressInput): Map<FieldName, FieldAnalysis> {
  const analyses = new Map<FieldName, FieldAnalysis>();
  for (const field of AREA_FIELDS) {
    const text = asText(input[field]);
    if (text !== "") analyses.set(field, analyzeField(field, text));
  }
  return analyses;
}

interface Prepared {
  readonly analyses: Map<FieldName, FieldAnalysis>;
  readonly mentions: Mention[];
  readonly provinceCode: string;
  readonly key: OverrideKey;
}

// Named streets come after the names: where a street name ends depends on the area names found.
// The typo search runs only when no name was found as written.
function prepare(input: AddressInput): Prepared {
  const analyses = analyze(input);
  const mentions: Mention[] = [];
  for (const analysis of analyses.values()) {
    exactMentions(analysis, mentions);
    applyDirections(analysis, mentions);
    extendMentions(analysis, mentions);
    applyQualifiers(analysis, mentions);
  }
  for (const analysis of analyses.values()) streetNames(analysis, mentions);
  // A twin name that may be the governorate ("Ahmadi" in the city field) or a landmark does not
  // settle the area: the area may be in another field, mistyped ("Ahmadi" + "Egeila block 2").
  const hasAreaEvidence = mentions.some((m) => {
    if (m.landmark || m.inStreet) return false;
    const kind = kindOf(m);
    if (kind === "twin") return m.blockAfter || m.areaWordBefore;
    return kind === "area" || kind === "ambiguous" || kind === "umbrella";
  });
  if (!hasAreaEvidence) {
    // The map holds the fields in AREA_FIELDS order, most trusted first.
    findFuzzyMentions(analyses.values(), mentions);
    for (const analysis of analyses.values()) {
      applyDirections(analysis, mentions);
      extendMentions(analysis, mentions);
      applyQualifiers(analysis, mentions);
    }
  }
  for (const analysis of analyses.values()) markAlone(analysis, mentions);
  const provinceCode = asText(input.provinceCode).trim();
  return {
    analyses,
    mentions,
    provinceCode,
    key: buildOverrideKey(analyses, mentions, provinceCode),
  };
}

/**
 * The key under which a merchant's answer for this address is remembered, or why there is none:
 * the place words of the address in the order typed, in their own spelling, with the province
 * code; never numbers, landmarks or notes. "Slmya, Block 4" and "Slmya, Block 7" share a key;
 * "Hawalli, Block 4" (a twin name) and "Kuwait, Block 4" get none.
 */
export function overrideKeyFor(address: AddressInput): OverrideKey {
  try {
    return prepare(address ?? {}).key;
  } catch {
    return { key: null, refusal: "the address could not be read" };
  }
}

/** {@link overrideKeyFor}'s key alone: null when the address cannot be remembered. */
export function overrideKey(address: AddressInput): string | null {
  return overrideKeyFor(address).key;
}

function isKuwait(countryCode: string): boolean {
  const code = countryCode.trim().toUpperCase();
  return code === "" || code === "KW" || code === "KWT" || code === "KUWAIT";
}

function round(value: number): number {
  return Math.round(Math.max(0, Math.min(1, value)) * 1000) / 1000;
}

function unresolved(parts: AddressParts, reasons: string[], key: string | null): AddressMatch {
  return {
    governorate: null,
    area: null,
    confidence: 0,
    confident: false,
    parts,
    reasons,
    doubt: null,
    overrideKey: key,
  };
}

/**
 * Finds the governorate and area of a Kuwaiti address and splits out its parts.
 *
 * Never throws: missing, non-string, huge or garbled fields give an unresolved answer with reasons.
 */
export function matchAddress(input: AddressInput, options: MatchOptions = {}): AddressMatch {
  try {
    return matchOrThrow(input ?? {}, options ?? {});
  } catch (error) {
    // A bug here must hold one delivery for the merchant, not crash the queue.
    const message = error instanceof Error ? error.message : String(error);
    return unresolved(emptyParts(), [`internal error while matching: ${message}`], null);
  }
}

function matchOrThrow(input: AddressInput, options: MatchOptions): AddressMatch {
  const reasons: string[] = [];
  const prepared = prepare(input);
  const { analyses, mentions, provinceCode } = prepared;
  const key = prepared.key.key;
  const parts = collectParts(analyses, reasons);
  unlabelledPaci(analyses, parts, reasons);

  const countryCode = asText(input.countryCode);
  if (!isKuwait(countryCode)) {
    return unresolved(parts, [`country ${countryCode} is not Kuwait`, ...reasons], key);
  }

  const override = findOverride(options.overrides, key);
  if (override !== undefined) {
    const area = typeof override.area === "string" ? findArea(override.area) : undefined;
    if (area !== undefined) {
      const governorate = governorateOfArea(area);
      const named =
        typeof override.governorate === "string"
          ? findGovernorate(override.governorate)
          : undefined;
      const extra =
        named !== undefined && named !== governorate
          ? [
              `the remembered governorate ${named.nameEn} differs from the gazetteer's ${governorate.nameEn}; using the gazetteer's`,
            ]
          : [];
      return {
        governorate,
        area,
        confidence: 1,
        confident: true,
        parts,
        reasons: [`remembered by the merchant: ${label(area)}`, ...extra, ...reasons],
        doubt: null,
        overrideKey: key,
      };
    }
    reasons.push(`a remembered answer names an unknown area "${String(override.area)}"; ignored`);
  }

  const decisionReasons: string[] = [];
  const decision = decide(mentions, provinceCode, decisionReasons);
  const confidence = round(decision.confidence);
  const confident = decision.area !== null && confidence >= CONFIDENT_AT;
  return {
    governorate: decision.governorate,
    area: decision.area,
    confidence,
    confident,
    parts,
    reasons: [...decisionReasons, ...reasons],
    doubt: confident ? null : decision.doubt,
    overrideKey: key,
  };
}
