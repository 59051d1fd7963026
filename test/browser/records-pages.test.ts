import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { leafKeys, type Catalog } from "../../app/i18n/catalog-check";
import { resources } from "../../app/i18n/config";
import { launchBrowser, openEmbeddedPage, screenshot } from "../support/browser";
import {
  appDatabase,
  BROWSER_SHOP,
  BROWSER_SHOP_NAME,
  connectCourier,
} from "../support/browser-shop";
import {
  englishCatalogStrings,
  latinTextOnArabicPage,
  overflowingElements,
  seriousAccessibilityViolations,
  KEPT_IN_LATIN,
} from "../support/page-checks";

/**
 * Issue 16's pages in a real browser, in English and Arabic at 1280 and 390 px: Cash on delivery
 * (totals, a statement with its differences, per day), Courier reports (the sandbox courier's
 * report and history, the courier's exceptions), the courier's exceptions under Needs attention
 * and on a delivery's page. Screenshots in test-results/browser/records-*.png.
 */
const appUrl = inject("appUrl");
const SHOP_NAME = BROWSER_SHOP_NAME;
const shop = BROWSER_SHOP;
const prisma = appDatabase();
let browser: Browser;
let linkedDeliveryId = "";

const WIDTHS = [1280, 390] as const;
const BRAND_WORDS = [...KEPT_IN_LATIN];
const PROTOCOL_WORDS =
  /HMAC|ApiKey|amount_differs|unknown_order|missing_from_statement|not_delivered|to_collect|JSON/;
const catalogs = resources as Record<string, Record<string, Catalog>>;
const ENGLISH_PHRASES = Object.entries(catalogs.en!).flatMap(([namespace, catalog]) => {
  const arabic = leafKeys(catalogs.ar?.[namespace] ?? {});
  return [...leafKeys(catalog)]
    .filter(([key, value]) => arabic.get(key) !== value && !value.includes("{{"))
    .map(([, value]) => value)
    .filter((value) => value.length >= 6 && /[A-Za-z]{3}/.test(value));
});

async function openAdmin(path: string, language: "en" | "ar", width: number): Promise<Page> {
  const url = new URL(path, "http://x");
  url.searchParams.set("locale", language === "ar" ? "ar" : "en-US");
  const page = await openEmbeddedPage(browser, appUrl, SHOP_NAME, url.pathname + url.search, []);
  await page.setViewportSize({ width, height: 900 });
  await page.waitForLoadState("networkidle");
  // Polaris's drop zone measures itself after a resize (debounced): its file input spans past a
  // narrow page until then.
  await page.waitForTimeout(500);
  return page;
}

async function checkPage(page: Page, name: string, language: "en" | "ar", width: number) {
  expect(await page.getAttribute("html", "dir")).toBe(language === "ar" ? "rtl" : "ltr");
  await screenshot(page, `records-${name}-${language}-${width}`);
  expect(await overflowingElements(page), `${name} ${language} ${width}`).toEqual([]);
  const text = await page.evaluate(() => document.body.innerText);
  expect(text).not.toMatch(PROTOCOL_WORDS);
  if (language === "ar") {
    expect(await englishCatalogStrings(page, ENGLISH_PHRASES), name).toEqual([]);
    expect(await latinTextOnArabicPage(page, BRAND_WORDS), name).toEqual([]);
  }
  if (width === 1280) expect(await seriousAccessibilityViolations(page)).toEqual([]);
}

async function cashDelivery(n: number, state: string, cash: string, settlementId?: string) {
  return prisma.delivery.create({
    data: {
      shop,
      orderId: `gid://shopify/Order/${9950 + n}`,
      orderName: `#${9950 + n}`,
      fulfillmentId: `gid://shopify/Fulfillment/${9950 + n}`,
      source: "webhook",
      state,
      environment: "sandbox",
      reference: `SHPFY-cash-${9950 + n}`,
      courierOrderNumber: `KW99${50 + n}`,
      courierOrderId: String(99500 + n),
      cashToCollect: cash,
      lastMovedAt: new Date(Date.now() - n * 3_600_000),
      ...(settlementId ? { settlementId, settledAt: new Date() } : {}),
    },
  });
}

