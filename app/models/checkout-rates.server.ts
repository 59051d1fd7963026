import { randomBytes } from "node:crypto";
import { z } from "zod";
import { Prisma } from "@prisma/client";
import prisma from "../db.server";
import { jsonColumn, Unreadable } from "../domain/json-column";
import type { RateChoices, RateOutcome } from "../domain/checkout-rates";

/**
 * Checkout rates (issue 28, ADR 0062): the merchant's choices, the carrier service's state in
 * Shopify, the courier's prices per area and weight band, and the bounded tally of what checkout
 * asked. Every query is scoped by shop but finding the shop of a callback token.
 */

const areaNames = z.array(z.string().min(1).max(80)).max(500);
const dayList = z.array(z.string().regex(/^\d{4}-\d{2}-\d{2}$/)).max(366);
const hiddenAreasColumn = jsonColumn("CheckoutRateSettings.hiddenAreas", areaNames);
const holidaysColumn = jsonColumn("CheckoutRateSettings.holidays", dayList);

/** Why the carrier service is not serving rates (null: it is, or it is off by choice). */
export type CarrierServiceProblem =
  "plan_not_eligible" | "deactivated" | "scope_missing" | "refused";

export interface CheckoutRateSettingsRow extends RateChoices {
  shop: string;
  enabled: boolean;
  carrierServiceId: string | null;
  serviceProblem: CarrierServiceProblem | null;
  serviceProblemAt: Date | null;
  serviceProblemDetail: string | null;
  serviceCheckedAt: Date | null;
  callbackToken: string;
  updatedAt: Date;
}

type Row = Awaited<ReturnType<typeof prisma.checkoutRateSettings.findUniqueOrThrow>>;

function listOrEmpty(value: string[] | Unreadable): string[] {
  // A hand-edited column reads as "none": the page shows the list empty and saving mends it.
  return value instanceof Unreadable ? [] : value;
}

function toRow(row: Row): CheckoutRateSettingsRow {
  return {
    shop: row.shop,
    enabled: row.enabled,
    carrierServiceId: row.carrierServiceId,
    serviceProblem: (row.serviceProblem as CarrierServiceProblem | null) ?? null,
    serviceProblemAt: row.serviceProblemAt,
    serviceProblemDetail: row.serviceProblemDetail,
    serviceCheckedAt: row.serviceCheckedAt,
    callbackToken: row.callbackToken,
    fallbackFils: row.fallbackFils,
    marginFils: row.marginFils,
    marginBasisPoints: row.marginBasisPoints,
    freeAboveFils: row.freeAboveFils,
    hiddenAreas: listOrEmpty(hiddenAreasColumn.decode(row.hiddenAreas)),
    cutoffMinutes: row.cutoffMinutes,
    preparationDays: row.preparationDays,
    holidays: listOrEmpty(holidaysColumn.decode(row.holidays)),
    updatedAt: row.updatedAt,
  };
}

const newToken = () => randomBytes(24).toString("base64url");

/** The shop's row, made with the defaults (off, a fresh callback token) the first time. */
export async function getCheckoutRateSettings(shop: string): Promise<CheckoutRateSettingsRow> {
  const row = await prisma.checkoutRateSettings.upsert({
    where: { shop },
    create: { shop, callbackToken: newToken() },
    update: {},
  });
  return toRow(row);
}

/** The row when there is one, without making it (readers on hot paths and reports). */
export async function findCheckoutRateSettings(
  shop: string,
): Promise<CheckoutRateSettingsRow | null> {
  const row = await prisma.checkoutRateSettings.findUnique({ where: { shop } });
  return row && toRow(row);
}

/** The shop whose callback URL carries `token`, with its settings; null for an unknown token. */
export async function findCheckoutRatesByToken(
  token: string,
): Promise<CheckoutRateSettingsRow | null> {
  if (!/^[A-Za-z0-9_-]{16,64}$/.test(token)) return null;
  const row = await prisma.checkoutRateSettings.findUnique({ where: { callbackToken: token } });
  return row && toRow(row);
}

/** Saves the merchant's choices (validated by the caller's schema). */
export async function saveRateChoices(shop: string, choices: RateChoices): Promise<void> {
  await getCheckoutRateSettings(shop);
  await prisma.checkoutRateSettings.update({
    where: { shop },
    data: {
      fallbackFils: choices.fallbackFils,
      marginFils: choices.marginFils,
      marginBasisPoints: choices.marginBasisPoints,
      freeAboveFils: choices.freeAboveFils,
      hiddenAreas: hiddenAreasColumn.encode(choices.hiddenAreas),
      cutoffMinutes: choices.cutoffMinutes,
      preparationDays: choices.preparationDays,
      holidays: holidaysColumn.encode(choices.holidays),
    },
  });
}

/** What Shopify last said of the shop's carrier service. */
export interface CarrierServiceState {
  enabled: boolean;
  carrierServiceId: string | null;
  problem: CarrierServiceProblem | null;
  problemDetail?: string | null;
  checkedAt: Date;
}

