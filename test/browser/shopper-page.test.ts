import { randomBytes } from "node:crypto";
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { buildCreateOrderBody } from "../../app/courier/requests";
import { leafKeys, type Catalog } from "../../app/i18n/catalog-check";
import { resources } from "../../app/i18n/config";
import { HUMAN_USER_AGENT, launchBrowser, screenshot, gotoReady } from "../support/browser";
import { waitForTrackingBudget } from "../support/tracking-budget";
import {
  appDatabase,
  BROWSER_SHOP,
  connectCourier,
  salmiyaIn,
  type MasterData,
} from "../support/browser-shop";
import {
  charactersLeftToRight,
  englishCatalogStrings,
  latinTextOnArabicPage,
  overflowingElements,
  seriousAccessibilityViolations,
} from "../support/page-checks";

/**
 * The shopper's page (issue 26) in a real browser: the question before the parcel leaves, in
 * English and Arabic, on a phone and a desktop, answered with JavaScript and without it; the
 * tracking page once the courier has the parcel. Screenshots in test-results/browser/shopper-*.
 */
const appUrl = inject("appUrl");
const shop = BROWSER_SHOP;
const prisma = appDatabase();
let browser: Browser;
let masterData: MasterData;
// Apart from the other browser files' orders (merchant-pages seeds 770–7729; they share one shop).
let orderNumber = 6600;

const PHONE_USER_AGENT =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36";
const WIDTHS = [390, 1280] as const;
type Language = "en" | "ar";
// Names that stay as they are in an Arabic sentence.
const BRAND_WORDS = ["WhatsApp", "English"];

const catalogs = resources as Record<string, Record<string, Catalog>>;
/** The page's English sentences that are not the same in Arabic: none may show in Arabic. */
const ENGLISH_PHRASES = (() => {
  const arabic = leafKeys(catalogs.ar!.tracking!);
  return [...leafKeys(catalogs.en!.tracking!)]
    .filter(([key, value]) => arabic.get(key) !== value && !value.includes("{{"))
    .map(([, value]) => value)
    .filter((value) => value.length >= 6 && /[A-Za-z]{3}/.test(value));
})();

const salmiya = () => salmiyaIn(masterData).salmiya;

/** An order the app asked its shopper about: no block, cash on delivery (by default). */
async function askedOrder({
  language = "ar" as Language | null,
  address1 = "Street 12, House 7, near the co-op",
  city = "Salmiya",
  reasons = ["block", "cash_confirmation"],
} = {}) {
  orderNumber += 1;
  const now = Date.now();
  const ask = await prisma.shopperAsk.create({
    data: {
      shop,
      orderId: `gid://shopify/Order/${orderNumber}`,
      orderName: `#${orderNumber}`,
      token: randomBytes(16).toString("hex"),
      state: "asked",
      questions: JSON.stringify(["address", "cash"]),
      reasons: JSON.stringify(reasons),
      orderSnapshot: JSON.stringify({
        address: {
          firstName: "Hessa",
          lastName: "Al-Ajmi",
          address1,
          address2: null,
          city,
          provinceCode: "KW-HA",
          zip: null,
          countryCode: "KW",
          phone: "+96599001234",
        },
        phone: "+96599001234",
        items: [
          { title: "Oud Al Layl perfume 100 ml", quantity: 1 },
          { title: "Bakhoor burner", quantity: 2 },
        ],
        cashToCollectFils: 36_500,
        currency: "KWD",
      }),
      customerLanguage: language,
      askedAt: new Date(now),
      answerBy: new Date(now + 24 * 3_600_000),
      linkExpiresAt: new Date(now + 31 * 24 * 3_600_000),
      // The shopper loop has nothing to do before the window ends.
      nextAttemptAt: new Date(now + 24 * 3_600_000),
    },
  });
  return ask;
}

