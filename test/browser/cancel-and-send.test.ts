import type { Browser, Page } from "playwright-core";
import AxeBuilder from "@axe-core/playwright";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { kuwaitDay } from "../../app/domain/working-days";
import { monthNames } from "../../app/i18n/format";
import { launchBrowser, openEmbeddedPage, screenshot } from "../support/browser";
import {
  appDatabase,
  BROWSER_SHOP,
  BROWSER_SHOP_NAME,
  confirmSalmiyaPickups,
  connectCourier,
  disconnectBrowserShop,
  standIn,
} from "../support/browser-shop";
import {
  latinTextOnArabicPage,
  overflowingElements,
  seriousAccessibilityViolations,
  KEPT_IN_LATIN,
} from "../support/page-checks";

/**
 * The Send to courier page and the delivery page's cancel dialog (issue 14, items 6 and 7), in
 * English and Arabic at 1280 and 390 px: screenshots, nothing overflowing, no serious
 * accessibility violation, no English left on the Arabic pages; then a cancel with the Shopify
 * fulfillment and "Send again" end to end.
 */
const appUrl = inject("appUrl");
const SHOP_NAME = BROWSER_SHOP_NAME;
const shop = BROWSER_SHOP;
const prisma = appDatabase();
let browser: Browser;
const WIDTHS = [1280, 390] as const;
const LANGUAGES = ["en", "ar"] as const;
// Names that stay as they are in an Arabic sentence.
const BRAND_WORDS = [...KEPT_IN_LATIN];

async function waitForDelivery(where: { orderName: string }, state: string) {
  for (let i = 0; i < 80; i += 1) {
    const delivery = await prisma.delivery.findFirst({
      where: { shop, ...where, state },
      orderBy: { createdAt: "desc" },
    });
    if (delivery) return delivery;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${where.orderName} did not reach ${state}`);
}

async function open(path: string, language: "en" | "ar", width: number): Promise<Page> {
  const url = new URL(path, "http://x");
  url.searchParams.set("locale", language === "ar" ? "ar" : "en-US");
  const page = await openEmbeddedPage(browser, appUrl, SHOP_NAME, url.pathname + url.search);
  await page.setViewportSize({ width, height: 900 });
  await page.waitForLoadState("networkidle");
  return page;
}

/**
 * Serious violations, less one Polaris makes itself: the table's "select all" checkbox, while
 * some rows are selected, is a native checkbox with aria-checked="mixed" (Polaris Checkbox's
 * indeterminate state), which axe's aria-conditional-attr reports. Only with such a checkbox on
 * the page, and only that rule.
 */
async function violationsBesidesMixedCheckboxes(page: Page): Promise<string[]> {
  const mixed = await page.locator('input[type="checkbox"][aria-checked="mixed"]').count();
  return (await seriousAccessibilityViolations(page)).filter(
    (v) => !(mixed > 0 && v.startsWith("aria-conditional-attr:")),
  );
}

async function checkWholePage(page: Page, name: string, language: "en" | "ar") {
  expect(await page.getAttribute("html", "dir")).toBe(language === "ar" ? "rtl" : "ltr");
  expect(await overflowingElements(page), name).toEqual([]);
  expect(await violationsBesidesMixedCheckboxes(page), name).toEqual([]);
  if (language === "ar") expect(await latinTextOnArabicPage(page, BRAND_WORDS), name).toEqual([]);
}

/**
 * The open dialog alone (the delivery page around it is being rewritten in words by another
 * change): inside the viewport, nothing sticking out of it, no serious violation in it, and in
 * Arabic no Latin words but brand names.
 */
async function checkDialog(page: Page, name: string, language: "en" | "ar") {
  const dialog = page.locator('[role="dialog"] .Polaris-Modal-Dialog__Modal');
  await dialog.waitFor();
  const problems = await dialog.evaluate((root) => {
    const viewport = document.documentElement.clientWidth;
    const box = root.getBoundingClientRect();
    const found: string[] = [];
    if (box.left < -1 || box.right > viewport + 1) found.push("dialog wider than the page");
    for (const el of root.querySelectorAll("*")) {
      const rect = el.getBoundingClientRect();
      if (rect.width <= 1 || rect.height <= 1) continue;
      if (rect.right > box.right + 1 || rect.left < box.left - 1)
        found.push(`outside the dialog: ${(el.textContent ?? "").trim().slice(0, 40)}`);
    }
    return found;
  });
  expect(problems, name).toEqual([]);
  const axe = await new AxeBuilder({ page }).include('[role="dialog"]').analyze();
  expect(
    axe.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id}: ${v.help}`),
    name,
  ).toEqual([]);
  if (language === "ar") {
    const text = (await dialog.innerText()).split("Shopify").join("");
    expect(text.match(/[A-Za-z]{2,}/g), name).toBeNull();
  }
}

