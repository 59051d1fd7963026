import { findCheckoutRateSettings } from "../models/checkout-rates.server";
import { getCourierAccount } from "../models/courier-account.server";
import { countRecoveredFulfillments } from "../models/fulfillment-checks.server";
import { getDashboard, getSetupProgress, kuwaitDate } from "../models/read/dashboard.server";
import { getShopSettings } from "../models/shop.server";
import { getShopifyAccess } from "../models/shopify-access.server";
import { askFigures } from "../models/shopper-asks.server";
import { latestStatementDifferences } from "../models/cash-ledger.server";
import { nextSteps } from "../domain/next-steps";

const DAY = 86_400_000;

/**
 * Home: today's figures, the 14-day chart, the setup checklist, what needs the merchant, and the
 * customers asked about their address (issue 26: waiting now, answered or not in 30 days), and
 * checkout rates the merchant turned on that Shopify turned off or refused (issue 28, ADR 0063).
 */
export async function homePage(shop: string, now = new Date()) {
  const [account, dashboard, setup, recovered, shopifyAccess, asks, settings, rates, differences] =
    await Promise.all([
      getCourierAccount(shop),
      getDashboard(shop, now),
      getSetupProgress(shop),
      countRecoveredFulfillments(shop),
      getShopifyAccess(shop),
      askFigures(shop, new Date(now.getTime() - 30 * DAY)),
      getShopSettings(shop),
      findCheckoutRateSettings(shop),
      latestStatementDifferences(shop),
    ]);
  const connection = !account.keyHint ? "missing" : account.checkError ? "failing" : "working";
  return {
    recovered,
    nextSteps: nextSteps({ ...dashboard.waiting, cashDifferences: differences }),
    customerAnswers: {
      ...asks,
      asking: Boolean(settings?.askShoppers || settings?.askCashConfirmation),
    },
    checkoutRatesOff: checkoutRatesOff(rates),
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

/**
 * Checkout rates the merchant turned on but Shopify does not serve because of the shop's plan:
 * refused at turn-on, or turned off later (a downgrade). Other problems are Settings' to explain.
 */
function checkoutRatesOff(rates: Awaited<ReturnType<typeof findCheckoutRateSettings>>) {
  if (!rates?.enabled) return null;
  const problem = rates.serviceProblem;
  if (problem !== "deactivated" && problem !== "plan_not_eligible") return null;
  return { problem, since: rates.serviceProblemAt?.toISOString() ?? null };
}
