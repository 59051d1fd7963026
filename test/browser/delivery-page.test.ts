import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { buildCreateOrderBody } from "../../app/courier/requests";
import { leafKeys, type Catalog } from "../../app/i18n/catalog-check";
import { resources } from "../../app/i18n/config";
import { launchBrowser, openEmbeddedPage, screenshot } from "../support/browser";
import {
  appDatabase,
  BROWSER_SHOP,
  BROWSER_SHOP_NAME,
  connectCourier,
  salmiyaIn,
} from "../support/browser-shop";
import {
  englishCatalogStrings,
  latinTextOnArabicPage,
  overflowingElements,
  seriousAccessibilityViolations,
  KEPT_IN_LATIN,
} from "../support/page-checks";

/**
 * A delivery's page and its "Fix and send again" page as a merchant sees them, in English and
 * Arabic at a desktop width and a phone's: screenshots kept under test-results/browser, nothing
 * wider than its card, no serious accessibility violation, no code words, no English in Arabic.
 */

const appUrl = inject("appUrl");
const SHOP_NAME = BROWSER_SHOP_NAME;
const shop = BROWSER_SHOP;
const prisma = appDatabase();
const WIDTHS = [1280, 390] as const;
const LANGUAGES = ["en", "ar"] as const;
const BRAND_WORDS = [...KEPT_IN_LATIN];
const PROTOCOL_WORDS =
  /HMAC|ApiKey|Authorization|[Gg]overnance|picked_up|out_for_delivery|needs_address|needs_review|courier_status|\{"|timeline\.|fix\.errors/;

const catalogs = resources as Record<string, Record<string, Catalog>>;
const ENGLISH_PHRASES = Object.entries(catalogs.en!).flatMap(([namespace, catalog]) => {
  const arabic = leafKeys(catalogs.ar?.[namespace] ?? {});
  return [...leafKeys(catalog)]
    .filter(([key, value]) => arabic.get(key) !== value && !value.includes("{{"))
    .map(([, value]) => value)
    .filter((value) => value.length >= 6 && /[A-Za-z]{3}/.test(value));
});

let browser: Browser;
const ids = { rejected: "", onTheWay: "", waiting: "" };

async function openAdmin(path: string, language: "en" | "ar", width: number): Promise<Page> {
  const url = new URL(path, "http://x");
  url.searchParams.set("locale", language === "ar" ? "ar" : "en-US");
  const errors: string[] = [];
  const page = await openEmbeddedPage(
    browser,
    appUrl,
    SHOP_NAME,
    url.pathname + url.search,
    errors,
  );
  pageErrors.set(page, errors);
  await page.setViewportSize({ width, height: 900 });
  await page.waitForLoadState("networkidle");
  return page;
}

/** Each page's uncaught and console errors (a hydration mismatch is one), from its opening on. */
const pageErrors = new WeakMap<Page, string[]>();

async function checkPage(page: Page, name: string, language: "en" | "ar", width: number) {
  expect(pageErrors.get(page), `${name} ${language} ${width}: errors in the browser`).toEqual([]);
  expect(await page.getAttribute("html", "lang")).toBe(language);
  expect(await page.getAttribute("html", "dir")).toBe(language === "ar" ? "rtl" : "ltr");
  await screenshot(page, `delivery-${name}-${language}-${width}`);
  expect(await overflowingElements(page), `${name} ${language} ${width}`).toEqual([]);
  const text = await page.evaluate(() => document.body.innerText);
  expect(text, name).not.toMatch(PROTOCOL_WORDS);
  // "Back" points the way the page reads: left in English, right in Arabic.
  const arrow = page.locator(".Polaris-Page-Header__BreadcrumbWrapper svg").first();
  if ((await arrow.count()) > 0) {
    const transform = await arrow.evaluate((el) => getComputedStyle(el).transform);
    expect(transform, `${name} back arrow`).toBe(
      language === "ar" ? "matrix(-1, 0, 0, 1, 0, 0)" : "none",
    );
  }
  if (language === "ar") {
    expect(await englishCatalogStrings(page, ENGLISH_PHRASES), name).toEqual([]);
    expect(await latinTextOnArabicPage(page, BRAND_WORDS), name).toEqual([]);
  }
  if (width === 1280) expect(await seriousAccessibilityViolations(page), name).toEqual([]);
}

beforeAll(async () => {
  browser = await launchBrowser();
  const masterData = await connectCourier(prisma, { courierCheckedAt: new Date() });
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
    pickupDate: new Date(Date.now() + 3_600_000),
    paymentMethod: "COD",
    deliveryAddress: {
      governanceId: hawalli.governanceId,
      areaId: salmiya.areaId!,
      street: "Baghdad Street",
      house: "14",
      contactName: "Fatima Al-Rashidi",
      contactPhone: "99991234",
      notes: "near the co-op, behind the mosque",
    },
    packageDetails: { weight: 1.2, description: "2 × Abaya, 1 × Oud perfume 100 ml", value: 36.5 },
    notes: "SHPFY-page-8801 · Shopify order #8801",
  });
  const at = (minutes: number) => new Date(Date.now() - (180 - minutes) * 60_000);
  const match = {
    input: {
      address1: "near the co-op, behind the mosque, Baghdad Street house 14",
      address2: null,
      city: "Salmiya",
      provinceCode: "KW-HA",
      zip: null,
    },
    area: "Salmiya",
    governorate: "Hawalli",
    confidence: 0.93,
    confident: true,
    reasons: [
      'area Salmiya («السالمية») from "Salmiya" in city (known spelling)',
      "province KW-HA agrees",
    ],
    parts: { street: "Baghdad Street", house: "14" },
    courier: { governanceId: hawalli.governanceId, areaId: salmiya.areaId },
  };
  await prisma.delivery.deleteMany({ where: { shop, reference: { startsWith: "SHPFY-page-" } } });
  const rejected = await prisma.delivery.create({
    data: {
      shop,
      orderId: "gid://shopify/Order/8801",
      orderName: "#8801",
      fulfillmentId: "gid://shopify/Fulfillment/8801",
      source: "webhook",
      state: "rejected",
      stateReason: "Block is required for this area.",
      environment: "sandbox",
      reference: "SHPFY-page-8801",
      request: JSON.stringify(request),
      cashToCollect: "36.500",
      addressMatch: JSON.stringify(match),
      attempts: 1,
      events: {
        create: [
          { shop, at: at(0), kind: "received", message: "Fulfillment received from Shopify." },
          {
            shop,
            at: at(1),
            kind: "ready",
            message: "Request built; sending to the courier.",
            data: JSON.stringify({ text: { key: "ready_cod", params: { amount: "36.500" } } }),
          },
          { shop, at: at(2), kind: "sending", message: "Sending." },
          {
            shop,
            at: at(3),
            kind: "rejected",
            message: "Block is required for this area.",
            data: JSON.stringify({
              courier: {
                error: "CourierValidationError",
                status: 400,
                message: "Block is required for this area.",
              },
            }),
          },
        ],
      },
    },
  });
  const onTheWay = await prisma.delivery.create({
    data: {
      shop,
      orderId: "gid://shopify/Order/8802",
      orderName: "#8802",
      fulfillmentId: "gid://shopify/Fulfillment/8802",
      source: "webhook",
      state: "out_for_delivery",
      environment: "sandbox",
      reference: "SHPFY-page-8802",
      request: JSON.stringify({ ...request, paymentMethod: "PREPAID" }),
      addressMatch: JSON.stringify({ ...match, fixedByMerchant: true }),
      courierOrderId: "C8802",
      courierOrderNumber: "KW880002",
      courierStatus: "OUT",
      courierStatusAt: at(150),
      trackingUrl: `${appUrl}/tracking/not-a-real-link`,
      shopifyEventStatus: "OUT_FOR_DELIVERY",
      trackedAt: at(170),
      events: {
        create: [
          { shop, at: at(0), kind: "received", message: "Fulfillment received from Shopify." },
          {
            shop,
            at: at(2),
            kind: "created",
            message: "Created at the courier.",
            data: JSON.stringify({ courier: { orderId: "C8802", orderNumber: "KW880002" } }),
          },
          { shop, at: at(3), kind: "tracking", message: "Tracking number added." },
          {
            // The courier's first status, which means the state the app's own entry just said.
            shop,
            at: at(5),
            kind: "courier_status",
            message: "Courier status: new.",
            data: JSON.stringify({ status: "NEW", name: "جديد", state: "created" }),
          },
          {
            shop,
            at: at(60),
            kind: "courier_status",
            message: "Courier status: picked up.",
            data: JSON.stringify({ status: "PICKED", name: "تم الاستلام", state: "picked_up" }),
          },
          {
            shop,
            at: at(150),
            kind: "courier_status",
            message: "Courier status: out.",
            data: JSON.stringify({ status: "OUT", name: "مع السائق", state: "out_for_delivery" }),
          },
        ],
      },
    },
  });
  const waiting = await prisma.delivery.create({
    data: {
      shop,
      orderId: "gid://shopify/Order/8803",
      orderName: "#8803",
      fulfillmentId: "gid://shopify/Fulfillment/8803",
      source: "webhook",
      state: "needs_address",
      stateReason:
        "The address looks like Salmiya, but the app is not sure enough to send it without you.",
      environment: "sandbox",
      reference: "SHPFY-page-8803",
      addressMatch: JSON.stringify({
        ...match,
        confident: false,
        confidence: 0.55,
        courier: null,
        input: { ...match.input, city: "Slmya" },
      }),
      events: {
        create: [
          { shop, at: at(0), kind: "received", message: "Fulfillment received from Shopify." },
          {
            shop,
            at: at(1),
            kind: "needs_address",
            message:
              "The address looks like Salmiya, but the app is not sure enough to send it without you.",
            data: JSON.stringify({ text: { key: "area_not_sure", params: { area: "Salmiya" } } }),
          },
        ],
      },
    },
  });
  Object.assign(ids, { rejected: rejected.id, onTheWay: onTheWay.id, waiting: waiting.id });
});