beforeAll(async () => {
  browser = await launchBrowser();
  await (await openEmbeddedPage(browser, appUrl, SHOP_NAME, "/app")).close();
  const masterData = await connectCourier(prisma, {
    autoSend: true,
    paymentCodeCod: "COD",
    paymentCodePrepaid: "PREPAID",
  });
  await confirmSalmiyaPickups(prisma, masterData);
});

afterAll(async () => {
  await disconnectBrowserShop(prisma);
  await browser?.close();
  await prisma.$disconnect();
});

const newOrder = (firstName: string, payment: "paid" | "cod" = "paid", city = "Salmiya") =>
  standIn("/__standin/orders", {
    payment,
    shippingAddress: {
      firstName,
      lastName: "Al-Mutairi",
      city,
      address1: "Block 10, Street 5, House 12",
      provinceCode: "KW-HA",
      phone: "+96599991234",
    },
  }) as Promise<{ id: number; name: string }>;

/** Ticks each order's box (again until the page has hydrated and the tick holds). */
async function selectOrders(page: Page, orders: { name: string }[], language: "en" | "ar") {
  for (const order of orders) {
    const box = page.getByLabel(language === "en" ? `Select ${order.name}` : `اختر ${order.name}`);
    await expect
      .poll(
        async () => {
          if (!(await box.isChecked())) await box.click();
          return box.isChecked();
        },
        { timeout: 20_000, interval: 1_000 },
      )
      .toBe(true);
  }
}

/** The delivery page's "Cancel delivery" pressed, and its dialog once it is open. */
async function openCancelDialog(page: Page, language: "en" | "ar") {
  await page
    .getByRole("button", { name: language === "en" ? "Cancel delivery" : "ألغِ التوصيل" })
    .click();
  const dialog = page.locator('[role="dialog"] .Polaris-Modal-Dialog__Modal');
  await dialog.waitFor();
  return dialog;
}