/** Its parcel, already picked up by the courier. */
async function pickedUp(ask: { orderId: string; orderName: string | null }) {
  const { hawalli } = salmiyaIn(masterData);
  const at = (minutes: number) => new Date(Date.now() - (180 - minutes) * 60_000);
  const request = buildCreateOrderBody({
    pickupAddress: {
      governanceId: hawalli.governanceId,
      areaId: salmiya().areaId!,
      block: "10",
      street: "Salem Al Mubarak",
      contactName: "Dar Al Oud",
      contactPhone: "22223333",
    },
    pickupDate: at(0),
    paymentMethod: "COD",
    deliveryAddress: {
      governanceId: hawalli.governanceId,
      areaId: salmiya().areaId!,
      block: "3",
      street: "12",
      house: "7",
      contactName: "Hessa Al-Ajmi",
      contactPhone: "99001234",
    },
    packageDetails: { weight: 1, description: "Perfume", value: 36.5 },
    notes: "Shopify order",
  });
  await prisma.delivery.create({
    data: {
      shop,
      orderId: ask.orderId,
      orderName: ask.orderName,
      fulfillmentId: `${ask.orderId.replace("Order", "Fulfillment")}`,
      source: "webhook",
      state: "picked_up",
      environment: "sandbox",
      reference: `SHPFY-shopper-${orderNumber}`,
      request: JSON.stringify(request),
      cashToCollect: "36.500",
      courierOrderId: `C${orderNumber}`,
      courierOrderNumber: `KW${orderNumber}`,
      events: {
        create: [
          { shop, at: at(2), kind: "created", message: "Created at the courier." },
          {
            shop,
            at: at(60),
            kind: "courier_status",
            message: "Courier status: picked up.",
            data: JSON.stringify({ status: "PICKED", state: "picked_up", at: at(60) }),
          },
        ],
      },
    },
  });
}

/**
 * The page as a shopper's browser opens it: a phone (390 px, touch) or a desktop, JavaScript on
 * or off, nothing reached beyond this machine. Every console error and uncaught error is kept:
 * React's hydration errors (#418, #423, #425) are both.
 */
async function openShopperPage(
  path: string,
  { width = 390 as number, javaScript = true, context: extra = {} as BrowserContextOptions } = {},
) {
  const phone = width < 600;
  const context = await browser.newContext({
    viewport: { width, height: phone ? 844 : 900 },
    userAgent: phone ? PHONE_USER_AGENT : HUMAN_USER_AGENT,
    isMobile: phone,
    hasTouch: phone,
    javaScriptEnabled: javaScript,
    ...extra,
  });
  const page = await context.newPage();
  page.on("close", () => void context.close().catch(() => undefined));
  await page.route(
    (url) => url.hostname !== "127.0.0.1" && url.hostname !== "localhost",
    (route) => route.abort(),
  );
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  await waitForTrackingBudget(appUrl, 6);
  const response = await gotoReady(page, `${appUrl}${path}`, { javaScript });
  expect(response?.status(), path).toBe(200);
  // The link is the key: no other site gets it in a Referer, no shared cache keeps the page.
  expect(response?.headers()).toMatchObject({
    "referrer-policy": "same-origin",
    "cache-control": "private, no-store",
  });
  expect(await page.locator("meta[name=robots]").getAttribute("content")).toBe("noindex");
  await page.waitForLoadState("networkidle");
  // With JavaScript, the page is interactive once React has taken over the server's markup.
  if (javaScript && (await page.locator("#fix").count()) > 0)
    await page.locator("[data-enhanced]").waitFor({ state: "attached" });
  return { page, errors };
}

/** Layout shift of the page so far, as Chromium measured it. */
async function paintFigures(page: Page) {
  return page.evaluate(
    () =>
      new Promise<{ cls: number }>((resolve) => {
        let cls = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as (PerformanceEntry & {
            value: number;
            hadRecentInput: boolean;
          })[])
            if (!entry.hadRecentInput) cls += entry.value;
        }).observe({ type: "layout-shift", buffered: true });
        setTimeout(() => resolve({ cls }), 300);
      }),
  );
}

