import fs from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { kuwaitDay } from "../../app/domain/working-days";
import {
  embeddedPageUrl,
  newAdminPage,
  launchBrowser,
  openEmbeddedPage,
  gotoReady,
} from "../support/browser";
import {
  appDatabase,
  BROWSER_SHOP,
  BROWSER_SHOP_NAME,
  connectCourier,
  salmiyaIn,
} from "../support/browser-shop";
import { latinTextOnArabicPage, overflowingElements, KEPT_IN_LATIN } from "../support/page-checks";
import { ARTIFACTS_DIR } from "../support/paths";

/**
 * Issue 28's merchant pages in a real browser: Settings' Checkout rates section (a refused save
 * that keeps what was typed, then a good one) and Reports' checkout rates card, in English and
 * Arabic at 1280 and 390 px, with a seeded price table and request tally. Screenshots in
 * test-results/browser/checkout-rates-*.png.
 */
const appUrl = inject("appUrl");
const shop = BROWSER_SHOP;
const prisma = appDatabase();
const pageErrors: string[] = [];
let browser: Browser;

const BRAND_WORDS = [...KEPT_IN_LATIN, "KWD"];
const SECTION = "[data-settings-section=checkout-rates]";
const REPORT = "[data-report=checkout-rates]";

async function open(
  pagePath: string,
  device: "desktop" | "phone",
  locale: "ar" | "en",
): Promise<Page> {
  const page = await newAdminPage(browser, device);
  page.on("pageerror", (error) => pageErrors.push(error.message));
  const response = await gotoReady(
    page,
    await embeddedPageUrl(appUrl, BROWSER_SHOP_NAME, pagePath, locale),
  );
  expect(response?.status()).toBe(200);
  await page.waitForLoadState("networkidle");
  return page;
}