afterAll(async () => {
  await prisma.delivery.deleteMany({ where: { shop, reference: { startsWith: "SHPFY-page-" } } });
  await prisma.staffLanguage.deleteMany({ where: { shop } });
  await browser?.close();
  await prisma.$disconnect();
});

describe("a delivery's page in Chromium", () => {
  for (const language of LANGUAGES) {
    for (const width of WIDTHS) {
      it(`shows a rejected delivery in ${language} at ${width} px, in words`, async () => {
        const page = await openAdmin(`/app/deliveries/${ids.rejected}`, language, width);
        await checkPage(page, "rejected", language, width);
        // innerText keeps the no-break space Intl puts between KWD and the amount.
        const text = (await page.evaluate(() => document.body.innerText)).replace(/\s+/g, " ");
        if (language === "en") {
          expect(text).toContain("The courier refused this delivery.");
          // The courier's refusal, part by part in the page's words; its own words only in the
          // technical details.
          expect(text).toContain("What the courier asks for: The block number");
          expect(text).not.toContain("Block is required for this area.");
          expect(text).toContain("KWD 36.500");
          expect(text).toContain("Salmiya");
          expect(text).toContain("The app recognised Salmiya (93% sure)");
          expect(text).toContain("The request was built: the driver collects KWD 36.500");
        } else {
          expect(text).toContain("رفضت شركة التوصيل هذه التوصيلة.");
          expect(text).toContain("ما تطلبه شركة التوصيل: رقم القطعة");
          expect(text).not.toContain("Block is required");
          expect(text).toContain("السالمية");
          expect(text).toMatch(/36\.500/);
        }
        // The raw request only inside the collapsed technical details.
        expect(text).not.toContain("paymentMethod");
        await page
          .getByRole("button", {
            name: language === "en" ? "Show technical details" : "عرض التفاصيل الفنية",
          })
          .click();
        await expect
          .poll(() => page.getByText('"paymentMethod"', { exact: false }).count())
          .toBe(1);
        expect(await page.locator("[data-technical-record]").innerText()).toContain(
          "Block is required for this area.",
        );
        await screenshot(page, `delivery-rejected-technical-${language}-${width}`);
        expect(await overflowingElements(page), `technical ${language} ${width}`).toEqual([]);
        // Fix and send again is one click away.
        expect(
          await page
            .getByRole("link", {
              name: language === "en" ? "Fix and send again" : "تصحيح وإعادة الإرسال",
            })
            .count(),
        ).toBe(1);
        await page.close();
      });
    }

    for (const width of WIDTHS) {
      it(`shows a delivery on its way in ${language} at ${width} px: the courier card and the timeline in sentences`, async () => {
        const page = await openAdmin(`/app/deliveries/${ids.onTheWay}`, language, width);
        await checkPage(page, "on-the-way", language, width);
        const text = await page.evaluate(() => document.body.innerText);
        expect(text).toContain("KW880002");
        // Each step of the timeline reads once: "Created at the courier" is not said twice.
        const timeline = page.locator("li", {
          hasText: language === "en" ? "Created at the courier" : "أُنشئت لدى شركة التوصيل",
        });
        expect(await timeline.count()).toBe(1);
        // The customer's phone: grouped, left to right on both pages, one tap to call.
        const phone = page.locator('a[href="tel:+96599991234"]');
        expect(await phone.count()).toBe(1);
        expect(await phone.innerText()).toBe("+965 9999 1234");
        // Its label is one click away (on a phone, in the header's "…" menu).
        if (width === 1280) {
          const label = page.getByRole("link", {
            name: language === "en" ? "Print label" : "طباعة الملصق",
          });
          expect(await label.getAttribute("href")).toContain(
            `/app/labels?deliveryIds=${ids.onTheWay}`,
          );
        }
        // Out for delivery: Cancel says plainly that the courier will most likely refuse.
        await page
          .getByRole("button", { name: language === "en" ? "Cancel delivery" : "ألغِ التوصيل" })
          .click();
        await expect
          .poll(() =>
            page
              .getByText(
                language === "en"
                  ? "The driver already has this parcel, so the courier will most likely refuse"
                  : "السائق يحمل هذا الطرد الآن",
                { exact: false },
              )
              .count(),
          )
          .toBe(1);
        await page.keyboard.press("Escape");
        if (language === "en") {
          expect(text).toContain("The courier reported: Picked up.");
          expect(text).toContain("The courier reported: Out for delivery.");
          expect(text).toContain("Created at the courier as order KW880002.");
          expect(text).toContain("You chose this area yourself.");
        } else {
          expect(text).toContain("أفادت شركة التوصيل: خرجت للتوصيل.");
        }
        await page.close();
      });
    }
  }

  it("gives the title the same badge colour as the list's for the same state", async () => {
    for (const [id, order] of [
      [ids.rejected, "#8801"],
      [ids.onTheWay, "#8802"],
    ] as const) {
      const page = await openAdmin(`/app/deliveries/${id}`, "en", 1280);
      const title = await page.locator("[data-state-badge] .Polaris-Badge").getAttribute("class");
      await page.close();
      const list = await openAdmin(`/app/deliveries?q=${encodeURIComponent(order)}`, "en", 1280);
      const row = list.locator("tr", { hasText: order }).locator(".Polaris-Badge").first();
      await expect.poll(() => row.count()).toBe(1);
      expect(await row.getAttribute("class")).toBe(title);
      await list.close();
    }
  });

  it("links a delivery waiting for its address to the address review", async () => {
    const page = await openAdmin(`/app/deliveries/${ids.waiting}`, "en", 1280);
    const review = page.getByRole("link", { name: "Place the address" });
    expect(await review.getAttribute("href")).toMatch(/\/app\/address-review/);
    const text = await page.evaluate(() => document.body.innerText);
    expect(text).toContain(
      "The address looks like Salmiya, but the app is not sure enough to send it without you.",
    );
    expect(text).toContain("only 55% sure");
    await page.close();
  });
});

