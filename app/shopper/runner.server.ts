import { env } from "../env.server";
import { isLooping, kickLoop, startLoop, stopLoop } from "../pipeline/drain-loop.server";
import { workerOwner } from "../pipeline/runner.server";
import { shopifyAdminFor } from "../services/shopify-admin.server";
import { runDueAsks } from "./ask-loop.server";

/**
 * The shopper loop on the worker's drain loop (ADR 0003), beside the delivery worker and turned
 * off with it (DELIVERY_WORKER): a pass every few seconds, one at once when an order or an answer
 * arrives.
 */
export function startShopperLoop(intervalMs = 3_000): void {
  if (isLooping("shopper asks") || env().DELIVERY_WORKER === "off") return;
  const deps = { owner: `${workerOwner()}:shopper`, adminFor: shopifyAdminFor };
  startLoop("shopper asks", () => runDueAsks(deps), intervalMs);
}

export const stopShopperLoop = () => stopLoop("shopper asks");

/** An order to check or an answer to carry out: a pass at once, if the loop runs here. */
export const kickShopperLoop = () => kickLoop("shopper asks");
