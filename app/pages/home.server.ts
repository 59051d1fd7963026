import { getCourierAccount } from "../models/courier-account.server";
import { countRecoveredFulfillments } from "../models/fulfillment-checks.server";
import { getDashboard, getSetupProgress, kuwaitDate } from "../models/read/dashboard.server";
import { getShopifyAccess } from "../models/shopify-access.server";

/** Home: today's figures, the 14-day chart, the setup checklist and what needs the merchant. */
export async function homePage(shop: string, now = new Date()) {
  const [account, dashboard, setup, recovered, shopifyAccess] = await Promise.all([
    getCourierAccount(shop),
    getDashboard(shop, now),
    getSetupProgress(shop),
    countRecoveredFulfillments(shop),
    getShopifyAccess(shop),
  ]);
  const connection = !account.keyHint ? "missing" : account.checkError ? "failing" : "working";
  return {
    recovered,
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