describe("fix and send again in Chromium", () => {
  for (const language of LANGUAGES) {
    for (const width of WIDTHS) {
      it(`corrects a rejected delivery in ${language} at ${width} px, keeping what was typed on an error`, async () => {
        const page = await openAdmin(`/app/deliveries/${ids.rejected}/fix`, language, width);
        await checkPage(page, "fix", language, width);
        // The field the courier refused is marked with what it asks for, before anything is sent.
        const block = page.getByRole("textbox", { name: language === "en" ? "Block" : "القطعة" });
        expect(await block.getAttribute("aria-invalid")).toBe("true");
        expect(
          await page
            .getByText(
              language === "en"
                ? "The block number: it is missing or the courier does not accept it."
                : "رقم القطعة: غير موجود أو لا تقبله شركة التوصيل.",
            )
            .count(),
        ).toBeGreaterThan(0);
        const area = page.getByRole("combobox", {
          name: language === "en" ? "Area" : "المنطقة",
        });
        // Searchable by a transliteration in English and by the Arabic name in Arabic.
        await area.fill("");
        await area.fill(language === "en" ? "slmya" : "السالميه");
        const option = page.getByRole("option", {
          name: language === "en" ? /^Salmiya/ : /^السالمية/,
        });
        await expect.poll(() => option.count()).toBeGreaterThan(0);
        await screenshot(page, `delivery-fix-search-${language}-${width}`);
        await option.first().click();
        // Said before sending: the answer will be remembered for this spelling, to this area.
        const remember = page.locator("[data-remember-sentence]");
        await expect
          .poll(() => remember.innerText())
          .toMatch(
            language === "en" ? /will go to Salmiya from now on/ : /ستذهب الطلبات.*السالمية/,
          );
        await page
          .getByRole("textbox", { name: language === "en" ? "Block" : "القطعة" })
          .fill("12");
        const phone = page.getByRole("textbox", {
          name: language === "en" ? "Customer's phone" : "هاتف العميل",
        });
        await phone.fill("12345");
        await page
          .getByRole("button", { name: language === "en" ? "Send again" : "إرسال مرة أخرى" })
          .click();
        const error =
          language === "en"
            ? "Enter a Kuwaiti phone number: 8 digits starting with 2, 5, 6 or 9"
            : "أدخل رقم هاتف كويتيًا";
        await expect.poll(() => page.getByText(error, { exact: false }).count()).toBeGreaterThan(0);
        expect(await phone.inputValue()).toBe("12345");
        expect(
          await page
            .getByRole("textbox", { name: language === "en" ? "Block" : "القطعة" })
            .inputValue(),
        ).toBe("12");
        // The area chosen and the answer to remember are kept too.
        expect(await page.locator("input[name=areaId]").inputValue()).not.toBe("");
        expect(await page.getByRole("checkbox").isChecked()).toBe(true);
        await screenshot(page, `delivery-fix-error-${language}-${width}`);
        expect(await overflowingElements(page), `fix error ${language} ${width}`).toEqual([]);
        if (language === "ar") expect(await latinTextOnArabicPage(page, BRAND_WORDS)).toEqual([]);
        await page.close();
      });
    }
  }
});
