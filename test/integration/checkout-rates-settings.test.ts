import { beforeEach, describe, expect, it, vi } from "vitest";
import prisma from "../../app/db.server";
import { getCheckoutRateSettings } from "../../app/models/checkout-rates.server";
import { action, loader } from "../../app/routes/app.settings";
import { adminFetchRequest, callRoute, installShop, shopDomain } from "../support/shopify";

// The carrier service's lifecycle is another module's work; here only what Settings does with
// its answers.
const carrierService = vi.hoisted(() => ({
  turnOnCheckoutRates: vi.fn(),
  turnOffCheckoutRates: vi.fn(),
}));
vi.mock("../../app/checkout/carrier-service.server", () => carrierService);

const shop = shopDomain("rates-settings");

async function post(form: Record<string, string>) {
  const response = await callRoute(
    action,
    await adminFetchRequest(shop, "/app/settings", { form }),
  );
  return { status: response.status, body: await response.json() };
}

async function load() {
  return (await callRoute(loader, await adminFetchRequest(shop, "/app/settings"))).json();
}

const goodForm = {
  intent: "rates-save",
  fallbackRate: "2.000",
  marginFixed: "0.250",
  marginPercent: "7.5",
  freeAbove: "25",
  cutoff: "14:30",
  preparationDays: "1",
  holidays: "2026-12-31\n2026-12-01\n2026-12-31",
  hiddenAreas: "Wafra\nAbdali",
};

beforeEach(async () => {
  await installShop(shop);
  await prisma.checkoutRateSettings.deleteMany({ where: { shop } });
  carrierService.turnOnCheckoutRates.mockReset();
  carrierService.turnOffCheckoutRates.mockReset();
});

describe("Settings' checkout rate choices", () => {
  it("saves good values as fils, basis points and minutes", async () => {
    const { status, body } = await post(goodForm);
    expect(status).toBe(200);
    expect(body).toEqual({ ok: true, section: "checkoutRates", done: "saved" });
    const row = await getCheckoutRateSettings(shop);
    expect(row).toMatchObject({
      fallbackFils: 2000,
      marginFils: 250,
      marginBasisPoints: 750,
      freeAboveFils: 25_000,
      cutoffMinutes: 870,
      preparationDays: 1,
    });
  });

  it("reads amounts written the Arabic way", async () => {
    await post({ ...goodForm, fallbackRate: "١٫٧٥٠ د.ك", cutoff: "٠٩:١٥" });
    const row = await getCheckoutRateSettings(shop);
    expect(row.fallbackFils).toBe(1750);
    expect(row.cutoffMinutes).toBe(555);
  });

  it("round-trips holidays sorted without duplicates and hidden areas", async () => {
    await post(goodForm);
    const page = await load();
    expect(page.checkoutRates.choices).toMatchObject({
      fallbackRate: "2.000",
      marginFixed: "0.250",
      marginPercent: "7.5",
      freeAbove: "25.000",
      cutoff: "14:30",
      preparationDays: "1",
      holidays: "2026-12-01\n2026-12-31",
      hiddenAreas: "Abdali\nWafra",
    });
  });

  it("treats empty margins and free delivery as none", async () => {
    await post({ ...goodForm, marginFixed: "", marginPercent: "", freeAbove: "" });
    const row = await getCheckoutRateSettings(shop);
    expect(row).toMatchObject({ marginFils: 0, marginBasisPoints: 0, freeAboveFils: null });
  });

  const refusals: [string, Record<string, string>, string][] = [
    ["a missing fallback rate", { fallbackRate: "" }, "fallbackRequired"],
    ["a fallback rate above 100 KWD", { fallbackRate: "100.001" }, "fallback"],
    ["a fallback rate with four decimals", { fallbackRate: "1.2345" }, "fallback"],
    ["a fixed margin above 50 KWD", { marginFixed: "51" }, "marginFixed"],
    ["a percentage with three decimals", { marginPercent: "1.125" }, "marginPercent"],
    ["a percentage above 100", { marginPercent: "101" }, "marginPercent"],
    ["free delivery from zero", { freeAbove: "0" }, "freeAbove"],
    ["a cut-off that is not a time", { cutoff: "25:00" }, "cutoff"],
    ["eleven preparation days", { preparationDays: "11" }, "preparationDays"],
    ["a holiday that is no date", { holidays: "2026-02-30" }, "holidays"],
    ["an area the gazetteer does not know", { hiddenAreas: "Atlantis" }, "hiddenAreas"],
  ];
  for (const [what, change, key] of refusals) {
    it(`refuses ${what} and keeps what was typed`, async () => {
      await post(goodForm);
      const form = { ...goodForm, marginFixed: "0.500", ...change };
      const { status, body } = await post(form);
      expect(status).toBe(400);
      const field = Object.keys(change)[0]!;
      expect(body.errors).toEqual({ [field]: `checkoutRates.errors.${key}` });
      const { intent: _intent, ...typed } = form;
      expect(body.values).toEqual(typed);
      // Nothing saved from the refused form: the earlier choices stay.
      expect((await getCheckoutRateSettings(shop)).marginFils).toBe(250);
    });
  }

  it("names every wrong field at once", async () => {
    const { body } = await post({ ...goodForm, fallbackRate: "abc", cutoff: "noon" });
    expect(Object.keys(body.errors).sort()).toEqual(["cutoff", "fallbackRate"]);
  });
});