beforeAll(async () => {
  browser = await launchBrowser();
  await (await openEmbeddedPage(browser, appUrl, SHOP_NAME, "/app")).close();
  await connectCourier(prisma, { courierCheckedAt: new Date(), markPaidOnSettlement: true });
  const settlement = await prisma.settlement.create({
    data: {
      shop,
      source: "file",
      fileName: "statement-november.csv",
      reference: "ST-2211",
      receivedOn: "2026-11-26",
      lineCount: 3,
      statementFils: 48_750n,
      expectedFils: 50_750n,
      differences: 2,
    },
  });
  const paid = await cashDelivery(1, "delivered", "36.500", settlement.id);
  const short = await cashDelivery(2, "delivered", "14.250", settlement.id);
  const missing = await cashDelivery(3, "delivered", "9.000");
  const onTheWay = await cashDelivery(4, "in_transit", "22.000");
  linkedDeliveryId = onTheWay.id;
  await prisma.settlementLine.createMany({
    data: [
      {
        shop,
        settlementId: settlement.id,
        line: 2,
        courierOrderNumber: "KW9951",
        amountFils: 36_500,
        deliveryId: paid.id,
      },
      {
        shop,
        settlementId: settlement.id,
        line: 3,
        courierOrderNumber: "KW9952",
        amountFils: 12_250,
        deliveryId: short.id,
        difference: "amount_differs",
        expectedFils: 14_250,
      },
      {
        shop,
        settlementId: settlement.id,
        line: 4,
        courierOrderNumber: "KW7777",
        amountFils: 0,
        difference: "unknown_order",
      },
    ],
  });
  await prisma.settlementGap.create({
    data: {
      shop,
      settlementId: settlement.id,
      deliveryId: missing.id,
      courierOrderNumber: "KW9953",
      expectedFils: 9_000,
    },
  });
  await prisma.courierException.createMany({
    data: [
      {
        shop,
        environment: "sandbox",
        key: "id:ex-1",
        courierOrderId: "99504",
        deliveryId: onTheWay.id,
        type: "address_not_found",
        description: "Customer not answering the phone; the driver will try again tomorrow.",
        happenedAt: new Date(Date.now() - 2 * 3_600_000).toISOString(),
        raw: JSON.stringify({
          id: "ex-1",
          descriptionAr: "العميل لا يرد على الهاتف، سيحاول المندوب مرة أخرى غداً.",
        }),
      },
      {
        shop,
        environment: "sandbox",
        key: "id:ex-2",
        courierOrderId: "88001",
        type: "damaged",
        description: "Parcel damaged at the hub.",
        happenedAt: new Date(Date.now() - 5 * 3_600_000).toISOString(),
        raw: JSON.stringify({ id: "ex-2", descriptionAr: "الطرد تالف في المستودع." }),
      },
    ],
  });
});

afterAll(async () => {
  await prisma.staffLanguage.deleteMany({ where: { shop } });
  await browser?.close();
  await prisma.$disconnect();
});

