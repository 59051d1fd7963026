// Longer than 400 lines: the one model of the shopper's questions (asked, answered, asked again after a failed attempt), with the loop's lease and work list beside the columns they read.
import { randomBytes } from "node:crypto";
import { Prisma, type ShopperAsk } from "@prisma/client";
import { z } from "zod";
import prisma from "../db.server";
import { jsonColumn, Unreadable } from "../domain/json-column";
import type { FlowTrigger } from "../domain/flow-triggers";
import type { FlowPayload } from "../domain/records-columns";
import { enqueueFlowEvent } from "./flow-events.server";
import { queueShopperMessage, type MessageOwed } from "./shopper-messages.server";
import {
  askState,
  shopperAnswer,
  type AskQuestion,
  type AskReason,
  type AskState,
  type ShopperAnswer,
} from "../domain/shopper-ask";
import { askKind, type AskKind } from "../domain/second-chance";

/**
 * The questions put to shoppers (issue 26): one row per order, written when the order arrives,
 * decided and held by the shopper loop (shopper/ask-loop.server.ts), answered through the public
 * page. An answer is recorded first and whole; what it still has to do in Shopify is a list on
 * the row (pendingWork) that the loop carries out and clears, so a crash in between loses nothing
 * and repeats nothing Shopify already did (release and write are idempotent there). Scoped by
 * shop; the token is the one key that is not (the public page has no shop).
 */

/** What the order said, kept for the page, the matcher and the merchant (personal data). */
export const orderSnapshot = z.object({
  address: z.object({
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    address1: z.string().nullable(),
    address2: z.string().nullable(),
    city: z.string().nullable(),
    provinceCode: z.string().nullable(),
    zip: z.string().nullable(),
    countryCode: z.string().nullable(),
    phone: z.string().nullable(),
  }),
  phone: z.string().nullable(),
  items: z.array(z.object({ title: z.string(), quantity: z.number() })),
  /** Fils the driver collects, or null for a paid order. */
  cashToCollectFils: z.number().nullable(),
  currency: z.string(),
  /** What the shopper's blocks prove the order is theirs with (issue 27); absent on older rows. */
  confirmationNumber: z.string().nullable().optional(),
});
export type OrderSnapshot = z.infer<typeof orderSnapshot>;

export const WORK = ["write_order", "release_holds", "remember_area"] as const;
export type AskWork = (typeof WORK)[number];
const holds = z.array(z.object({ fulfillmentOrderId: z.string(), holdId: z.string() }));
export type AskHold = z.infer<typeof holds>[number];

export const snapshotColumn = jsonColumn("ShopperAsk.orderSnapshot", orderSnapshot);
const answerColumn = jsonColumn("ShopperAsk.answer", shopperAnswer);
const holdsColumn = jsonColumn("ShopperAsk.holds", holds);
const workColumn = jsonColumn("ShopperAsk.pendingWork", z.array(z.enum(WORK)));
export const questionsColumn = jsonColumn(
  "ShopperAsk.questions",
  z.array(z.enum(["address", "cash"])),
);
export const reasonsColumn = jsonColumn("ShopperAsk.reasons", z.array(z.string()));

export interface AskRow {
  id: string;
  shop: string;
  orderId: string;
  orderName: string | null;
  token: string;
  state: AskState;
  questions: AskQuestion[];
  reasons: AskReason[];
  snapshot: OrderSnapshot | null;
  customerLanguage: string | null;
  holds: AskHold[];
  askedAt: Date | null;
  answerBy: Date | null;
  linkExpiresAt: Date;
  answer: ShopperAnswer | null;
  answerSource: string | null;
  answeredAt: Date | null;
  pendingWork: AskWork[];
  /** How many times the row was opened (the first ask, each failed attempt after). */
  round: number;
  attempts: number;
  nextAttemptAt: Date | null;
  lastError: string | null;
  /** Asked before sending, or again after a failed attempt of `deliveryId` (issue 27). */
  kind: AskKind;
  deliveryId: string | null;
  createdAt: Date;
}

