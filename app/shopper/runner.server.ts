import { env } from "../env.server";
import { loadWhatsAppSender } from "../models/whatsapp-account.server";
import { isOptedOut } from "../models/whatsapp-opt-outs.server";
import { isLooping, kickLoop, startLoop, stopLoop } from "../pipeline/drain-loop.server";
import { workerOwner } from "../pipeline/runner.server";
import { shopifyAdminFor } from "../services/shopify-admin.server";
import { runDueAsks } from "./ask-loop.server";
import { runDueMessages } from "./message-loop.server";

/**
 * The shopper loop on the worker's drain loop (ADR 0003), beside the delivery worker and turned
 * off with it (DELIVERY_WORKER): a pass every few seconds, one at once when an order or an answer
 * arrives. Each pass checks the asks due, then sends the WhatsApp messages due (ADR 0058), so a
 * question asked in a pass has its message go in the next.
 */
export function startShopperLoop(intervalMs = 3_000): void {
  if (isLooping("shopper asks") || env().DELIVERY_WORKER === "off") return;
  const owner = `${workerOwner()}:shopper`;
  const asks = { owner, adminFor: shopifyAdminFor };
  const messages = {
    owner: `${owner}:messages`,
    senderFor: loadWhatsAppSender,
    isOptedOut,
    apiUrl: env().WHATSAPP_API_URL,
    confirmWaitMs: env().WHATSAPP_CONFIRM_WAIT_MS,
  };
  startLoop(
    "shopper asks",
    async () => (await runDueAsks(asks)) + (await runDueMessages(messages)),
    intervalMs,
  );
}

export const stopShopperLoop = () => stopLoop("shopper asks");

/** An order to check, an answer to carry out or a message owed: a pass at once, if it runs here. */
export const kickShopperLoop = () => kickLoop("shopper asks");