async function shot(page: Page, selector: string, name: string) {
  const file = path.join(ARTIFACTS_DIR, "browser", `${name}.png`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  await page.locator(selector).screenshot({ path: file });
}

beforeAll(async () => {
  browser = await launchBrowser();
  await (await openEmbeddedPage(browser, appUrl, BROWSER_SHOP_NAME, "/app")).close();
  const masterData = await connectCourier(prisma);
  const { salmiya } = salmiyaIn(masterData);
  await prisma.checkoutRateSettings.deleteMany({ where: { shop } });
  await prisma.checkoutRateSettings.create({
    data: {
      shop,
      callbackToken: "browser-test-rates-token-0001",
      enabled: true,
      fallbackFils: 2000,
      marginFils: 250,
      freeAboveFils: 30_000,
      hiddenAreas: JSON.stringify(["Abdali", "Wafra"]),
      holidays: JSON.stringify(["2026-12-31", "2027-02-25"]),
      cutoffMinutes: 14 * 60,
    },
  });
  const fetchedAt = new Date(Date.now() - 12 * 60_000);
  await prisma.areaPrice.deleteMany({ where: { shop } });
  await prisma.areaPrice.createMany({
    data: masterData.areas.slice(0, 40).map((area) => ({
      shop,
      environment: "sandbox",
      originAreaId: salmiya.areaId!,
      areaId: area.areaId!,
      governanceId: area.governanceId,
      bandKg: 5,
      priceFils: 1250,
      fetchedAt,
    })),
  });
  const day = (ago: number) => kuwaitDay(new Date(Date.now() - ago * 86_400_000));
  await prisma.rateRequestTally.deleteMany({ where: { shop } });
  await prisma.rateRequestTally.createMany({
    data: [
      { day: day(0), area: "Salmiya", outcome: "priced", count: 84 },
      { day: day(1), area: "Jabriya", outcome: "priced", count: 41 },
      { day: day(2), area: "Mishref", outcome: "priced", count: 23 },
      { day: day(3), area: "Jahra", outcome: "fallback", count: 17 },
      { day: day(4), area: "Sabah Al-Ahmad City", outcome: "fallback", count: 9 },
      { day: day(4), area: "", outcome: "not_placed", count: 11 },
      { day: day(5), area: "Wafra", outcome: "hidden", count: 4 },
      { day: day(6), area: "Salmiya", outcome: "free", count: 12 },
      { day: day(6), area: "", outcome: "outside_kuwait", count: 2 },
    ].map((row) => ({ shop, ...row })),
  });
});

afterAll(async () => {
  await prisma.rateRequestTally.deleteMany({ where: { shop } });
  await prisma.areaPrice.deleteMany({ where: { shop } });
  await prisma.checkoutRateSettings.deleteMany({ where: { shop } });
  await browser?.close();
  await prisma.$disconnect();
});

describe("Settings' checkout rates", () => {
  it("refuses a wrong fallback rate keeping the rest, then saves", async () => {
    const page = await open("/app/settings", "desktop", "en");
    const section = page.locator(SECTION);
    await section.getByLabel("Add a fixed amount").fill("0.500");
    await section.getByLabel("Fallback rate").fill("2.5 dinars and a bit");
    await section.getByRole("button", { name: "Save checkout rate choices" }).click();
    await expect
      .poll(() => section.getByText("The fallback rate must be an amount").count())
      .toBe(1);
    expect(await section.getByLabel("Add a fixed amount").inputValue()).toBe("0.500");
    await shot(page, SECTION, "checkout-rates-settings-refused");

    await section.getByLabel("Fallback rate").fill("2.250");
    await section.getByRole("button", { name: "Save checkout rate choices" }).click();
    await expect
      .poll(() =>
        page
          .locator("[data-standin-toast]")
          .getByText(/choices saved/)
          .count(),
      )
      .toBe(1);
    const row = await prisma.checkoutRateSettings.findUniqueOrThrow({ where: { shop } });
    expect(row).toMatchObject({ fallbackFils: 2250, marginFils: 500 });
    expect(JSON.parse(row.hiddenAreas)).toEqual(["Abdali", "Wafra"]);
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  it("says in words when Shopify's plan does not allow rates from apps", async () => {
    await prisma.checkoutRateSettings.update({
      where: { shop },
      data: { enabled: false, serviceProblem: "plan_not_eligible", serviceProblemAt: new Date() },
    });
    try {
      for (const locale of ["en", "ar"] as const) {
        const page = await open("/app/settings", "desktop", locale);
        const section = page.locator(SECTION);
        const words = locale === "ar" ? "الخطة المتقدمة أو أعلى" : "Advanced plan or higher";
        await expect.poll(() => section.getByText(words, { exact: false }).count()).toBe(1);
        const status = section.locator("[data-rates-status]");
        const file = path.join(ARTIFACTS_DIR, "browser", `checkout-rates-plan-${locale}.png`);
        await status.screenshot({ path: file });
        await page.close();
      }
    } finally {
      await prisma.checkoutRateSettings.update({
        where: { shop },
        data: { enabled: true, serviceProblem: null, serviceProblemAt: null },
      });
    }
  });

  for (const [device, locale] of [
    ["desktop", "en"],
    ["phone", "en"],
    ["desktop", "ar"],
    ["phone", "ar"],
  ] as const) {
    it(`lays out on a ${device} in ${locale}, in the page's language`, async () => {
      const page = await open("/app/settings", device, locale);
      const section = page.locator(SECTION);
      await expect.poll(() => section.locator("h2").count()).toBeGreaterThan(0);
      // One governorate open on a wide screen, to see the areas chosen there.
      const ahmadi = section.getByRole("button", { name: locale === "ar" ? /الأحمدي/ : /Ahmadi/ });
      if (device === "desktop") await ahmadi.click();
      expect(await section.innerText()).toMatch(locale === "ar" ? /40 من/ : /40 of/);
      expect(await overflowingElements(page)).toEqual([]);
      if (locale === "ar") {
        expect(await latinTextOnArabicPage(page, BRAND_WORDS, { within: SECTION })).toEqual([]);
      }
      await shot(page, SECTION, `checkout-rates-settings-${locale}-${device}`);
      await page.close();
    });
  }
});

describe("Reports' checkout rates", () => {
  for (const [device, locale] of [
    ["desktop", "en"],
    ["phone", "en"],
    ["desktop", "ar"],
    ["phone", "ar"],
  ] as const) {
    it(`shows the last 30 days on a ${device} in ${locale}`, async () => {
      const page = await open("/app/reports", device, locale);
      const card = page.locator(REPORT);
      await expect.poll(() => card.locator("h2").count()).toBe(1);
      const text = await card.innerText();
      expect(text).toMatch(locale === "ar" ? /السالمية/ : /Salmiya/);
      expect(text).toMatch(locale === "ar" ? /الجهراء/ : /Jahra/);
      expect(await overflowingElements(page)).toEqual([]);
      if (locale === "ar")
        expect(await latinTextOnArabicPage(page, BRAND_WORDS, { within: REPORT })).toEqual([]);
      await shot(page, REPORT, `checkout-rates-report-${locale}-${device}`);
      await page.close();
    });
  }
});