const readable = <T>(value: T | Unreadable | null, fallback: T): T =>
  value === null || value instanceof Unreadable ? fallback : value;

export function askRow(row: ShopperAsk): AskRow {
  const snapshot = row.orderSnapshot === null ? null : snapshotColumn.decode(row.orderSnapshot);
  const answer = row.answer === null ? null : answerColumn.decode(row.answer);
  return {
    id: row.id,
    shop: row.shop,
    orderId: row.orderId,
    orderName: row.orderName,
    token: row.token,
    state: askState.catch("checking").parse(row.state),
    questions: readable(row.questions === null ? null : questionsColumn.decode(row.questions), []),
    reasons: readable(
      row.reasons === null ? null : reasonsColumn.decode(row.reasons),
      [],
    ) as AskReason[],
    snapshot: snapshot instanceof Unreadable ? null : snapshot,
    customerLanguage: row.customerLanguage,
    holds: readable(row.holds === null ? null : holdsColumn.decode(row.holds), []),
    askedAt: row.askedAt,
    answerBy: row.answerBy,
    linkExpiresAt: row.linkExpiresAt,
    answer: answer instanceof Unreadable ? null : answer,
    answerSource: row.answerSource,
    answeredAt: row.answeredAt,
    pendingWork: readable(row.pendingWork === null ? null : workColumn.decode(row.pendingWork), []),
    round: row.round,
    attempts: row.attempts,
    nextAttemptAt: row.nextAttemptAt,
    lastError: row.lastError,
    kind: askKind.catch("before_sending").parse(row.kind),
    deliveryId: row.deliveryId,
    createdAt: row.createdAt,
  };
}

/** A new link token: 128 random bits, as the delivery's tracking token. */
export function newAskToken(): string {
  return randomBytes(16).toString("hex");
}

/**
 * An order arrived (orders/create): recorded to be checked by the loop, once per order, however
 * often Shopify sends it. True when this call recorded it.
 */
export async function recordOrderToCheck(input: {
  shop: string;
  orderId: string;
  orderName: string | null;
  customerLanguage: string | null;
  snapshot: OrderSnapshot;
  at: Date;
  linkExpiresAt: Date;
}): Promise<boolean> {
  try {
    await prisma.shopperAsk.create({
      data: {
        shop: input.shop,
        orderId: input.orderId,
        orderName: input.orderName,
        customerLanguage: input.customerLanguage,
        token: newAskToken(),
        state: "checking",
        orderSnapshot: snapshotColumn.encode(input.snapshot),
        linkExpiresAt: input.linkExpiresAt,
        nextAttemptAt: input.at,
      },
    });
    return true;
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002")
      return false;
    throw error;
  }
}

/** Leases up to `limit` asks that have something due, oldest due first. */
export async function claimDueAsks(
  owner: string,
  limit: number,
  leaseMs: number,
  now = new Date(),
): Promise<AskRow[]> {
  const free = { OR: [{ leaseExpiresAt: null }, { leaseExpiresAt: { lt: now } }] };
  const due = await prisma.shopperAsk.findMany({
    where: { nextAttemptAt: { lte: now }, ...free },
    orderBy: { nextAttemptAt: "asc" },
    select: { id: true },
    take: limit,
  });
  if (due.length === 0) return [];
  // Taken only if still free: another process may have leased some in between.
  await prisma.shopperAsk.updateMany({
    where: { id: { in: due.map((d) => d.id) }, nextAttemptAt: { lte: now }, ...free },
    data: { leaseOwner: owner, leaseExpiresAt: new Date(now.getTime() + leaseMs) },
  });
  const rows = await prisma.shopperAsk.findMany({
    where: { id: { in: due.map((d) => d.id) }, leaseOwner: owner },
  });
  return rows.map(askRow);
}