async function checkLanguage(page: Page, language: Language, name: string) {
  expect(await page.getAttribute("html", "lang")).toBe(language);
  expect(await page.getAttribute("html", "dir")).toBe(language === "ar" ? "rtl" : "ltr");
  expect(await overflowingElements(page), name).toEqual([]);
  if (language === "ar") {
    expect(await englishCatalogStrings(page, ENGLISH_PHRASES), name).toEqual([]);
    expect(await latinTextOnArabicPage(page, BRAND_WORDS), name).toEqual([]);
  }
}

const answerOf = async (id: string) => {
  const row = await prisma.shopperAsk.findUniqueOrThrow({ where: { id } });
  return { state: row.state, answer: row.answer ? JSON.parse(row.answer) : null };
};

const WORDS = {
  en: {
    cash: "36.500 KWD",
    ask: "Please check your delivery address",
    save: "Save my address",
    thanks: "Thank you, your new address is saved",
    block: "Enter your block number.",
    pickedUp: "The courier already has your parcel",
  },
  ar: {
    cash: "36.500 د.ك",
    ask: "يرجى التأكد من عنوان التوصيل",
    save: "حفظ عنواني",
    thanks: "شكرًا لك، تم حفظ عنوانك الجديد",
    block: "اكتب رقم القطعة.",
    pickedUp: "شحنتك لدى شركة التوصيل",
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
  // The browser files share one shop: its asks and deliveries would be counted by the next file.
  const orders = { startsWith: "gid://shopify/Order/77" };
  const deliveries = await prisma.delivery.findMany({
    where: { shop, orderId: orders },
    select: { id: true },
  });
  await prisma.deliveryEvent.deleteMany({
    where: { shop, deliveryId: { in: deliveries.map((d) => d.id) } },
  });
  await prisma.delivery.deleteMany({ where: { shop, orderId: orders } });
  await prisma.shopperAsk.deleteMany({ where: { shop, orderId: orders } });
  await prisma.$disconnect();
});

