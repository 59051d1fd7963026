import { randomBytes } from "node:crypto";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { buildCreateOrderBody } from "../../app/courier/requests";
import { launchBrowser, screenshot, gotoReady } from "../support/browser";
import {
  appDatabase,
  BROWSER_SHOP,
  connectCourier,
  salmiyaIn,
  type MasterData,
} from "../support/browser-shop";
import { overflowingElements } from "../support/page-checks";
import { waitForTrackingBudget } from "../support/tracking-budget";

/**
 * The shopper's page after a failed attempt (issue 27, item 5) in a real browser, in English and
 * Arabic, on a phone and a desktop, without JavaScript: it says the courier could not deliver,
 * asks when they will be in, a phone for the driver and the address; a wrong phone is explained
 * and nothing typed is lost. Screenshots in test-results/browser/second-chance-*.
 */
const appUrl = inject("appUrl");
const shop = BROWSER_SHOP;
const prisma = appDatabase();
let browser: Browser;
let masterData: MasterData;
let orderNumber = 7900;

const PHONE_USER_AGENT =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36";

/** An order whose delivery failed at the courier, its ask open again for that delivery. */
async function failedOrder(language: "ar" | "en") {
  orderNumber += 1;
  const now = Date.now();
  const orderId = `gid://shopify/Order/${orderNumber}`;
  const { hawalli, salmiya } = salmiyaIn(masterData);
  const request = buildCreateOrderBody({
    pickupAddress: {
      governanceId: hawalli.governanceId,
      areaId: salmiya.areaId!,
      block: "10",
      street: "Salem Al Mubarak",
      contactName: "Dar Al Oud",
      contactPhone: "22223333",
    },
    pickupDate: new Date(now - 5 * 3_600_000),
    paymentMethod: "COD",
    deliveryAddress: {
      governanceId: hawalli.governanceId,
      areaId: salmiya.areaId!,
      block: "3",
      street: "12",
      house: "7",
      contactName: "Hessa Al-Ajmi",
      contactPhone: "99001234",
    },
    packageDetails: { weight: 1, description: "Perfume", value: 36.5 },
    notes: "Shopify order",
  });
  const delivery = await prisma.delivery.create({
    data: {
      shop,
      orderId,
      orderName: `#${orderNumber}`,
      fulfillmentId: orderId.replace("Order", "Fulfillment"),
      source: "webhook",
      state: "failed",
      environment: "sandbox",
      reference: `SHPFY-second-${orderNumber}`,
      request: JSON.stringify(request),
      cashToCollect: "36.500",
      customerLanguage: language,
      courierOrderId: `C${orderNumber}`,
      courierOrderNumber: `KW${orderNumber}`,
    },
  });
  return prisma.shopperAsk.create({
    data: {
      shop,
      orderId,
      orderName: `#${orderNumber}`,
      token: randomBytes(16).toString("hex"),
      state: "asked",
      kind: "after_failed_attempt",
      round: 2,
      deliveryId: delivery.id,
      questions: JSON.stringify(["address"]),
      reasons: JSON.stringify(["courier_failed_attempt"]),
      orderSnapshot: JSON.stringify({
        address: {
          firstName: "Hessa",
          lastName: "Al-Ajmi",
          address1: "Block 3, Street 12, House 7",
          address2: null,
          city: "Salmiya",
          provinceCode: "KW-HA",
          zip: null,
          countryCode: "KW",
          phone: "+96599001234",
        },
        phone: "+96599001234",
        items: [{ title: "Oud Al Layl perfume 100 ml", quantity: 1 }],
        cashToCollectFils: 36_500,
        currency: "KWD",
      }),
      customerLanguage: language,
      askedAt: new Date(now),
      answerBy: new Date(now + 24 * 3_600_000),
      linkExpiresAt: new Date(now + 7 * 24 * 3_600_000),
      nextAttemptAt: new Date(now + 24 * 3_600_000),
    },
  });
}

async function open(path: string, width: number) {
  const phone = width < 600;
  const context = await browser.newContext({
    viewport: { width, height: phone ? 844 : 900 },
    userAgent: phone ? PHONE_USER_AGENT : undefined,
    isMobile: phone,
    hasTouch: phone,
    // The page must work without JavaScript: this test posts its plain form.
    javaScriptEnabled: false,
  });
  const page = await context.newPage();
  page.on("close", () => void context.close().catch(() => undefined));
  await page.route(
    (url) => url.hostname !== "127.0.0.1" && url.hostname !== "localhost",
    (route) => route.abort(),
  );
  await waitForTrackingBudget(appUrl, 4);
  const response = await gotoReady(page, `${appUrl}${path}`, { javaScript: false });
  expect(response?.status(), path).toBe(200);
  return page;
}