export interface AskChange {
  state?: AskState;
  questions?: AskQuestion[];
  reasons?: AskReason[];
  holds?: AskHold[];
  askedAt?: Date | null;
  answerBy?: Date | null;
  linkExpiresAt?: Date;
  pendingWork?: AskWork[];
  nextAttemptAt?: Date | null;
  attempts?: number;
  lastError?: string | null;
  orderName?: string | null;
}

function changeData(change: AskChange): Prisma.ShopperAskUpdateManyMutationInput {
  const { questions, reasons, holds: held, pendingWork, ...rest } = change;
  return {
    ...rest,
    ...(questions ? { questions: questionsColumn.encode(questions) } : {}),
    ...(reasons ? { reasons: reasonsColumn.encode(reasons) } : {}),
    ...(held ? { holds: holdsColumn.encode(held) } : {}),
    ...(pendingWork ? { pendingWork: workColumn.encode(pendingWork) } : {}),
  };
}

/**
 * Writes what the loop did with an ask it leased and gives the lease back; false when it no
 * longer held it (its lease lapsed and another took it), and nothing was written.
 */
export async function saveLeasedAsk(ask: AskRow, owner: string, change: AskChange) {
  const { count } = await prisma.shopperAsk.updateMany({
    where: { id: ask.id, shop: ask.shop, leaseOwner: owner },
    data: { ...changeData(change), leaseOwner: null, leaseExpiresAt: null },
  });
  return count === 1;
}

/**
 * As saveLeasedAsk, with the Flow trigger the change fires, and the WhatsApp message it owes,
 * written in the same transaction (the outboxes, ADR 0038 and 0058): the ask is asked once, so
 * its trigger and its message are owed once, and each outbox sends its own, a failure tried again
 * there. Nothing is written when the lease was lost.
 */
export async function saveLeasedAskWithTrigger(
  ask: AskRow,
  owner: string,
  change: AskChange,
  trigger: { trigger: FlowTrigger; payload: FlowPayload; at: Date } | null,
  message: MessageOwed | null = null,
): Promise<boolean> {
  return prisma.$transaction(async (tx) => {
    const { count } = await tx.shopperAsk.updateMany({
      where: { id: ask.id, shop: ask.shop, leaseOwner: owner },
      data: { ...changeData(change), leaseOwner: null, leaseExpiresAt: null },
    });
    if (count !== 1) return false;
    if (trigger) await enqueueFlowEvent(tx, ask.shop, trigger.trigger, trigger.payload, trigger.at);
    if (message) await queueShopperMessage(tx, message);
    return true;
  });
}

/** Strikes off work done, keeping the lease; false when the lease was lost meanwhile. */
export async function updateLeasedAskWork(
  ask: AskRow,
  owner: string,
  remaining: AskWork[],
  held: AskHold[],
): Promise<boolean> {
  const { count } = await prisma.shopperAsk.updateMany({
    where: { id: ask.id, shop: ask.shop, leaseOwner: owner },
    data: changeData({ pendingWork: remaining, holds: held }),
  });
  return count === 1;
}

/** The states an answer is taken in: all but one still being checked. */
const ANSWERABLE: AskState[] = [
  "not_needed",
  "not_held",
  "asked",
  "answered",
  "expired",
  "released",
];

/**
 * Records an answer, whole, with what it still has to do in Shopify, and makes that due now. The
 * holds of an ask still open are released with it. Null when the ask cannot take one (still
 * being checked); an answer given again replaces the one before.
 */
export async function recordAnswer(input: {
  shop: string;
  id: string;
  answer: ShopperAnswer;
  source: "shopper" | "merchant";
  at: Date;
}): Promise<AskRow | null> {
  const work: AskWork[] = ["write_order", "release_holds"];
  if (input.answer.kind === "fixed") work.push("remember_area");
  const { count } = await prisma.shopperAsk.updateMany({
    where: { id: input.id, shop: input.shop, state: { in: ANSWERABLE } },
    data: {
      state: "answered",
      answer: answerColumn.encode(input.answer),
      answerSource: input.source,
      answeredAt: input.at,
      pendingWork: workColumn.encode(work),
      nextAttemptAt: input.at,
      attempts: 0,
      lastError: null,
    },
  });
  if (count !== 1) return null;
  return findAsk(input.shop, input.id);
}

