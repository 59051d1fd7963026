import path from "node:path";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { buildCreateOrderBody } from "../../app/courier/requests";
import type { ShopperAnswer } from "../../app/domain/shopper-ask";
import { leafKeys, type Catalog } from "../../app/i18n/catalog-check";
import { resources } from "../../app/i18n/config";
import { launchBrowser, newAdminPage, screenshot, gotoReady } from "../support/browser";
import {
  appDatabase,
  BROWSER_SHOP,
  BROWSER_SHOP_NAME,
  connectCourier,
  salmiyaIn,
} from "../support/browser-shop";
import {
  charactersLeftToRight,
  englishCatalogStrings,
  latinTextOnArabicPage,
  overflowingElements,
  seriousAccessibilityViolations,
  KEPT_IN_LATIN,
} from "../support/page-checks";
import { ARTIFACTS_DIR } from "../support/paths";

/**
 * The merchant's side of asking customers (issue 26) as a merchant sees it, in English and Arabic
 * at a desktop width and a phone's: Customer answers, Settings' "Ask customers" and the delivery
 * page's "Customer's answer". Screenshots under test-results/browser; nothing wider than its
 * card, no serious accessibility violation, no English left on an Arabic page.
 */
const appUrl = inject("appUrl");
const shop = BROWSER_SHOP;
const prisma = appDatabase();
const WIDTHS = [1280, 390] as const;
const LANGUAGES = ["en", "ar"] as const;
// A language picker names each language in its own words ("English"), as the admin does.
const BRAND_WORDS = [...KEPT_IN_LATIN, "KWD"];
const HOUR = 3_600_000;
const ORDER_PREFIX = "gid://shopify/Order/91";

const catalogs = resources as Record<string, Record<string, Catalog>>;
const ENGLISH_PHRASES = Object.entries(catalogs.en!).flatMap(([namespace, catalog]) => {
  const arabic = leafKeys(catalogs.ar?.[namespace] ?? {});
  return [...leafKeys(catalog)]
    .filter(([key, value]) => arabic.get(key) !== value && !value.includes("{{"))
    .map(([, value]) => value)
    .filter((value) => value.length >= 6 && /[A-Za-z]{3}/.test(value));
});

let browser: Browser;
const pageErrors: string[] = [];
const ids = { delivery: "", release: "" };

const SALMIYA: Omit<ShopperAnswer, "kind" | "governanceId" | "areaId"> = {
  areaName: { en: "Salmiya", ar: "السالمية" },
  provinceCode: "KW-HA",
  parts: {
    block: "4",
    street: "12",
    avenue: null,
    house: "7",
    building: null,
    floor: null,
    apartment: null,
    paci: null,
  },
  notes: "Green door, second floor",
  phone: "+96599001234",
  latitude: 29.3375,
  longitude: 48.0758,
  cashConfirmed: false,
};

const NAMES = [
  ["Hessa", "Al-Ajmi"],
  ["محمد", "الكندري"],
  ["Mariam", "Haddad"],
  ["عبدالله", "العنزي"],
] as const;

/** What orders/create brought, as the ask keeps it. */
function snapshot([firstName, lastName]: readonly [string, string]) {
  return {
    address: {
      firstName,
      lastName,
      address1: "near the co-op, behind the mosque",
      address2: null,
      city: "Salmiya",
      provinceCode: "KW-HA",
      zip: null,
      countryCode: "KW",
      phone: "+96599001234",
    },
    phone: "+96599001234",
    items: [{ title: "Abaya", quantity: 1 }],
    cashToCollectFils: 24_500,
    currency: "KWD",
  };
}

