import { getCourierAccount } from "../models/courier-account.server";
import { countRecoveredFulfillments } from "../models/fulfillment-checks.server";
import { getDashboard, getSetupProgress, kuwaitDate } from "../models/read/dashboard.server";
import { getShopSettings } from "../models/shop.server";
import { getShopifyAccess } from "../models/shopify-access.server";
import { askFigures } from "../models/shopper-asks.server";

const DAY = 86_400_000;

/**
 * Home: today's figures, the 14-day chart, the setup checklist, what needs the merchant, and the
 * customers asked about their address (issue 26: waiting now, answered or not in 30 days).
 */
export async function homePage(shop: string, now = new Date()) {
  const [account, dashboard, setup, recovered, shopifyAccess, asks, settings] = await Promise.all([
    getCourierAccount(shop),
    getDashboard(shop, now),
    getSetupProgress(shop),
    countRecoveredFulfillments(shop),
    getShopifyAccess(shop),
    askFigures(shop, new Date(now.getTime() - 30 * DAY)),
    getShopSettings(shop),
  ]);
  const connection = !account.keyHint ? "missing" : account.checkError ? "failing" : "working";
  return {
    recovered,
    customerAnswers: {
      ...asks,
      asking: Boolean(settings?.askShoppers || settings?.askCashConfirmation),
    },
    shopifyAccessLost: shopifyAccess.lostAt ? (shopifyAccess.reason ?? "") : null,
    courierEnvironment: account.environment,
    connection,
    connectionError: account.checkError,
    steps: { connected: connection === "working", ...setup },
    dashboard: {
      ...dashboard,
      todayStart: dashboard.todayStart.toISOString(),
      today: kuwaitDate(now),
    },
  };
}