/** The merchant lets an order go without an answer: its holds are released by the loop. */
export async function releaseAsk(shop: string, id: string, at: Date): Promise<boolean> {
  const { count } = await prisma.shopperAsk.updateMany({
    where: { id, shop, state: "asked" },
    data: {
      state: "released",
      pendingWork: workColumn.encode(["release_holds"]),
      nextAttemptAt: at,
      attempts: 0,
    },
  });
  return count === 1;
}

export async function findAsk(shop: string, id: string): Promise<AskRow | null> {
  const row = await prisma.shopperAsk.findFirst({ where: { id, shop } });
  return row && askRow(row);
}

export async function findAskByToken(token: string): Promise<AskRow | null> {
  if (!/^[0-9a-f]{32}$/.test(token)) return null;
  const row = await prisma.shopperAsk.findUnique({ where: { token } });
  return row && askRow(row);
}

export async function findAskForOrder(shop: string, orderId: string): Promise<AskRow | null> {
  const row = await prisma.shopperAsk.findUnique({ where: { shop_orderId: { shop, orderId } } });
  return row && askRow(row);
}

/**
 * The shopper's answer for an order, as the worker places a delivery with it: only an answer
 * that names the courier's area.
 */
export async function answeredPlacement(shop: string, orderId: string) {
  const ask = await findAskForOrder(shop, orderId);
  if (!ask?.answer || ask.answer.areaId === null || ask.answer.governanceId === null) return null;
  return { ask, answer: ask.answer };
}

/**
 * Home's figures: orders waiting for their shopper now, and since `since` the answers and the
 * windows that ended without one.
 */
/** How many of the shop's orders are held for their customers' answers now. */
export function countWaitingAsks(shop: string): Promise<number> {
  return prisma.shopperAsk.count({ where: { shop, state: "asked" } });
}

export async function askFigures(shop: string, since: Date) {
  const [waiting, answered, noAnswer] = await Promise.all([
    prisma.shopperAsk.count({ where: { shop, state: "asked" } }),
    prisma.shopperAsk.count({ where: { shop, state: "answered", answeredAt: { gte: since } } }),
    prisma.shopperAsk.count({ where: { shop, state: "expired", answerBy: { gte: since } } }),
  ]);
  return { waiting, answered, noAnswer };
}

/** The shop's asks in `states`, newest first, a page at a time. */
export async function listAsks(
  shop: string,
  { states, take = 100, skip = 0 }: { states: readonly AskState[]; take?: number; skip?: number },
): Promise<AskRow[]> {
  const rows = await prisma.shopperAsk.findMany({
    where: { shop, state: { in: [...states] } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take,
    skip,
  });
  return rows.map(askRow);
}

/** How many of the shop's asks are in each state. */
export async function countAsksByState(shop: string): Promise<Partial<Record<AskState, number>>> {
  const groups = await prisma.shopperAsk.groupBy({
    by: ["state"],
    where: { shop },
    _count: { _all: true },
  });
  const counts: Partial<Record<AskState, number>> = {};
  for (const group of groups) {
    const state = askState.safeParse(group.state);
    if (state.success) counts[state.data] = group._count._all;
  }
  return counts;
}

/** customers/redact: what the asks of these orders hold of the customer is erased. */
export function eraseAsksOf(shop: string, orderIds: string[], at = new Date()) {
  return prisma.shopperAsk.updateMany({
    where: { shop, orderId: { in: orderIds } },
    // The link ends too: whoever holds it (a message, a Flow run) finds nothing of the order.
    data: { orderSnapshot: null, answer: null, lastError: null, linkExpiresAt: at },
  });
}