async function seed() {
  const masterData = await connectCourier(prisma);
  const { hawalli, salmiya } = salmiyaIn(masterData);
  await prisma.shopperAsk.deleteMany({ where: { shop, orderId: { startsWith: ORDER_PREFIX } } });
  await prisma.delivery.deleteMany({ where: { shop, orderId: { startsWith: ORDER_PREFIX } } });
  const place = { governanceId: hawalli.governanceId, areaId: salmiya.areaId! };
  const fixed: ShopperAnswer = { kind: "fixed", ...place, ...SALMIYA };
  const now = Date.now();
  const asks: {
    n: number;
    state: string;
    reasons: string[];
    answer?: ShopperAnswer;
    source?: string;
  }[] = [
    { n: 1, state: "asked", reasons: ["block", "area_not_sure"] },
    { n: 2, state: "asked", reasons: ["cash_confirmation"] },
    { n: 3, state: "asked", reasons: ["area_not_recognised", "block_and_street_or_house"] },
    { n: 4, state: "answered", reasons: ["block"], answer: fixed },
    {
      n: 5,
      state: "answered",
      reasons: ["cash_confirmation"],
      answer: { ...fixed, kind: "confirmed", cashConfirmed: true, latitude: null, longitude: null },
    },
    {
      n: 6,
      state: "answered",
      reasons: ["street_or_house"],
      answer: { ...fixed, notes: null },
      source: "merchant",
    },
    { n: 7, state: "expired", reasons: ["street_or_house"] },
    { n: 8, state: "not_held", reasons: ["area_not_at_courier"] },
    { n: 9, state: "released", reasons: ["block"] },
    { n: 10, state: "not_needed", reasons: [] },
  ];
  for (const ask of asks) {
    const row = await prisma.shopperAsk.create({
      data: {
        shop,
        orderId: `${ORDER_PREFIX}${String(ask.n).padStart(2, "0")}`,
        orderName: `#91${String(ask.n).padStart(2, "0")}`,
        token: `91${String(ask.n).padStart(2, "0")}`.padEnd(32, "c"),
        state: ask.state,
        questions: JSON.stringify(
          ask.reasons.includes("cash_confirmation") ? ["cash"] : ["address"],
        ),
        reasons: JSON.stringify(ask.reasons),
        orderSnapshot: JSON.stringify(snapshot(NAMES[ask.n % NAMES.length]!)),
        // No hold to release in the stand-in: "Release now" is done at once by the loop.
        holds: JSON.stringify([]),
        askedAt: ask.state === "not_needed" ? null : new Date(now - ask.n * HOUR),
        answerBy: ask.state === "not_needed" ? null : new Date(now + (24 - ask.n) * HOUR),
        linkExpiresAt: new Date(now + 30 * 24 * HOUR),
        answer: ask.answer ? JSON.stringify(ask.answer) : null,
        answerSource: ask.answer ? (ask.source ?? "shopper") : null,
        answeredAt: ask.answer ? new Date(now - ask.n * HOUR + 20 * 60_000) : null,
        createdAt: new Date(now - ask.n * HOUR),
      },
    });
    if (ask.n === 3) ids.release = row.id;
  }
  const request = buildCreateOrderBody({
    pickupAddress: {
      ...place,
      block: "10",
      street: "Salem Al Mubarak",
      contactName: "Dar Al Oud",
      contactPhone: "22223333",
    },
    pickupDate: new Date(now + HOUR),
    paymentMethod: "COD",
    deliveryAddress: {
      ...place,
      block: "4",
      street: "12",
      house: "7",
      contactName: "Hessa Al-Ajmi",
      contactPhone: "99001234",
      notes: "Green door, second floor",
    },
    packageDetails: { weight: 1, description: "1 × Abaya", value: 24.5 },
    notes: "SHPFY-answers-9104 · Shopify order #9104",
  });
  const delivery = await prisma.delivery.create({
    data: {
      shop,
      orderId: `${ORDER_PREFIX}04`,
      orderName: "#9104",
      fulfillmentId: "gid://shopify/Fulfillment/9104",
      source: "webhook",
      state: "created",
      environment: "sandbox",
      reference: "SHPFY-answers-9104",
      request: JSON.stringify(request),
      cashToCollect: "24.500",
      courierOrderId: "C9104",
      courierOrderNumber: "KW000009104",
      events: {
        create: [
          {
            shop,
            at: new Date(now - 3 * HOUR),
            kind: "received",
            message: "Fulfillment received from Shopify.",
          },
        ],
      },
    },
  });
  ids.delivery = delivery.id;
}