const WORDS = {
  en: {
    title: "The courier could not deliver your order",
    reason: "The driver came but could not hand over your parcel.",
    save: "Save and deliver again",
    phoneError: "Enter a mobile number",
    thanks: "Thank you, we told the shop",
  },
  ar: {
    title: "لم يتمكن المندوب من توصيل طلبك",
    reason: "حضر المندوب لكنه لم يتمكن من تسليمك الطلب.",
    save: "احفظ وأعد التوصيل",
    phoneError: "أدخل رقم هاتف نقال",
    thanks: "شكراً، أبلغنا المتجر",
  },
} as const;

beforeAll(async () => {
  browser = await launchBrowser();
  masterData = await connectCourier(prisma, {
    trackingShopName: "Dar Al Oud",
    trackingContactPhone: "+965 2222 3333",
  });
});

afterAll(async () => {
  await browser?.close();
  const orders = { startsWith: "gid://shopify/Order/79" };
  await prisma.delivery.deleteMany({ where: { shop, orderId: orders } });
  await prisma.shopperAsk.deleteMany({ where: { shop, orderId: orders } });
  await prisma.$disconnect();
});

describe("the shopper's page after a failed attempt", () => {
  for (const language of ["en", "ar"] as const) {
    it(`asks when they will be in, a phone and the address, and keeps what was typed when the phone is wrong, in ${language}`, async () => {
      const ask = await failedOrder(language);
      for (const width of [390, 1280]) {
        const page = await open(`/tracking/${ask.token}`, width);
        const name = `second-chance-${language}-${width}`;
        await screenshot(page, name);
        expect(await page.getAttribute("html", "lang")).toBe(language);
        expect(await overflowingElements(page), name).toEqual([]);
        expect(await page.locator("h1").innerText()).toBe(WORDS[language].title);
        expect(await page.locator(".sp-list").innerText()).toContain(WORDS[language].reason);
        // The next four working days, the first chosen; three parts of the day, none chosen.
        expect(await page.locator("input[name=whenDay]").count()).toBe(4);
        expect(await page.locator("input[name=whenPart]").count()).toBe(3);
        expect(await page.locator("#fix-street").inputValue()).toBe("12");
        expect(await page.locator("button[type=submit]").innerText()).toBe(WORDS[language].save);
        await page.close();
      }

      // A landline, posted without JavaScript: explained, and nothing typed is lost.
      const page = await open(`/tracking/${ask.token}`, 390);
      await page.locator("input[name=whenPart][value=evening]").check();
      await page.locator("#when-note").fill("Ring twice");
      await page.locator("#fix-phone").fill("2222 1234");
      await page.locator("#fix-house").fill("9");
      await Promise.all([
        page.waitForLoadState("load"),
        page.locator("button[type=submit]").click(),
      ]);
      await screenshot(page, `second-chance-${language}-390-phone-error`);
      expect(await page.locator("#problem").innerText()).toContain(WORDS[language].phoneError);
      expect(await page.locator("#fix-phone-error").innerText()).toContain(
        WORDS[language].phoneError,
      );
      expect(await page.locator("#fix-phone").inputValue()).toBe("2222 1234");
      expect(await page.locator("#when-note").inputValue()).toBe("Ring twice");
      expect(await page.locator("#fix-house").inputValue()).toBe("9");
      expect(await page.locator("input[name=whenPart][value=evening]").isChecked()).toBe(true);
      expect((await prisma.shopperAsk.findUniqueOrThrow({ where: { id: ask.id } })).state).toBe(
        "asked",
      );

      // A mobile from abroad is taken.
      await page.locator("#fix-phone").fill("+44 7700 900123");
      await Promise.all([
        page.waitForLoadState("load"),
        page.locator("button[type=submit]").click(),
      ]);
      await screenshot(page, `second-chance-${language}-390-thanks`);
      expect(await page.locator("h1").innerText()).toBe(WORDS[language].thanks);
      const answered = await prisma.shopperAsk.findUniqueOrThrow({ where: { id: ask.id } });
      expect(answered.state).toBe("answered");
      expect(JSON.parse(answered.answer!)).toMatchObject({
        phone: "+447700900123",
        parts: { house: "9" },
        availability: { part: "evening", note: "Ring twice" },
      });
      await page.close();
    });
  }
});
