import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, openEmbeddedPage, screenshot } from "../support/browser";
import { appDatabase, BROWSER_SHOP, BROWSER_SHOP_NAME } from "../support/browser-shop";
import {
  latinTextOnArabicPage,
  overflowingElements,
  seriousAccessibilityViolations,
  KEPT_IN_LATIN,
} from "../support/page-checks";

/**
 * Home when Shopify turned the merchant's checkout rates off (issue 28, ADR 0063): the critical
 * banner in English and Arabic, at a desktop width and a phone's, with screenshots kept.
 */

const appUrl = inject("appUrl");
const prisma = appDatabase();
const WIDTHS = [1280, 390] as const;
// Names that stay as they are in an Arabic sentence: Shopify's, and its plan's name.
const BRAND_WORDS = [...KEPT_IN_LATIN, "Advanced"];
let browser: Browser;

async function openHome(language: "en" | "ar", width: number): Promise<Page> {
  const errors: string[] = [];
  const page = await openEmbeddedPage(
    browser,
    appUrl,
    BROWSER_SHOP_NAME,
    `/app?locale=${language === "ar" ? "ar" : "en-US"}`,
    errors,
  );
  await page.setViewportSize({ width, height: 900 });
  await page.waitForLoadState("networkidle");
  expect(errors).toEqual([]);
  return page;
}

beforeAll(async () => {
  browser = await launchBrowser();
  // The first load installs the shop (token exchange with the stand-in).
  await (await openEmbeddedPage(browser, appUrl, BROWSER_SHOP_NAME, "/app")).close();
  const state = {
    enabled: true,
    carrierServiceId: "gid://shopify/DeliveryCarrierService/5730120000099",
    serviceProblem: "deactivated",
    serviceProblemAt: new Date("2026-11-27T06:00:00Z"),
    serviceCheckedAt: new Date(),
  };
  await prisma.checkoutRateSettings.upsert({
    where: { shop: BROWSER_SHOP },
    create: { shop: BROWSER_SHOP, callbackToken: "browser-checkout-rates-token", ...state },
    update: state,
  });
});

afterAll(async () => {
  // Other files' pages of the same shop show no banner.
  await prisma.checkoutRateSettings.deleteMany({ where: { shop: BROWSER_SHOP } });
  await browser?.close();
  await prisma.$disconnect();
});

describe("Home when Shopify turned checkout rates off", () => {
  for (const width of WIDTHS) {
    it(`says so in English at ${width} px, with the way back and a link to Settings`, async () => {
      const page = await openHome("en", width);
      const banner = page.locator(".Polaris-Banner");
      await expect
        .poll(() => banner.getByText("Shopify turned off your checkout rates").count())
        .toBe(1);
      expect(await banner.innerText()).toContain("Settings → Checkout rates → Turn on");
      expect(await banner.getByRole("link", { name: "Open Settings" }).getAttribute("href")).toBe(
        "/app/settings",
      );
      await screenshot(page, `home-checkout-rates-off-en-${width}`);
      expect(await overflowingElements(page)).toEqual([]);
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
      await page.close();
    });

    it(`says so in Arabic at ${width} px`, async () => {
      const page = await openHome("ar", width);
      const banner = page.locator(".Polaris-Banner");
      await expect
        .poll(() => banner.getByText("أوقف Shopify أسعار التوصيل في صفحة الدفع").count())
        .toBe(1);
      expect(await page.getAttribute("html", "dir")).toBe("rtl");
      expect(await banner.getByRole("link", { name: "فتح الإعدادات" }).count()).toBe(1);
      await screenshot(page, `home-checkout-rates-off-ar-${width}`);
      expect(await overflowingElements(page)).toEqual([]);
      expect(await latinTextOnArabicPage(page, BRAND_WORDS)).toEqual([]);
      await page.close();
    });
  }
});