async function open(path: string, language: "en" | "ar", width: number): Promise<Page> {
  const { getJwt, API_KEY, API_SECRET_KEY } = await import("@shopify/shopify-api/test-helpers");
  const { token } = await getJwt(BROWSER_SHOP_NAME, API_KEY, API_SECRET_KEY);
  const url = new URL(path, appUrl);
  url.searchParams.set("embedded", "1");
  url.searchParams.set("shop", shop);
  url.searchParams.set(
    "host",
    Buffer.from(`admin.shopify.com/store/${BROWSER_SHOP_NAME}`).toString("base64"),
  );
  url.searchParams.set("id_token", token);
  url.searchParams.set("locale", language === "ar" ? "ar" : "en-US");
  const page = await newAdminPage(browser, width < 600 ? "phone" : "desktop");
  if (width >= 600) await page.setViewportSize({ width, height: 900 });
  page.on("pageerror", (error) => pageErrors.push(error.message));
  const response = await gotoReady(page, url.href);
  expect(response?.status()).toBe(200);
  await page.waitForLoadState("networkidle");
  await page.waitForTimeout(300);
  return page;
}

/** One part of a page, kept beside the whole page's screenshot. */
async function shoot(part: Locator, name: string) {
  await part.screenshot({ path: path.join(ARTIFACTS_DIR, "browser", `${name}.png`) });
}

async function check(page: Page, name: string, language: "en" | "ar", width: number) {
  expect(await page.getAttribute("html", "dir")).toBe(language === "ar" ? "rtl" : "ltr");
  await screenshot(page, `${name}-${language}-${width}`);
  expect(await overflowingElements(page), `${name} ${language} ${width}`).toEqual([]);
  if (language === "ar") {
    expect(await englishCatalogStrings(page, ENGLISH_PHRASES), name).toEqual([]);
    expect(await latinTextOnArabicPage(page, BRAND_WORDS), name).toEqual([]);
  }
  if (width === 1280) expect(await seriousAccessibilityViolations(page), name).toEqual([]);
}

beforeAll(async () => {
  browser = await launchBrowser();
  await seed();
});

afterAll(async () => {
  await prisma.shopperAsk.deleteMany({ where: { shop, orderId: { startsWith: ORDER_PREFIX } } });
  await prisma.deliveryEvent.deleteMany({ where: { shop, deliveryId: ids.delivery } });
  await prisma.delivery.deleteMany({ where: { shop, orderId: { startsWith: ORDER_PREFIX } } });
  await browser?.close();
  await prisma.$disconnect();
});

