import { z } from "zod";
import { AREAS } from "../addresses/gazetteer";
import type { RateChoices } from "./checkout-rates";
import { parseKwd } from "./kwd";

/**
 * The merchant's checkout-rate choices as Settings' form sends them (issue 28): strings in, the
 * rules' RateChoices out, or a catalog key per field that is wrong. Pure, so the page's preview
 * reads what is typed the way the server will save it.
 */

/** The form's fields, each a string as the page sends it. */
export const RATE_FIELDS = [
  "fallbackRate",
  "marginFixed",
  "marginPercent",
  "freeAbove",
  "cutoff",
  "preparationDays",
  "holidays",
  "hiddenAreas",
] as const;
export type RateField = (typeof RATE_FIELDS)[number];

const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const KNOWN_AREAS = new Set(AREAS.map((a) => a.nameEn));
const westernDigits = (text: string) =>
  text.replace(/[\u0660-\u0669]/g, (d) => String(d.charCodeAt(0) - 0x0660));

/** An amount in KWD between 0 and `max`; empty is `empty` (null: required). */
const kwdField = (max: number, key: string, empty: number | null) =>
  z.string().transform((text, ctx) => {
    if (text.trim() === "") {
      if (empty === null) ctx.addIssue({ code: "custom", message: `${key}Required` });
      return empty ?? 0;
    }
    const parsed = parseKwd(text);
    if (!parsed.ok || parsed.fils < 0 || parsed.fils > max * 1000) {
      ctx.addIssue({ code: "custom", message: key });
      return 0;
    }
    return parsed.fils as number;
  });

const lines = (text: string) =>
  text
    .split(/[\n,]/)
    .map((line) => line.trim())
    .filter((line) => line !== "");

/** A real calendar day ("2026-02-30" is none). */
const isDay = (day: string) =>
  DAY.test(day) && new Date(`${day}T00:00:00Z`).toISOString().slice(0, 10) === day;

const choicesForm = z.object({
  fallbackRate: kwdField(100, "checkoutRates.errors.fallback", null),
  marginFixed: kwdField(50, "checkoutRates.errors.marginFixed", 0),
  marginPercent: z.string().transform((text, ctx) => {
    const value = westernDigits(text.trim()).replace("٫", ".");
    if (value === "") return 0;
    if (!/^\d{1,3}(\.\d{1,2})?$/.test(value) || Number(value) > 100) {
      ctx.addIssue({ code: "custom", message: "checkoutRates.errors.marginPercent" });
      return 0;
    }
    return Math.round(Number(value) * 100);
  }),
  freeAbove: z.string().transform((text, ctx) => {
    if (text.trim() === "") return null;
    const parsed = parseKwd(text);
    if (!parsed.ok || parsed.fils <= 0 || parsed.fils > 100_000_000) {
      ctx.addIssue({ code: "custom", message: "checkoutRates.errors.freeAbove" });
      return null;
    }
    return parsed.fils as number;
  }),
  cutoff: z
    .string()
    .transform((text) => westernDigits(text.trim()))
    .pipe(z.string().regex(TIME, "checkoutRates.errors.cutoff"))
    .transform((time) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3))),
  preparationDays: z
    .string()
    .transform((text) => westernDigits(text.trim()))
    .pipe(z.string().regex(/^\d{1,2}$/, "checkoutRates.errors.preparationDays"))
    .transform(Number)
    .pipe(z.number().max(10, "checkoutRates.errors.preparationDays")),
  holidays: z.string().transform((text, ctx) => {
    const days = lines(westernDigits(text));
    if (days.some((day) => !isDay(day)) || days.length > 366) {
      ctx.addIssue({ code: "custom", message: "checkoutRates.errors.holidays" });
      return [];
    }
    return [...new Set(days)].sort();
  }),
  hiddenAreas: z.string().transform((text, ctx) => {
    const names = text.split("\n").map((name) => name.trim());
    const chosen = names.filter((name) => name !== "");
    if (chosen.some((name) => !KNOWN_AREAS.has(name))) {
      ctx.addIssue({ code: "custom", message: "checkoutRates.errors.hiddenAreas" });
      return [];
    }
    return [...new Set(chosen)].sort();
  }),
});

/** The merchant's typed values, as strings (a field the page did not send is empty). */
export function typedRateValues(fields: Record<string, unknown>): Record<RateField, string> {
  return Object.fromEntries(
    RATE_FIELDS.map((field) => {
      const value = fields[field];
      return [field, typeof value === "string" ? value.slice(0, 20_000) : ""];
    }),
  ) as Record<RateField, string>;
}

/** The choices, or every field's problem at once. */
export function readRateChoices(
  fields: Record<string, unknown>,
): { ok: true; choices: RateChoices } | { ok: false; errors: Partial<Record<RateField, string>> } {
  const parsed = choicesForm.safeParse(typedRateValues(fields));
  if (parsed.success) {
    const form = parsed.data;
    return {
      ok: true,
      choices: {
        fallbackFils: form.fallbackRate,
        marginFils: form.marginFixed,
        marginBasisPoints: form.marginPercent,
        freeAboveFils: form.freeAbove,
        cutoffMinutes: form.cutoff,
        preparationDays: form.preparationDays,
        holidays: form.holidays,
        hiddenAreas: form.hiddenAreas,
      },
    };
  }
  const errors: Partial<Record<RateField, string>> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as RateField;
    errors[field] ??= issue.message;
  }
  return { ok: false, errors };
}