describe("turning checkout rates on and off from Settings", () => {
  it("calls the carrier service with the app's URL and says it worked", async () => {
    carrierService.turnOnCheckoutRates.mockResolvedValue({ ok: true });
    const { status, body } = await post({ intent: "rates-on" });
    expect(status).toBe(200);
    expect(body).toEqual({ ok: true, section: "checkoutRates", done: "on" });
    const [calledShop, admin, appUrl] = carrierService.turnOnCheckoutRates.mock.calls[0]!;
    expect(calledShop).toBe(shop);
    expect(typeof admin.graphql).toBe("function");
    expect(appUrl).toBe(process.env.SHOPIFY_APP_URL);
  });

  it("hands Shopify's refusal to the page", async () => {
    carrierService.turnOnCheckoutRates.mockResolvedValue({
      ok: false,
      problem: "plan_not_eligible",
      detail: null,
    });
    const { status, body } = await post({ intent: "rates-on" });
    expect(status).toBe(400);
    expect(body).toEqual({
      ok: false,
      section: "checkoutRates",
      problem: "plan_not_eligible",
      detail: null,
    });
  });

  it("turns them off", async () => {
    carrierService.turnOffCheckoutRates.mockResolvedValue({ ok: true });
    const { body } = await post({ intent: "rates-off" });
    expect(body).toEqual({ ok: true, section: "checkoutRates", done: "off" });
    expect(carrierService.turnOffCheckoutRates).toHaveBeenCalledWith(shop, expect.anything());
  });
});

describe("the price table's state on Settings", () => {
  it("counts the areas priced and says when they were refreshed", async () => {
    const environment = (await load()).courierEnvironment;
    const fetchedAt = new Date(Date.now() - 5 * 60_000);
    await prisma.areaPrice.deleteMany({ where: { shop } });
    await prisma.areaPrice.createMany({
      data: [5, 10].flatMap((bandKg) =>
        [11, 12, 13].map((areaId) => ({
          shop,
          environment,
          originAreaId: 11,
          areaId,
          governanceId: 1,
          bandKg,
          priceFils: 1250,
          fetchedAt,
        })),
      ),
    });
    const page = await load();
    expect(page.checkoutRates.table).toMatchObject({
      pricedAreas: 3,
      refreshedAt: fetchedAt.toISOString(),
    });
    expect(page.checkoutRates.table.areas).toBeGreaterThan(3);
  });
});