export async function saveCarrierServiceState(
  shop: string,
  state: CarrierServiceState,
): Promise<void> {
  const current = await getCheckoutRateSettings(shop);
  await prisma.checkoutRateSettings.update({
    where: { shop },
    data: {
      enabled: state.enabled,
      carrierServiceId: state.carrierServiceId,
      serviceProblem: state.problem,
      // When it first went wrong: a problem that stays keeps its first time.
      serviceProblemAt:
        state.problem === null
          ? null
          : current.serviceProblem === state.problem
            ? (current.serviceProblemAt ?? state.checkedAt)
            : state.checkedAt,
      serviceProblemDetail: state.problem === null ? null : (state.problemDetail ?? null),
      serviceCheckedAt: state.checkedAt,
    },
  });
}

/** Shops whose merchant turned checkout rates on (the price refresh and the service check). */
export async function shopsWithRatesOn(): Promise<string[]> {
  const rows = await prisma.checkoutRateSettings.findMany({
    where: { enabled: true },
    select: { shop: true },
    orderBy: { shop: "asc" },
  });
  return rows.map((r) => r.shop);
}

// ── The price table ──────────────────────────────────────────────────────────────────────────

export interface AreaPriceCell {
  originAreaId: number;
  areaId: number;
  governanceId: number;
  bandKg: number;
  priceFils: number;
  fetchedAt: Date;
}

export async function listAreaPrices(shop: string, environment: string): Promise<AreaPriceCell[]> {
  return prisma.areaPrice.findMany({
    where: { shop, environment },
    select: {
      originAreaId: true,
      areaId: true,
      governanceId: true,
      bandKg: true,
      priceFils: true,
      fetchedAt: true,
    },
  });
}

/** Writes prices the courier just gave (a cell already there takes the new price and time). */
export async function saveAreaPrices(
  shop: string,
  environment: string,
  cells: readonly AreaPriceCell[],
): Promise<void> {
  if (cells.length === 0) return;
  await prisma.$transaction(
    cells.map((cell) =>
      prisma.areaPrice.upsert({
        where: {
          shop_environment_originAreaId_areaId_bandKg: {
            shop,
            environment,
            originAreaId: cell.originAreaId,
            areaId: cell.areaId,
            bandKg: cell.bandKg,
          },
        },
        create: { shop, environment, ...cell },
        update: {
          priceFils: cell.priceFils,
          fetchedAt: cell.fetchedAt,
          governanceId: cell.governanceId,
        },
      }),
    ),
  );
}

/** Forgets the shop's prices (the courier key or environment changed: they may differ). */
export async function clearAreaPrices(shop: string): Promise<void> {
  await prisma.areaPrice.deleteMany({ where: { shop } });
}

// ── What checkout asked ──────────────────────────────────────────────────────────────────────

export interface RateTallyCount {
  shop: string;
  day: string;
  /** Gazetteer English name; "" when the address could not be placed. */
  area: string;
  outcome: RateOutcome;
  count: number;
}

/**
 * Adds counts in one statement: each row's count grows by its share, a new row starts at it. One
 * `INSERT … ON CONFLICT DO UPDATE` (SQLite and PostgreSQL both take it) where an upsert per row
 * cost the web process about 1 ms of CPU a row through the client, every 5 s under load
 * (bench:rates saw requests wait behind it).
 */
export async function addRateTallies(counts: readonly RateTallyCount[]): Promise<void> {
  // A few hundred rows a statement keeps far below either database's limit of parameters.
  for (let i = 500; i < counts.length; i += 500) await addRateTallies(counts.slice(i, i + 500));
  if (counts.length === 0) return;
  const rows = counts
    .slice(0, 500)
    .map(
      ({ shop, day, area, outcome, count }) =>
        Prisma.sql`(${shop}, ${day}, ${area}, ${outcome}, ${count})`,
    );
  await prisma.$executeRaw`
    INSERT INTO "RateRequestTally" ("shop", "day", "area", "outcome", "count")
    VALUES ${Prisma.join(rows)}
    ON CONFLICT ("shop", "day", "area", "outcome")
    DO UPDATE SET "count" = "RateRequestTally"."count" + excluded."count"`;
}

/** The shop's counts from `sinceDay` (Kuwait date) on. */
export async function listRateTallies(shop: string, sinceDay: string): Promise<RateTallyCount[]> {
  const rows = await prisma.rateRequestTally.findMany({
    where: { shop, day: { gte: sinceDay } },
    orderBy: [{ day: "asc" }, { area: "asc" }],
  });
  return rows.map((r) => ({ ...r, outcome: r.outcome as RateOutcome }));
}

/** Areas checkout priced with the fallback since `sinceDay`, most asked first. */
export async function areasThatFellBack(shop: string, sinceDay: string): Promise<string[]> {
  const rows = await prisma.rateRequestTally.groupBy({
    by: ["area"],
    where: { shop, day: { gte: sinceDay }, outcome: "fallback", area: { not: "" } },
    _sum: { count: true },
  });
  return rows.sort((a, b) => (b._sum.count ?? 0) - (a._sum.count ?? 0)).map((r) => r.area);
}

/** Keeps the tally bounded: days before `beforeDay` are deleted. */
export async function pruneRateTallies(beforeDay: string): Promise<number> {
  const { count } = await prisma.rateRequestTally.deleteMany({ where: { day: { lt: beforeDay } } });
  return count;
}
