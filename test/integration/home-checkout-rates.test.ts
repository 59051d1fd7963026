import { describe, expect, it } from "vitest";
import { saveCarrierServiceState } from "../../app/models/checkout-rates.server";
import { homePage } from "../../app/pages/home.server";
import type { CarrierServiceProblem } from "../../app/models/checkout-rates.server";

// Home's word on checkout rates (issue 28, ADR 0063): only when the merchant turned them on and
// the shop's plan keeps Shopify from serving them.

const shop = "home-rates.myshopify.com";
const at = new Date("2026-11-20T08:00:00Z");

async function rates(enabled: boolean, problem: CarrierServiceProblem | null) {
  await saveCarrierServiceState(shop, {
    enabled,
    carrierServiceId: "gid://shopify/DeliveryCarrierService/1",
    problem,
    checkedAt: at,
  });
}

describe("Home and checkout rates", () => {
  it("tells the merchant when Shopify turned their checkout rates off", async () => {
    await rates(true, "deactivated");
    expect((await homePage(shop)).checkoutRatesOff).toEqual({
      problem: "deactivated",
      since: at.toISOString(),
    });
  });

  it("tells the merchant when Shopify refused them on the store's plan", async () => {
    await rates(true, "plan_not_eligible");
    expect((await homePage(shop)).checkoutRatesOff).toMatchObject({ problem: "plan_not_eligible" });
  });

  it("says nothing when the merchant turned them off", async () => {
    await rates(false, "deactivated");
    expect((await homePage(shop)).checkoutRatesOff).toBeNull();
  });

  it("leaves a missing scope to Settings", async () => {
    await rates(true, "scope_missing");
    expect((await homePage(shop)).checkoutRatesOff).toBeNull();
  });

  it("says nothing for a shop that never turned them on", async () => {
    expect((await homePage(shop)).checkoutRatesOff).toBeNull();
  });
});