describe("Send to courier and cancelling, in English and Arabic", () => {
  it("shows the Send page with a quote in its row, payment in words, and its search, at 1280 and 390 px", async () => {
    const cod = await newOrder("Hessa", "cod");
    const paid = await newOrder("Dalal");
    for (const language of LANGUAGES) {
      for (const width of WIDTHS) {
        const name = `send-${language}-${width}`;
        const page = await open("/app/send", language, width);
        const row = page.getByRole("row").filter({ hasText: cod.name });
        // Payment and money in words; the quote in the order's own row.
        const words =
          language === "en"
            ? { cod: "Cash on delivery", paid: "Paid", kwd: /KWD\s\d+\.\d{3}/ }
            : { cod: "الدفع عند الاستلام", paid: "مدفوع", kwd: /\d+\.\d{3}/ };
        const codRow = row;
        const quote = codRow.getByRole("button", { name: /Get the courier's price|اعرف سعر/ });
        // Clicked again until the page has hydrated and the answer shows.
        await expect
          .poll(
            async () => {
              if (/Get price|اعرف السعر/.test(await quote.innerText())) await quote.click();
              return codRow.getByText(/ [→←] /).count();
            },
            { timeout: 20_000, interval: 1_000 },
          )
          .toBe(1);
        expect(await codRow.getByText(words.cod).count()).toBe(1);
        expect(await codRow.innerText()).toMatch(words.kwd);
        expect(await page.getByText(words.paid, { exact: true }).count()).toBeGreaterThan(0);
        await screenshot(page, name);
        await checkWholePage(page, name, language);

        // The search finds the order by its customer.
        const search = page.getByPlaceholder(
          language === "en"
            ? "Search by order number or customer"
            : "ابحث برقم الطلب أو اسم العميل",
        );
        await search.fill("Dalal");
        await expect
          .poll(() => page.getByText(cod.name, { exact: true }).count(), {
            timeout: 10_000,
          })
          .toBe(0);
        expect(await page.getByText(paid.name).count()).toBeGreaterThan(0);
        await screenshot(page, `${name}-search`);
        await checkWholePage(page, `${name}-search`, language);
        await page.close();
      }
    }
  }, 300_000);

  it("prices the whole selection with a total, each place in the page's language", async () => {
    const latin = await newOrder("Sara", "cod");
    const arabic = await newOrder("Lulwa", "paid", "السالمية");
    for (const language of LANGUAGES) {
      for (const width of WIDTHS) {
        const name = `send-selection-price-${language}-${width}`;
        const page = await open("/app/send", language, width);
        const row = page.getByRole("row").filter({ hasText: arabic.name });
        await expect.poll(() => row.count()).toBe(1);
        // The customer's city in the page's language, and no country code for Kuwait.
        const text = await row.innerText();
        expect(text).toContain(language === "en" ? "Salmiya" : "السالمية");
        expect(text).not.toMatch(/\bKW\b/);
        if (language === "en") expect(text).not.toContain("السالمية");
        await selectOrders(page, [latin, arabic], language);
        const action = page.getByRole("button", {
          name: language === "en" ? "Price 2 with the courier" : "اطلب سعر 2 من شركة التوصيل",
        });
        await action.click();
        await expect
          .poll(() => page.locator("#selection-total").count(), { timeout: 20_000 })
          .toBe(1);
        expect(await page.locator("#selection-total").innerText()).toMatch(
          language === "en"
            ? /Total for 2 priced orders: KWD\s\d+\.\d{3}/
            : /المجموع لـ 2 من الطلبات المسعّرة: .*\d+\.\d{3}/,
        );
        // Each row shows its own price from the same answer.
        expect(await row.getByText(/ [→←] /).count()).toBe(1);
        await screenshot(page, name);
        await checkWholePage(page, name, language);
        await page.close();
      }
    }
  }, 300_000);

  it("asks before fulfilling, then shows each outcome in its row", async () => {
    const orders = [await newOrder("Noura"), await newOrder("Maryam", "cod")];
    for (const language of LANGUAGES) {
      for (const width of WIDTHS) {
        const name = `send-confirm-${language}-${width}`;
        const page = await open("/app/send", language, width);
        await selectOrders(page, orders, language);
        await page
          .getByRole("button", {
            name: language === "en" ? "Send 2 to courier" : "أرسل 2 إلى شركة التوصيل",
          })
          .click();
        const dialog = page.locator('[role="dialog"] .Polaris-Modal-Dialog__Modal');
        await dialog.waitFor();
        expect(await dialog.innerText()).toContain(
          language === "en"
            ? "Each of the 2 orders is marked fulfilled in Shopify"
            : "يُعلَّم كل طلب من الطلبات (2) مُنفَّذًا في Shopify",
        );
        await screenshot(page, name);
        await checkDialog(page, name, language);
        // Not now: nothing is fulfilled.
        await page
          .getByRole("button", { name: language === "en" ? "Not now" : "ليس الآن" })
          .click();
        await page.close();
      }
    }
    expect(await prisma.delivery.count({ where: { shop, orderName: orders[0]!.name } })).toBe(0);

    // Sent in Arabic on a phone: the outcomes fit their rows.
    const page = await open("/app/send", "ar", 390);
    await selectOrders(page, orders, "ar");
    await page.getByRole("button", { name: "أرسل 2 إلى شركة التوصيل" }).click();
    await page.getByRole("button", { name: "أرسل الآن" }).click();
    await expect.poll(() => page.getByText("اكتمل 2 من 2").count(), { timeout: 30_000 }).toBe(1);
    for (const order of orders) await waitForDelivery({ orderName: order.name }, "created");
    await screenshot(page, "send-outcomes-ar-390");
    await checkWholePage(page, "send-outcomes-ar-390", "ar");
    await page.setViewportSize({ width: 1280, height: 900 });
    await screenshot(page, "send-outcomes-ar-1280");
    await checkWholePage(page, "send-outcomes-ar-1280", "ar");
    await page.close();
  }, 300_000);

  it("says in the page's language why a delivery can no longer be cancelled (ADR 0045), at 1280 and 390 px", async () => {
    const order = await newOrder("Amna");
    const send = await open("/app/send", "en", 1280);
    await selectOrders(send, [order], "en");
    await send.getByRole("button", { name: "Send 1 to courier" }).click();
    await send.getByRole("button", { name: "Send now" }).click();
    await expect.poll(() => send.getByText("1 of 1 done").count(), { timeout: 30_000 }).toBe(1);
    await send.close();
    const delivery = await waitForDelivery({ orderName: order.name }, "created");
    const refusal = {
      en: "A delivery that is “Delivered” can no longer be cancelled.",
      ar: "لم يعد ممكنًا إلغاء توصيل حالته «تم التوصيل».",
    };
    for (const language of LANGUAGES) {
      for (const width of WIDTHS) {
        const name = `cancel-refused-${language}-${width}`;
        await prisma.delivery.update({ where: { id: delivery.id }, data: { state: "created" } });
        const page = await open(`/app/deliveries/${delivery.id}`, language, width);
        const dialog = await openCancelDialog(page, language);
        await dialog
          .getByText(
            language === "en"
              ? "Keep the order fulfilled in Shopify"
              : "أبقِ الطلب مُنفَّذًا في Shopify",
            { exact: true },
          )
          .click();
        // Delivered while the dialog was open: the server refuses, and says so in words.
        await prisma.delivery.update({ where: { id: delivery.id }, data: { state: "delivered" } });
        await dialog
          .getByRole("button", { name: language === "en" ? "Cancel delivery" : "ألغِ التوصيل" })
          .click();
        await expect
          .poll(() => page.getByText(refusal[language], { exact: true }).count(), {
            timeout: 15_000,
          })
          .toBe(1);
        await screenshot(page, name);
        await checkWholePage(page, name, language);
        await page.close();
      }
    }
  }, 300_000);

  it("cancels a delivery with its Shopify fulfillment after saying what happens, then sends it again", async () => {
    const order = await newOrder("Fatima", "cod");
    const send = await open("/app/send", "en", 1280);
    await send.getByLabel(`Select ${order.name}`).check();
    await send.getByRole("button", { name: "Send 1 to courier" }).click();
    await send.getByRole("button", { name: "Send now" }).click();
    await expect.poll(() => send.getByText("1 of 1 done").count(), { timeout: 30_000 }).toBe(1);
    await send.close();
    const delivery = await waitForDelivery({ orderName: order.name }, "created");

    for (const language of LANGUAGES) {
      for (const width of WIDTHS) {
        const name = `cancel-dialog-${language}-${width}`;
        const page = await open(`/app/deliveries/${delivery.id}`, language, width);
        const dialog = await openCancelDialog(page, language);
        const text = await dialog.innerText();
        expect(text).toContain(
          language === "en" ? "The courier is asked to cancel it" : "يُطلب من شركة التوصيل إلغاؤه",
        );
        expect(text).toMatch(language === "en" ? /collect the KWD\s\d+\.\d{3}/ : /\d+\.\d{3}/);
        await screenshot(page, name);
        await checkDialog(page, name, language);
        await page
          .getByRole("button", { name: language === "en" ? "Don't cancel" : "لا تلغِ" })
          .click();
        await page.close();
      }
    }
    expect((await prisma.delivery.findUniqueOrThrow({ where: { id: delivery.id } })).state).toBe(
      "created",
    );

    const page = await open(`/app/deliveries/${delivery.id}`, "en", 1280);
    await page.getByRole("button", { name: "Cancel delivery" }).click();
    const confirm = page
      .locator('[role="dialog"] .Polaris-Modal-Dialog__Modal')
      .getByRole("button", { name: "Cancel delivery" });
    // Nothing is cancelled before the merchant says what becomes of the order in Shopify.
    expect(await confirm.isDisabled()).toBe(true);
    await page.getByText("Cancel the Shopify fulfillment too", { exact: true }).click();
    await confirm.click();
    await expect
      .poll(() => page.getByText("Delivery cancelled").count(), { timeout: 15_000 })
      .toBe(1);
    expect(
      await page
        .getByText("The order is unfulfilled again in Shopify: you can send it again.")
        .count(),
    ).toBe(1);
    const cancelled = await prisma.delivery.findUniqueOrThrow({ where: { id: delivery.id } });
    expect(cancelled.state).toBe("cancelled");
    expect(cancelled.shopifyCancelledAt).not.toBeNull();
    await screenshot(page, "cancel-done-en-1280");

    await page.getByRole("button", { name: "Send again" }).click();
    await expect
      .poll(() => page.getByText("Sent again as a new delivery").count(), { timeout: 15_000 })
      .toBe(1);
    // Sent again: the button is gone (one live delivery), the page links to the new one.
    await expect.poll(() => page.getByRole("button", { name: "Send again" }).count()).toBe(0);
    await screenshot(page, "cancel-sent-again-en-1280");
    const again = await waitForDelivery({ orderName: order.name }, "created");
    expect(again.id).not.toBe(delivery.id);
    expect(
      await prisma.delivery.count({
        where: { shop, orderName: order.name, state: { notIn: ["cancelled", "skipped"] } },
      }),
    ).toBe(1);
    await page.getByRole("link", { name: "Open the new delivery" }).click();
    await page.waitForURL(new RegExp(`/app/deliveries/${again.id}`));
    await page.close();
  }, 300_000);

  // Arabic first: the English one after it leaves the staff member's language as the next files
  // expect, whatever happened here.
  for (const [language, width] of [
    ["ar", 390],
    ["en", 1280],
  ] as const) {
    it(`chooses the days orders were placed on the admin's calendar, in ${language} at ${width} px`, async () => {
      const page = await open("/app/send", language, width);
      await page
        .getByRole("button", { name: language === "en" ? "Date placed" : "تاريخ الطلب" })
        .click();
      const picker = page.locator("[data-day-picker]");
      await picker.waitFor();
      // Last month, whatever today is: its 1st and 3rd are past days.
      const [year, month] = kuwaitDay(new Date()).split("-").map(Number) as [number, number];
      const last = month === 1 ? { year: year - 1, month: 12 } : { year, month: month - 1 };
      await picker.locator("button").first().click();
      const monthName = monthNames(language)[last.month - 1]!;
      await expect.poll(() => picker.getByText(`${monthName} ${last.year}`).count()).toBe(1);
      const day = (n: number) => picker.locator("button").filter({ hasText: new RegExp(`^${n}$`) });
      await day(1).click();
      await day(3).click();
      const mm = String(last.month).padStart(2, "0");
      await page.waitForURL(new RegExp(`from=${last.year}-${mm}-01&to=${last.year}-${mm}-03`));
      await screenshot(page, `send-dates-${language}-${width}`);
      if (language === "ar") {
        expect(await latinTextOnArabicPage(page, BRAND_WORDS)).toEqual([]);
      }
      expect(await overflowingElements(page)).toEqual([]);
      await page.close();
    });
  }
});