describe("issue 16's pages in English and Arabic", () => {
  for (const language of ["en", "ar"] as const) {
    it(`shows Cash on delivery in ${language}: totals, the statement's differences, per day`, async () => {
      for (const width of WIDTHS) {
        const page = await openAdmin("/app/cash", language, width);
        await checkPage(page, "cash", language, width);
        const text = await page.evaluate(() => document.body.innerText);
        expect(text).toContain(language === "en" ? "Amount not equal" : "المبلغ غير مطابق");
        expect(text).toContain(
          language === "en" ? "Delivered, missing from the statement" : "تم توصيله وليس في الكشف",
        );
        expect(text).toContain("KW7777");
        // Collected and not yet paid: the delivered order the statement lacked.
        expect(text).toMatch(/9\.000/);
        // Each difference says what to do, its order opens the delivery; days are not ISO.
        expect(text).toContain(
          language === "en"
            ? "ask the courier to add it to the next statement"
            : "إضافتها إلى الكشف التالي",
        );
        expect(await page.locator('a[href^="/app/deliveries/"]').count()).toBeGreaterThan(0);
        expect(text).not.toMatch(/\b\d{4}-\d{2}-\d{2}\b/);
        expect(text).toContain("KW100001, 36.500");
        // The day the money came is chosen in the page's language, not the browser's date box.
        expect(await page.locator('input[type="date"]').count()).toBe(0);
        // On a phone the differences are blocks, not a table that scrolls sideways.
        if (width === 390)
          expect(
            await page
              .locator(".Polaris-DataTable__ScrollContainer")
              .filter({ hasText: "KW7777" })
              .count(),
          ).toBe(0);
        await page.close();
      }
    });

    it(`says a typed statement's wrong lines in ${language}`, async () => {
      const page = await openAdmin("/app/cash", language, 390);
      // Every line wrong: nothing is saved, the statements of the other tests stay as they are.
      await page.locator("textarea").fill("KW100001, 12.5.0\n, 4.000");
      const record = page.getByRole("button", {
        name: language === "en" ? "Record statement" : "تسجيل الكشف",
      });
      const expected =
        language === "en" ? "is not an amount: write it like 36.500" : "ليس مبلغًا: اكتبه هكذا";
      await expect
        .poll(
          async () => {
            if ((await page.getByText(expected).count()) === 0) await record.click();
            return page.getByText(expected).count();
          },
          { timeout: 20_000, interval: 2_000 },
        )
        .toBe(1);
      const text = await page.evaluate(() => document.body.innerText);
      if (language === "ar") {
        expect(text).not.toMatch(/is not an amount|Write the courier order number/);
        expect(text).toContain("اكتب رقم طلب شركة التوصيل أولًا");
        // The banner with the refused lines (the field still holds what was typed).
        expect(
          await latinTextOnArabicPage(page, BRAND_WORDS, { within: ".Polaris-Banner" }),
        ).toEqual([]);
      }
      await screenshot(page, `records-cash-typed-errors-${language}-390`);
      await page.close();
    });

    it(`shows Courier reports in ${language}, with the courier's exceptions`, async () => {
      for (const width of WIDTHS) {
        const page = await openAdmin("/app/reports", language, width);
        await checkPage(page, "reports", language, width);
        const text = await page.evaluate(() => document.body.innerText);
        expect(text).toContain(
          language === "en" ? "Customer not answering the phone" : "العميل لا يرد على الهاتف",
        );
        expect(text).toContain("88001");
        // Orders the app does not know (the sandbox's, from other files): their status in the
        // page's words and their date in its format, never the courier's codes or ISO times.
        expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}|\bpending\b|out_for_delivery/);
        // The courier's report: dinars with three decimals, days in the page's language, no
        // currency row, and the app's own counts in a column of their own.
        const report = page.locator(".Polaris-DataTable").first();
        const reportText = await report.innerText();
        expect(reportText).toMatch(language === "en" ? /KWD\s\d+\.\d{3}/ : /\d+\.\d{3}\s?د\.ك/);
        expect(reportText).not.toMatch(/\d{4}-\d{2}-\d{2}/);
        expect(reportText).not.toContain(language === "en" ? "Currency" : "العملة");
        expect(reportText).toContain(language === "en" ? "In the app" : "في التطبيق");
        expect(await page.locator('input[type="date"]').count()).toBe(0);
        expect(
          await page
            .getByRole("option", { name: language === "en" ? "November" : "نوفمبر" })
            .count(),
        ).toBe(2);
        await page.close();
      }
    });
  }

  it("shows the courier's exceptions under Needs attention and on the delivery's page", async () => {
    for (const language of ["en", "ar"] as const) {
      const list = await openAdmin("/app/deliveries?tab=attention", language, 1280);
      await screenshot(list, `records-attention-${language}-1280`);
      const listText = await list.evaluate(() => document.body.innerText);
      expect(listText).toContain(
        language === "en"
          ? "Problems the courier reported this week"
          : "مشكلات أبلغت عنها شركة التوصيل",
      );
      expect(listText).toContain("88001");
      await list.close();
    }
    const page = await openAdmin(`/app/deliveries/${linkedDeliveryId}`, "en", 1280);
    await screenshot(page, "records-delivery-exceptions-en-1280");
    const text = await page.evaluate(() => document.body.innerText);
    expect(text).toContain("What the courier reported");
    expect(text).toContain("Customer not answering the phone");
    expect(text).not.toContain("Parcel damaged at the hub.");
    await page.close();
  });
});