describe("customer answers in Chromium", () => {
  for (const language of LANGUAGES) {
    for (const width of WIDTHS) {
      it(`lists the orders waiting for their customer in ${language} at ${width} px`, async () => {
        const page = await open("/app/customer-answers", language, width);
        await expect.poll(() => page.getByText("#9101").count()).toBe(1);
        expect(await page.getByText("#9104").count()).toBe(0);
        const text = await page.evaluate(() => document.body.innerText);
        if (language === "en") {
          expect(text).toContain("Waiting for the customer");
          expect(text).toContain("No block · Area not sure");
          expect(text).toContain("Cash on delivery confirmation");
          expect(text).toMatch(/Answer by /);
        } else {
          expect(text).toContain("بانتظار رد العميل");
          expect(text).toContain("بلا رقم قطعة · المنطقة غير مؤكدة");
        }
        // Click-to-chat (issue 27): the merchant's WhatsApp, the message in the customer's language.
        const whatsapp = page.getByRole("link", {
          name:
            language === "en"
              ? "Send order #9101's customer the link on WhatsApp"
              : "إرسال الرابط لعميل الطلب #9101 عبر واتساب",
        });
        expect(await whatsapp.getAttribute("href")).toMatch(
          /^https:\/\/wa\.me\/96599001234\?text=.*9101c+$/,
        );
        await check(page, "customer-answers-waiting", language, width);
        await page.close();
      });

      it(`shows every answer and what it said in ${language} at ${width} px`, async () => {
        const page = await open("/app/customer-answers?tab=all", language, width);
        await expect.poll(() => page.getByText("#9108").count()).toBe(1);
        // An order that needed no question shows only when asked for.
        expect(await page.getByText("#9110").count()).toBe(0);
        const text = (await page.evaluate(() => document.body.innerText)).replace(/\s+/g, " ");
        if (language === "en") {
          expect(text).toContain("Fixed to Salmiya, Block 4, Street 12, House 7");
          expect(text).toContain("Confirmed the address · cash on delivery confirmed");
          expect(text).toContain("No answer – released");
          expect(text).toContain("by your staff");
        } else {
          expect(text).toContain("صحّحه إلى السالمية، قطعة 4، شارع 12، منزل 7");
          expect(text).toContain("لم يرد – أُلغي التعليق");
        }
        expect(
          await page
            .getByRole("link", { name: language === "en" ? "Open delivery" : "فتح التوصيلة" })
            .count(),
        ).toBe(1);
        await check(page, "customer-answers-all", language, width);
        await page.close();
      });

      it(`shows the customer's answer on the delivery's page in ${language} at ${width} px`, async () => {
        const page = await open(`/app/deliveries/${ids.delivery}`, language, width);
        const title = language === "en" ? "Customer's answer" : "رد العميل";
        await expect.poll(() => page.getByRole("heading", { name: title }).count()).toBe(1);
        const text = (await page.evaluate(() => document.body.innerText)).replace(/\s+/g, " ");
        // The phone the customer gave is shown masked (the order's own is on the Customer card).
        expect(text).toContain("•••• •234");
        expect(await charactersLeftToRight(page, "[data-masked-phone]")).toBe("•••••234");
        expect(text).toContain("Green door, second floor");
        const map = page.getByRole("link", {
          name: language === "en" ? "Open in Google Maps" : "فتح على الخريطة",
        });
        expect(await map.getAttribute("href")).toContain("query=29.3375,48.0758");
        const link = page.getByLabel(language === "en" ? "Customer's link" : "رابط العميل", {
          exact: true,
        });
        expect(await link.inputValue()).toMatch(/\/tracking\/9104c+$/);
        // The card itself, for looking at; the whole page is kept by check().
        await shoot(
          page.locator(".Polaris-ShadowBevel", { has: page.getByRole("heading", { name: title }) }),
          `delivery-customer-answer-card-${language}-${width}`,
        );
        await check(page, "delivery-customer-answer", language, width);
        await page.close();
      });

      it(`counts on Home what waits for customers in ${language} at ${width} px`, async () => {
        const page = await open("/app", language, width);
        const title = language === "en" ? "Customer answers" : "ردود العملاء";
        const heading = page.getByRole("heading", { name: title, exact: true });
        await expect.poll(() => heading.count()).toBe(1);
        const waiting = page.getByRole("link", {
          name: new RegExp(language === "en" ? "^Waiting for customers" : "^بانتظار رد العملاء"),
        });
        expect(await waiting.getAttribute("href")).toContain("/app/customer-answers?tab=waiting");
        expect((await waiting.innerText()).replace(/\D/g, "")).toBe("3");
        await shoot(
          page.locator("div", { has: heading }).filter({ has: waiting }).last(),
          `home-customer-answers-${language}-${width}`,
        );
        await check(page, "home-customer-answers-page", language, width);
        await page.close();
      });

      it(`says on Send to courier which orders wait for customers in ${language} at ${width} px`, async () => {
        const page = await open("/app/send", language, width);
        const title =
          language === "en"
            ? "Orders held for their customers' answers: 3"
            : "طلبات معلّقة بانتظار رد العملاء: 3";
        const banner = page.locator(".Polaris-Banner", { hasText: title });
        await expect.poll(() => banner.count()).toBe(1);
        expect(await banner.getByRole("link").getAttribute("href")).toContain(
          "/app/customer-answers",
        );
        await shoot(banner, `send-waiting-for-customers-${language}-${width}`);
        await check(page, "send-waiting-for-customers-page", language, width);
        await page.close();
      });

      it(`shows Settings' Ask customers in ${language} at ${width} px`, async () => {
        const page = await open("/app/settings", language, width);
        const title = language === "en" ? "Ask customers" : "سؤال العملاء";
        const heading = page.getByRole("heading", { name: title, exact: true });
        await expect.poll(() => heading.count()).toBe(1);
        expect(await page.locator('input[name="askWindowHours"]').inputValue()).toBe("24");
        await heading.scrollIntoViewIfNeeded();
        const section = page
          .locator("div", { has: heading })
          .filter({ has: page.locator('input[name="askWindowHours"]') })
          .last();
        await shoot(section, `settings-ask-customers-${language}-${width}`);
        await check(page, "settings-ask-customers-page", language, width);
        await page.close();
      });
    }
  }

  it("explains the feature and links to Settings while no customer has been asked", async () => {
    // This shop's asks set aside for the test: the page as a shop that has asked no one sees it.
    const aside = "set-aside.myshopify.com";
    const mine = { orderId: { startsWith: ORDER_PREFIX } };
    await prisma.shopperAsk.updateMany({ where: { shop, ...mine }, data: { shop: aside } });
    try {
      for (const [language, width] of [
        ["en", 1280],
        ["ar", 390],
      ] as const) {
        const page = await open("/app/customer-answers", language, width);
        const title = language === "en" ? "No customer has been asked yet" : "لم يُسأل أي عميل بعد";
        await expect.poll(() => page.getByText(title).count()).toBe(1);
        const settings = page.getByRole("link", {
          name: language === "en" ? "Open Settings" : "فتح الإعدادات",
        });
        expect(await settings.getAttribute("href")).toContain("/app/settings");
        await check(page, "customer-answers-empty", language, width);
        await page.close();
      }
    } finally {
      await prisma.shopperAsk.updateMany({ where: { shop: aside, ...mine }, data: { shop } });
    }
  });

  it("copies a customer's link and releases an order from the page", async () => {
    const page = await open("/app/customer-answers", "en", 1280);
    await expect.poll(() => page.getByText("#9103").count()).toBe(1);
    await page.getByRole("button", { name: "Copy the customer's link for order #9103" }).click();
    await expect
      .poll(() => page.locator("[data-standin-toast]").getByText("Link copied").count())
      .toBe(1);
    await page.getByRole("button", { name: "Release order #9103 now" }).click();
    await expect
      .poll(() =>
        page
          .locator("[data-standin-toast]")
          .getByText(/^Released/)
          .count(),
      )
      .toBe(1);
    // The order left the Waiting tab; the loop released it (it held nothing in the stand-in).
    await expect.poll(() => page.getByText("#9103").count()).toBe(0);
    await expect
      .poll(
        async () =>
          (await prisma.shopperAsk.findUniqueOrThrow({ where: { id: ids.release } })).state,
      )
      .toBe("released");
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  it("says what to fix in the time to answer, and keeps the other edits", async () => {
    const page = await open("/app/settings", "en", 1280);
    const window = page.locator('input[name="askWindowHours"]');
    await expect.poll(() => window.count()).toBe(1);
    await page.getByLabel("Also ask every cash-on-delivery customer to confirm").check();
    await window.fill("0");
    await expect.poll(() => page.locator("ui-save-bar[data-shown]").count()).toBe(1);
    await page.locator("ui-save-bar button[variant=primary]").click();
    const said = "Time to answer must be from 1 to 168 hours (a week).";
    // Said above the sections and on the field itself.
    await expect.poll(() => page.getByText(said).count()).toBe(2);
    expect(await window.inputValue()).toBe("0");
    expect(
      await page.getByLabel("Also ask every cash-on-delivery customer to confirm").isChecked(),
    ).toBe(true);
    await screenshot(page, "settings-ask-customers-error-en-1280");
    const settings = await prisma.shopSettings.findUniqueOrThrow({ where: { shop } });
    expect(settings).toMatchObject({ askCashConfirmation: false, askWindowHours: 24 });
    await window.fill("48");
    await page.locator("ui-save-bar button[variant=primary]").click();
    await expect
      .poll(() => page.locator("[data-standin-toast]").getByText("Settings saved").count())
      .toBe(1);
    expect(await prisma.shopSettings.findUniqueOrThrow({ where: { shop } })).toMatchObject({
      askCashConfirmation: true,
      askWindowHours: 48,
    });
    // Back as other files expect the shop: asking on, cash not asked, 24 hours.
    await prisma.shopSettings.update({
      where: { shop },
      data: { askCashConfirmation: false, askWindowHours: 24 },
    });
    expect(pageErrors).toEqual([]);
    await page.close();
  });
});
