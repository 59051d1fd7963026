import { AREAS } from "../addresses/gazetteer";
import { turnOffCheckoutRates, turnOnCheckoutRates } from "../checkout/carrier-service.server";
import { readRateChoices, typedRateValues, type RateField } from "../domain/rate-choices-form";
import { forgetRateSnapshots } from "../checkout/rates.server";
import { env } from "../env.server";
import {
  getCheckoutRateSettings,
  listAreaPrices,
  saveRateChoices,
  type CarrierServiceProblem,
} from "../models/checkout-rates.server";
import { getCachedMasterData, getCourierAccount } from "../models/courier-account.server";
import type { AdminGraphql } from "../shopify/graphql";

/**
 * Settings' "Checkout rates" section (issue 28): whether Shopify shows the app's rate at checkout
 * (turned on and off through app/checkout/carrier-service.server.ts), the merchant's choices, and
 * how much of the courier's price table is known. Errors are keys of the settings catalog, one per
 * field, and what was typed comes back with them so nothing is lost.
 */

export const CHECKOUT_RATES_INTENTS = ["rates-save", "rates-on", "rates-off"] as const;
export const isCheckoutRatesIntent = (intent: unknown) =>
  (CHECKOUT_RATES_INTENTS as readonly unknown[]).includes(intent);

export type CheckoutRatesActionResult =
  | { ok: true; section: "checkoutRates"; done: "saved" | "on" | "off" }
  | {
      ok: false;
      section: "checkoutRates";
      /** A catalog key per field to fix. */
      errors: Partial<Record<RateField, string>>;
      values: Partial<Record<RateField, string>>;
    }
  | {
      ok: false;
      section: "checkoutRates";
      problem: CarrierServiceProblem;
      detail: string | null;
    };

/** Carries out one of the section's forms. */
export async function answerCheckoutRatesForm(
  shop: string,
  fields: Record<string, unknown>,
  admin: AdminGraphql,
): Promise<CheckoutRatesActionResult> {
  const section = "checkoutRates" as const;
  if (fields.intent === "rates-on" || fields.intent === "rates-off") {
    const on = fields.intent === "rates-on";
    const outcome = on
      ? await turnOnCheckoutRates(shop, admin, env().SHOPIFY_APP_URL)
      : await turnOffCheckoutRates(shop, admin);
    forgetRateSnapshots(shop);
    return outcome.ok
      ? { ok: true, section, done: on ? "on" : "off" }
      : { ok: false, section, problem: outcome.problem, detail: outcome.detail };
  }
  const read = readRateChoices(fields);
  if (!read.ok) return { ok: false, section, errors: read.errors, values: typedRateValues(fields) };
  await saveRateChoices(shop, read.choices);
  // This process answers checkout with the new choices from the next request (others within
  // the snapshot's 10 s, ADR 0062).
  forgetRateSnapshots(shop);
  return { ok: true, section, done: "saved" };
}

/** "1.250" for 1250 fils: what the field shows. */
const kwdText = (fils: number) => (fils / 1000).toFixed(3);
const minutesToTime = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;

/** What the section shows, as plain data. */
export async function loadCheckoutRatesSection(shop: string) {
  const account = await getCourierAccount(shop);
  const [settings, prices, masterData] = await Promise.all([
    getCheckoutRateSettings(shop),
    listAreaPrices(shop, account.environment),
    getCachedMasterData(shop, account.environment),
  ]);
  const pricedAreas = new Set(prices.map((p) => p.areaId));
  const origins = new Set(prices.map((p) => p.originAreaId));
  const latest = prices.reduce<Date | null>(
    (at, p) => (at === null || p.fetchedAt > at ? p.fetchedAt : at),
    null,
  );
  const courierArea = (id: number) => masterData?.areas.find((a) => a.areaId === id)?.areaName;
  const [origin] = origins;
  return {
    courierName: env().COURIER_DISPLAY_NAME,
    now: new Date().toISOString(),
    enabled: settings.enabled,
    problem: settings.serviceProblem,
    problemDetail: settings.serviceProblemDetail,
    problemAt: settings.serviceProblemAt?.toISOString() ?? null,
    hasCourierKey: account.keyHint !== null,
    choices: {
      fallbackRate: kwdText(settings.fallbackFils),
      marginFixed: kwdText(settings.marginFils),
      marginPercent: String(settings.marginBasisPoints / 100),
      freeAbove: settings.freeAboveFils === null ? "" : kwdText(settings.freeAboveFils),
      cutoff: minutesToTime(settings.cutoffMinutes),
      preparationDays: String(settings.preparationDays),
      holidays: settings.holidays.join("\n"),
      hiddenAreas: settings.hiddenAreas.join("\n"),
    } satisfies Record<RateField, string>,
    table: {
      pricedAreas: pricedAreas.size,
      areas: masterData?.areas.length ?? AREAS.length,
      // The courier's own (Arabic) name of the pickup area; the page names it in its language.
      pickupArea: origin === undefined ? null : (courierArea(origin) ?? null),
      refreshedAt: latest?.toISOString() ?? null,
    },
  };
}

export type CheckoutRatesSectionData = Awaited<ReturnType<typeof loadCheckoutRatesSection>>;
