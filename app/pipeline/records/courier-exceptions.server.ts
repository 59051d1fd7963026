import type { CourierClient } from "../../courier";
import {
  saveCourierExceptions,
  shopsDueForExceptions,
  takeExceptionsRead,
} from "../../models/courier-exceptions.server";

/**
 * Reads the courier's exceptions for each shop on a schedule (every EXCEPTIONS_EVERY_MS), from a
 * day before the last read, every page up to a bound, and keeps the new ones linked to their
 * deliveries. A courier that fails is asked again at the next turn.
 */
export const EXCEPTIONS_EVERY_MS = 15 * 60_000;
const LOOK_BACK_DAYS = 14;
const MAX_PAGES = 20;
const PAGE_SIZE = 100;

export interface ExceptionReadDependencies {
  courierFor: (
    shop: string,
    environment: "sandbox" | "production",
  ) => Promise<CourierClient | null>;
}

const kuwaitDay = (at: Date) => new Date(at.getTime() + 3 * 3_600_000).toISOString().slice(0, 10);

export async function readDueCourierExceptions(
  deps: ExceptionReadDependencies,
  now = new Date(),
): Promise<number> {
  let added = 0;
  for (const shop of await shopsDueForExceptions(now, EXCEPTIONS_EVERY_MS)) {
    if (!(await takeExceptionsRead(shop.shop, shop.exceptionsReadAt, now))) continue;
    const environment = shop.courierEnvironment === "production" ? "production" : "sandbox";
    const courier = await deps.courierFor(shop.shop, environment);
    if (!courier) continue;
    const since = shop.exceptionsReadAt
      ? new Date(shop.exceptionsReadAt.getTime() - 24 * 3_600_000)
      : new Date(now.getTime() - LOOK_BACK_DAYS * 24 * 3_600_000);
    try {
      for (let page = 1; page <= MAX_PAGES; page++) {
        const result = await courier.exceptions({
          from: kuwaitDay(since),
          page,
          pageSize: PAGE_SIZE,
        });
        added += await saveCourierExceptions(shop.shop, environment, result.exceptions, now);
        if (result.exceptions.length < (result.pageSize ?? PAGE_SIZE)) break;
      }
    } catch (error) {
      console.warn(
        `Reading the courier's exceptions for ${shop.shop} failed: ${error instanceof Error ? error.message : "unknown error"}`,
      );
    }
  }
  return added;
}