describe("the shopper's page before the parcel leaves", () => {
  for (const language of ["en", "ar"] as const) {
    it(`shows the order, the cash to have ready and the question in ${language}`, async () => {
      const ask = await askedOrder({ language: "ar" });
      for (const width of WIDTHS) {
        // Arabic because the shopper shopped in Arabic; English because they switched.
        const query = language === "en" ? "?lang=en" : "";
        const { page, errors } = await openShopperPage(`/tracking/${ask.token}${query}`, {
          width,
        });
        const name = `shopper-ask-${language}-${width}`;
        await screenshot(page, name);
        await checkLanguage(page, language, name);
        expect(await page.locator(".sp-shop").innerText()).toBe("Dar Al Oud");
        expect(await page.locator("h1").innerText()).toBe(WORDS[language].ask);
        expect(await page.locator(".sp-order bdi").innerText()).toBe(ask.orderName);
        expect(await page.locator(".sp-cash-amount").innerText()).toBe(WORDS[language].cash);
        expect(await page.locator(".sp-addr").innerText()).toContain("•••• •234");
        // Numbers read left to right on the Arabic page too: the masked phone, the shop's.
        expect(await charactersLeftToRight(page, ".sp-addr bdi[dir=ltr]")).toBe("•••••234");
        expect(await charactersLeftToRight(page, ".sp-tel bdi")).toBe("+96522223333");
        expect(await page.locator("body").innerText()).not.toMatch(/Hessa|99001234/);
        expect(await page.locator("a[href^='https://wa.me/96522223333']").count()).toBe(1);
        expect(await page.locator("a[href='tel:+96522223333']").count()).toBe(1);
        // The block is missing: the form to fix it is open, the area already chosen.
        expect(await page.locator("#fix-area").inputValue()).toBe(String(salmiya().areaId));
        expect(await page.locator("#fix-street").inputValue()).toBe("12");
        // The field the courier lacks is marked.
        expect(await page.locator("label[for=fix-block] .sp-needed").innerText()).toContain(
          language === "en" ? "needed" : "مطلوب",
        );
        expect(await page.locator("label[for=fix-street] .sp-needed").count()).toBe(0);
        if (width === 390) {
          // Nothing moves (a layout fact); how fast it paints is bench:shopper's, not a test's.
          const { cls } = await paintFigures(page);
          expect(cls).toBeLessThanOrEqual(0.02);
        }
        if (width === 1280) expect(await seriousAccessibilityViolations(page)).toEqual([]);
        expect(errors, name).toEqual([]);
        await page.close();
      }
    });
  }

  it("takes a fixed address with JavaScript: area found by search, location, cash confirmed", async () => {
    const ask = await askedOrder();
    const { page, errors } = await openShopperPage(`/tracking/${ask.token}`, {
      context: {
        geolocation: { latitude: 29.3375, longitude: 48.0758 },
        permissions: ["geolocation"],
      },
    });
    await page.locator("#fix-search").fill("slmya");
    await page.locator("#fix-search-results button").first().click();
    expect(await page.locator("#fix-area").inputValue()).toBe(String(salmiya().areaId));
    await page.locator("#fix-block").fill("٣");
    await page.locator("#fix-street").fill("12");
    await page.locator("#fix-house").fill("7");
    await page.locator("#fix-notes").fill("Green gate");
    await page.getByRole("button", { name: "استخدم موقعي" }).click();
    await expect.poll(() => page.getByText("تمت إضافة موقعك.").count()).toBe(1);
    await page.locator("#cash-fix").check();
    await page.getByRole("button", { name: WORDS.ar.save }).click();
    await expect.poll(() => page.locator("h1").innerText()).toBe(WORDS.ar.thanks);
    expect(new URL(page.url()).searchParams.get("done")).toBe("1");
    await screenshot(page, "shopper-thanks-ar-390");
    expect(errors).toEqual([]);
    const { state, answer } = await answerOf(ask.id);
    expect(state).toBe("answered");
    expect(answer).toMatchObject({
      kind: "fixed",
      areaId: salmiya().areaId,
      parts: { block: "3", street: "12", house: "7" },
      notes: "Green gate",
      latitude: 29.3375,
      longitude: 48.0758,
      cashConfirmed: true,
    });
    await page.close();
  });

  it("says why the area is in doubt, in the shopper's words and language", async () => {
    const ask = await askedOrder({
      city: "Salwa or Rumaithiya",
      address1: "Block 3, Street 12, House 7",
      reasons: ["area_not_sure", "cash_confirmation"],
    });
    for (const [lang, sentence] of [
      [
        "en",
        "Your address names both Salwa and Rumaithiya. Please check the area below, or correct it.",
      ],
      ["ar", "يذكر عنوانك سلوى والرميثية معًا. يُرجى التحقق من المنطقة أدناه أو تصحيحها."],
    ] as const) {
      const { page, errors } = await openShopperPage(`/tracking/${ask.token}?lang=${lang}`);
      expect(await page.locator(".sp-list li").first().innerText()).toBe(sentence);
      await screenshot(page, `shopper-doubt-${lang}-390`);
      expect(errors).toEqual([]);
      await page.close();
    }
  });

  it("takes the address as it is with one tap when it is complete", async () => {
    const ask = await askedOrder({
      address1: "Block 3, Street 12, House 7",
      reasons: ["area_not_sure", "cash_confirmation"],
    });
    const { page, errors } = await openShopperPage(`/tracking/${ask.token}?lang=en`);
    // Nothing to add: fixing is offered, closed.
    expect(await page.locator("#fix-block").isVisible()).toBe(false);
    await screenshot(page, "shopper-confirm-en-390");
    await page.locator("#cash-confirm").check();
    await page.getByRole("button", { name: "Confirm this address" }).click();
    await expect
      .poll(() => page.locator("h1").innerText())
      .toBe("Thank you, your address is confirmed");
    expect(errors).toEqual([]);
    expect(await answerOf(ask.id)).toMatchObject({
      state: "answered",
      answer: {
        kind: "confirmed",
        areaId: salmiya().areaId,
        parts: { block: "3", street: "12", house: "7" },
        cashConfirmed: true,
      },
    });
    await page.close();
  });

  it("takes a fixed address without JavaScript, from the plain form", async () => {
    const ask = await askedOrder();
    const { page } = await openShopperPage(`/tracking/${ask.token}?lang=en`, {
      javaScript: false,
    });
    await screenshot(page, "shopper-ask-no-script-en-390");
    // What needs JavaScript is not offered; the areas are one list grouped by governorate.
    expect(await page.locator("#fix-search").isVisible()).toBe(false);
    expect(await page.getByRole("button", { name: "Use my location" }).isVisible()).toBe(false);
    expect(await page.locator("#fix-area optgroup").count()).toBeGreaterThan(3);
    await page.locator("#fix-area").selectOption(String(salmiya().areaId));
    await page.locator("#fix-block").fill("3");
    await page.locator("#fix-house").fill("7");
    await page.locator("#cash-fix").check();
    await page.getByRole("button", { name: WORDS.en.save }).click();
    await page.waitForLoadState("load");
    expect(await page.locator("h1").innerText()).toBe(WORDS.en.thanks);
    await screenshot(page, "shopper-thanks-no-script-en-390");
    const { state, answer } = await answerOf(ask.id);
    expect(state).toBe("answered");
    expect(answer).toMatchObject({
      kind: "fixed",
      parts: { block: "3", street: "12", house: "7" },
      cashConfirmed: true,
    });
    await page.close();
  });

  for (const javaScript of [false, true]) {
    it(`says what to fix and keeps what was typed ${javaScript ? "with" : "without"} JavaScript`, async () => {
      const ask = await askedOrder();
      const language: Language = javaScript ? "ar" : "en";
      const { page, errors } = await openShopperPage(`/tracking/${ask.token}?lang=${language}`, {
        javaScript,
      });
      await page.locator("#fix-street").fill("Baghdad Street");
      await page.locator("#fix-notes").fill("Second floor");
      await page.locator("#cash-fix").check();
      await page.getByRole("button", { name: WORDS[language].save }).click();
      await expect.poll(() => page.locator("#fix-block-error").count()).toBe(1);
      expect(await page.locator("#fix-block-error").innerText()).toBe(WORDS[language].block);
      // Said at the top too, where a page sent without JavaScript opens, linked to the field.
      expect(await page.locator("#problem a[href='#fix-block']").innerText()).toBe(
        WORDS[language].block,
      );
      expect(await page.locator("#cash-fix").isChecked()).toBe(true);
      expect(await page.locator("#fix-street").inputValue()).toBe("Baghdad Street");
      expect(await page.locator("#fix-notes").inputValue()).toBe("Second floor");
      expect(await page.locator("#fix-area").inputValue()).toBe(String(salmiya().areaId));
      await screenshot(
        page,
        `shopper-error-${javaScript ? "script" : "no-script"}-${language}-390`,
      );
      if (javaScript) {
        expect(await page.evaluate(() => document.activeElement?.id)).toBe("fix-block");
        // The refusal is a 400, which Chromium notes in the console; nothing else may be there.
        expect(errors.filter((e) => !/status of 400/.test(e))).toEqual([]);
      }
      expect((await answerOf(ask.id)).state).toBe("asked");
      await page.close();
    });
  }
});

describe("the shopper's page once the courier has the parcel", () => {
  for (const language of ["en", "ar"] as const) {
    it(`tracks the parcel in ${language} and offers no change of address`, async () => {
      const ask = await askedOrder({ language: null });
      await pickedUp(ask);
      for (const width of WIDTHS) {
        const { page, errors } = await openShopperPage(`/tracking/${ask.token}?lang=${language}`, {
          width,
        });
        const name = `shopper-picked-up-${language}-${width}`;
        await screenshot(page, name);
        await checkLanguage(page, language, name);
        expect(await page.locator("form").count()).toBe(0);
        expect(await page.locator(".sp-refusal").innerText()).toContain(WORDS[language].pickedUp);
        expect(await page.locator("li[aria-current=step] .sp-step").innerText()).toBe(
          language === "en" ? "Picked up from the shop" : "استُلمت من المتجر",
        );
        expect(await page.locator(".sp-number bdi").innerText()).toBe(`KW${orderNumber}`);
        expect(errors, name).toEqual([]);
        await page.close();
      }
    });
  }
});
