import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaClient } from "@prisma/client";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { AREAS, GOVERNORATES } from "../../app/addresses";
import { kuwaitDay } from "../../app/domain/working-days";
import { monthNames } from "../../app/i18n/format";
import {
  launchBrowser,
  newAdminPage,
  openEmbeddedPage,
  screenshot,
  gotoReady,
} from "../support/browser";
import {
  latinTextOnArabicPage,
  seriousAccessibilityViolations,
  KEPT_IN_LATIN,
} from "../support/page-checks";

/**
 * Home (the dashboard) and the deliveries list as a merchant sees them, at a desktop width and a
 * phone's: screenshots kept under test-results, and no element wider than its card or the page.
 */

const appUrl = inject("appUrl");
const SHOP_NAME = "browser-shop";
const shop = `${SHOP_NAME}.myshopify.com`;
const prisma = new PrismaClient({
  adapter: new PrismaBetterSQLite3({ url: inject("appDatabaseFile") }),
});
const WIDTHS = [1280, 390] as const;
/** Names that stay as they are on an Arabic page. */
const BRAND_WORDS = [...KEPT_IN_LATIN, "KWD"];
const LONG_REASON =
  "The courier refused the address: near the co-op, behind the mosque, the block number is missing and the street could not be found in the area's list.";

const WAITING_REASON =
  "The address looks like Jabriya, but the app is not sure enough to send it without you.";

let browser: Browser;
const pageErrors: string[] = [];

async function seed() {
  const governances = GOVERNORATES.map((g, i) => ({
    governanceId: i + 1,
    governanceName: g.nameAr,
  }));
  const areas = AREAS.slice(0, 40).map((a, i) => ({
    areaId: 500 + i,
    areaName: a.nameAr,
    governanceId: GOVERNORATES.findIndex((g) => g.code === a.governorateCode) + 1,
    raw: {},
  }));
  // These lists (the rows below use their ids), whatever another file of this shop left.
  const lists = {
    governances: JSON.stringify(governances),
    areas: JSON.stringify(areas),
    fetchedAt: new Date(),
  };
  await prisma.courierMasterData.upsert({
    where: { shop_environment: { shop, environment: "sandbox" } },
    create: { shop, environment: "sandbox", ...lists },
    update: lists,
  });
  const now = Date.now();
  const states = [
    "rejected",
    "delivered",
    "out_for_delivery",
    "in_transit",
    "failed",
    "returned",
    "created",
    "cancelled",
    "needs_address",
    "delivered",
    "pending",
    "delivered",
  ];
  const names = ["Ahmed Al-Mutairi", "فاطمة الرشيدي", "Mariam Haddad", "محمد الكندري"];
  for (let i = 0; i < 30; i += 1) {
    const state = states[i % states.length]!;
    const area = areas[i % areas.length]!;
    const tracked = !["pending", "needs_address", "rejected", "cancelled"].includes(state);
    const moved = new Date(now - (i % 14) * 86_400_000 - 3_600_000);
    await prisma.delivery.create({
      data: {
        shop,
        orderId: `gid://shopify/Order/77${i}`,
        orderName: `#77${String(i).padStart(2, "0")}`,
        fulfillmentId: `gid://shopify/Fulfillment/77${i}`,
        source: "webhook",
        state,
        stateReason: state === "rejected" ? LONG_REASON : null,
        environment: "sandbox",
        reference: `SHPFY-pages-${i}`,
        request: JSON.stringify({
          deliveryAddress: {
            governanceId: area.governanceId,
            areaId: area.areaId,
            contactName: names[i % names.length],
            contactPhone: `9${String(5550000 + i)}`,
          },
        }),
        cashToCollect: i % 2 === 0 ? `${10 + i}.250` : null,
        courierOrderId: tracked ? `C77${i}` : null,
        courierOrderNumber: tracked ? `KW00077${String(i).padStart(3, "0")}` : null,
        trackingPushedAt: tracked ? new Date(moved.getTime() - 7_200_000) : null,
        lastMovedAt: tracked ? moved : null,
        createdAt: new Date(moved.getTime() - (3 + (i % 5)) * 3_600_000),
      },
    });
  }
  // Waiting for its address as the worker leaves it (issue 29): no courier request, the list's
  // columns written by the worker, the place only in the stored match.
  await prisma.delivery.create({
    data: {
      shop,
      orderId: "gid://shopify/Order/7790",
      orderName: "#7790",
      fulfillmentId: "gid://shopify/Fulfillment/7790",
      source: "webhook",
      state: "needs_address",
      stateReason: WAITING_REASON,
      environment: "sandbox",
      reference: "SHPFY-pages-waiting",
      request: null,
      customerName: "Noura Al-Ali",
      customerPhone: "55501234",
      nameKey: "noura al-ali",
      nameKey2: "al-ali",
      cashToCollect: "36.000",
      addressMatch: JSON.stringify({ area: "Jabriya", input: { city: "jabriya blk 1" } }),
      createdAt: new Date(now - 60_000),
    },
  });
}

/**
 * Visible elements that stick out of their card, and a page wider than the window: each as a
 * short description. Clipped content (inside an ancestor that hides or scrolls its overflow) is
 * judged against that ancestor; a table that scrolls sideways counts as too wide.
 */
async function overflows(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const main = document.querySelector(".Polaris-Page");
    const width = document.documentElement.clientWidth;
    if (main && main.scrollWidth > width + 1) found.push(`page ${main.scrollWidth} > ${width}`);
    const describe = (el: Element) =>
      `${el.tagName.toLowerCase()}.${[...el.classList].slice(0, 2).join(".")} "${(el.textContent ?? "").slice(0, 40)}"`;
    const clips = (el: Element) => {
      const style = getComputedStyle(el);
      return style.overflowX !== "visible" || style.position === "fixed";
    };
    for (const card of document.querySelectorAll(".Polaris-Card")) {
      for (const el of card.querySelectorAll("*")) {
        if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
        if (el.closest(".Polaris-Text--visuallyHidden, .Polaris-IndexTable__StickyTableHeader"))
          continue;
        const r = el.getBoundingClientRect();
        if (r.width === 0 || r.height === 0) continue;
        let bound: Element = card;
        for (let up = el.parentElement; up && up !== card; up = up.parentElement) {
          if (clips(up)) {
            bound = up;
            break;
          }
        }
        const box = bound.getBoundingClientRect();
        if (r.right > box.right + 1 || r.left < box.left - 1)
          found.push(`${describe(el)} leaves its card`);
      }
    }
    for (const scroller of document.querySelectorAll(".Polaris-IndexTable__ScrollContainer")) {
      if (scroller.scrollWidth > scroller.clientWidth + 1) {
        found.push(`table ${scroller.scrollWidth} wider than its card ${scroller.clientWidth}`);
      }
    }
    return found.slice(0, 10);
  });
}

/**
 * How many rows show an area's name: in its own column at a desktop width, and at a phone's
 * width on the condensed row's line "customer · area".
 */
async function areaShown(page: Page, name: string, width: number): Promise<number> {
  if (width > 600) return page.getByText(name, { exact: true }).count();
  return page.getByText(new RegExp(`· ${name}$`)).count();
}

async function open(
  path: string,
  width: number,
  language: "en" | "ar" = "en",
  device: "desktop" | "phone" = "desktop",
) {
  const { getJwt, API_KEY, API_SECRET_KEY } = await import("@shopify/shopify-api/test-helpers");
  const { token } = await getJwt(SHOP_NAME, API_KEY, API_SECRET_KEY);
  const url = new URL(path, appUrl);
  url.searchParams.set("embedded", "1");
  url.searchParams.set("shop", shop);
  url.searchParams.set(
    "host",
    Buffer.from(`admin.shopify.com/store/${SHOP_NAME}`).toString("base64"),
  );
  url.searchParams.set("id_token", token);
  url.searchParams.set("locale", language);
  const page = await newAdminPage(browser, device);
  if (device === "desktop") await page.setViewportSize({ width, height: 900 });
  page.on("pageerror", (error) => pageErrors.push(error.message));
  const response = await gotoReady(page, url.href);
  expect(response?.status()).toBe(200);
  await page.waitForLoadState("networkidle");
  // Hydrated: Polaris's tabs appear once they have measured themselves in the browser; opened
  // with filters, the filter bar shows instead of the tabs.
  if (path.startsWith("/app/deliveries")) {
    await page.waitForFunction(
      () => document.querySelectorAll('[role="tab"], [class*="Polaris-Filters"]').length > 0,
      null,
      { timeout: 60_000 },
    );
  }
  await page.waitForTimeout(500);
  return page;
}

beforeAll(async () => {
  browser = await launchBrowser();
  // The first load installs the shop (token exchange with the stand-in).
  await (await openEmbeddedPage(browser, appUrl, SHOP_NAME, "/app")).close();
  await seed();
});

afterAll(async () => {
  await browser?.close();
  await prisma.$disconnect();
});

describe("the merchant's pages in Chromium", () => {
  for (const width of WIDTHS) {
    it(`home at ${width} px: today's figures, each a link to its list, and the 14-day chart`, async () => {
      const page = await open("/app", width);
      await expect
        .poll(() => page.getByRole("heading", { name: "Today's deliveries" }).count())
        .toBe(1);
      const attention = page.getByRole("link", { name: /Needs attention/ });
      expect(await attention.getAttribute("href")).toContain("/app/deliveries?tab=attention");
      expect(await page.getByText("The last 14 days").count()).toBe(1);
      expect(await page.getByRole("table").count()).toBe(1);
      // What to do now, in words, with the page that does it (issue 29).
      expect(await page.getByRole("heading", { name: "Next steps" }).count()).toBe(1);
      const review = page.getByRole("link", { name: "Review →" });
      expect(await review.getAttribute("href")).toContain("/app/address-review");
      expect(await page.getByText(/^3 addresses to check before sending$/).count()).toBe(1);
      expect(await page.getByRole("link", { name: "Fix →" }).getAttribute("href")).toContain(
        "state=rejected",
      );
      // The figures look like links: each says "View", and the keyboard's focus shows.
      expect(await page.locator(".figure-link").getByText("View →").count()).toBeGreaterThan(5);
      // The chart has a count axis, and a count over every day (0 for an empty one).
      const chartTexts = await page
        .locator("svg text")
        .evaluateAll((nodes) => nodes.map((n) => n.textContent ?? ""));
      expect(chartTexts).toContain("0");
      expect(chartTexts.filter((text) => /^\d+$/.test(text)).length).toBeGreaterThanOrEqual(14);
      await screenshot(page, `home-en-${width}`);
      expect(await overflows(page)).toEqual([]);
      await attention.focus();
      expect(await attention.evaluate((el) => getComputedStyle(el).outlineStyle)).toBe("solid");
      await page.close();
    });

    it(`the deliveries list at ${width} px: columns, tabs, nothing wider than its card`, async () => {
      const page = await open("/app/deliveries", width);
      await expect.poll(() => page.getByText("#7700").count()).toBeGreaterThan(0);
      if (width === 1280) {
        for (const heading of [
          "Order",
          "Customer",
          "Area",
          "Cash on delivery",
          "State",
          "Courier number",
          "Created",
        ]) {
          expect(await page.getByRole("columnheader", { name: heading }).count(), heading).toBe(1);
        }
      }
      // Area names come from the courier's ids, in the page's language.
      // A phone's condensed rows replace the columns once the page has measured the window.
      await expect.poll(() => areaShown(page, AREAS[0]!.nameEn, width)).toBeGreaterThan(0);
      await screenshot(page, `deliveries-en-${width}`);
      expect(await overflows(page)).toEqual([]);
      await page.close();
      const attention = await open("/app/deliveries?tab=attention", width);
      await screenshot(attention, `deliveries-attention-en-${width}`);
      await expect
        .poll(() => attention.getByText("Rejected by the courier").count())
        .toBeGreaterThan(0);
      expect(
        await attention
          .locator(".Polaris-IndexTable")
          .getByText("Delivered", { exact: true })
          .count(),
      ).toBe(0);
      await screenshot(attention, `deliveries-attention-en-${width}`);
      expect(await overflows(attention)).toEqual([]);
      // Waiting for its address: the customer, the place and the cash, not "—" (issue 29).
      const waiting = attention.locator(".Polaris-IndexTable__TableRow", { hasText: "#7790" });
      await expect.poll(() => waiting.getByText("Noura Al-Ali").count()).toBe(1);
      expect(await waiting.getByText("Jabriya", { exact: true }).count()).toBe(1);
      expect(await waiting.getByText("KWD 36.000").count()).toBe(1);
      // Each reason whole, wrapping, with the link that acts on it.
      const fix = waiting.getByRole("link", { name: "Fix address" });
      expect(await fix.getAttribute("href")).toMatch(/\/app\/deliveries\/[^/]+\/fix/);
      expect(await attention.getByText(LONG_REASON).first().isVisible()).toBe(true);
      const cut = await attention
        .getByText(LONG_REASON)
        .first()
        .evaluate(
          (el) => el.scrollWidth > el.clientWidth + 1 || el.closest('[class*="truncate"]') !== null,
        );
      expect(cut).toBe(false);
      const refused = attention.locator(".Polaris-IndexTable__TableRow", { hasText: "#7700" });
      expect(await refused.getByRole("link", { name: "Fix and send again" }).count()).toBe(1);
      // The tabs of work under way say how many they hold.
      expect(await attention.getByRole("tab", { name: /^Needs attention: \d+$/ }).count()).toBe(1);
      await attention.close();
    });

    it(`home and the list in Arabic at ${width} px: right to left, area names in Arabic`, async () => {
      const home = await open("/app", width, "ar");
      await expect.poll(() => home.getByRole("heading", { name: "توصيلات اليوم" }).count()).toBe(1);
      expect(await home.locator("html").getAttribute("dir")).toBe("rtl");
      await screenshot(home, `home-ar-${width}`);
      expect(await overflows(home)).toEqual([]);
      expect(await latinTextOnArabicPage(home, BRAND_WORDS)).toEqual([]);
      expect(await seriousAccessibilityViolations(home)).toEqual([]);
      await home.close();
      const list = await open("/app/deliveries", width, "ar");
      await expect.poll(() => list.getByText("#7700").count()).toBeGreaterThan(0);
      await expect.poll(() => areaShown(list, AREAS[0]!.nameAr, width)).toBeGreaterThan(0);
      expect(await areaShown(list, AREAS[0]!.nameEn, width)).toBe(0);
      // The place of a delivery waiting for its address, in Arabic too.
      const waiting = list.locator(".Polaris-IndexTable__TableRow", { hasText: "#7790" });
      expect(await waiting.getByText("الجابرية", { exact: true }).count()).toBe(1);
      await screenshot(list, `deliveries-ar-${width}`);
      expect(await overflows(list)).toEqual([]);
      expect(await latinTextOnArabicPage(list, BRAND_WORDS)).toEqual([]);
      expect(await seriousAccessibilityViolations(list)).toEqual([]);
      await list.close();
    });
  }

  it("keeps the list's columns where they are whatever the rows hold, so nothing moves as it loads", async () => {
    // A table laid out by its content widened its columns as longer rows were parsed (a layout
    // shift while the page loaded) and between tabs; its widths now come from the columns alone.
    const widths = async (path: string) => {
      const page = await open(path, 1280);
      await expect
        .poll(() => page.locator(".Polaris-IndexTable__TableRow").count())
        .toBeGreaterThan(0);
      const found = await page
        .locator("table.Polaris-IndexTable__Table thead th")
        .evaluateAll((cells) =>
          cells.map((cell) => Math.round(cell.getBoundingClientRect().width)),
        );
      await page.close();
      return found;
    };
    const all = await widths("/app/deliveries");
    expect(all).toHaveLength(8);
    // Rejected rows with a long reason on one, only short "Delivered" states on the other.
    expect(await widths("/app/deliveries?tab=delivered")).toEqual(all);
    expect(await widths("/app/deliveries?tab=cancelled")).toEqual(all);
    // Inside the admin a 1,280 px screen leaves the app's frame about 1,040 px: the table fits
    // it, and the order, amount, courier number and date are never cut (names may be).
    for (const [width, language] of [
      [1040, "en"],
      [1040, "ar"],
      [1280, "ar"],
    ] as const) {
      const page = await open("/app/deliveries", width, language);
      expect(await overflows(page), `${width} ${language}`).toEqual([]);
      const clipped = await page.evaluate(() =>
        [...document.querySelectorAll("table.Polaris-IndexTable__Table tbody tr")].flatMap((row) =>
          [1, 4, 6, 7]
            .map((i) => row.children[i] as HTMLElement | undefined)
            .filter((cell) => cell && cell.scrollWidth > cell.clientWidth + 1)
            .map((cell) => cell!.innerText.trim()),
        ),
      );
      expect(clipped, `${width} ${language}`).toEqual([]);
      await screenshot(page, `deliveries-frame-${language}-${width}`);
      await page.close();
    }
  });

  it("gives a phone its layout in the first paint: the list and home do not move as they load", async () => {
    // Polaris assumes a wide screen until it has measured the window: a phone was sent the wide
    // table, replaced by the condensed rows once the page ran (CLS far above 0.02).
    for (const path of ["/app/deliveries", "/app"]) {
      const page = await open(path, 390, "en", "phone");
      const cls = await page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            let sum = 0;
            new PerformanceObserver((list) => {
              for (const e of list.getEntries() as (PerformanceEntry & { value: number })[])
                sum += e.value;
            }).observe({ type: "layout-shift", buffered: true });
            setTimeout(() => resolve(sum), 300);
          }),
      );
      expect(cls, path).toBeLessThanOrEqual(0.02);
      await page.close();
    }
    const list = await open("/app/deliveries", 390, "en", "phone");
    expect(await list.locator("table.Polaris-IndexTable__Table thead").count()).toBe(0);
    await screenshot(list, "deliveries-phone-en-390");
    expect(await overflows(list)).toEqual([]);
    await list.close();
  });

  it("home's figures count what their links list: delivered today, to send, cash to collect", async () => {
    const home = await open("/app", 1280);
    await expect
      .poll(() => home.getByRole("heading", { name: "Today's deliveries" }).count())
      .toBe(1);
    for (const label of ["Delivered today", "To send", "Failed or returned today"]) {
      const figure = home.getByRole("link", { name: new RegExp(`^${label}`) });
      const shown = Number((await figure.innerText()).replace(/\D/g, ""));
      const list = await open((await figure.getAttribute("href"))!, 1280);
      const rows = await list.locator(".Polaris-IndexTable__TableRow").count();
      expect(rows, label).toBe(shown);
      await list.close();
    }
    // Delivered today: the list says which day it shows, and the merchant can take it away.
    const delivered = home.getByRole("link", { name: /^Delivered today/ });
    const list = await open((await delivered.getAttribute("href"))!, 1280);
    await screenshot(list, "deliveries-finished-today-en-1280");
    expect(await list.getByText(/^Finished on /).count()).toBeGreaterThan(0);
    await list.close();
    await home.close();
  });

  it("finds a customer by name and by phone, and refreshes the rows without a reload", async () => {
    const page = await open("/app/deliveries?q=fatima", 1280);
    await expect.poll(() => page.getByText("No deliveries here").count()).toBe(1);
    await gotoReady(page, page.url().replace("q=fatima", `q=${encodeURIComponent("فاطمة")}`));
    await expect.poll(() => page.getByText("فاطمة الرشيدي").count()).toBeGreaterThan(0);
    await gotoReady(page, page.url().replace(/q=[^&]+/, "q=95550001"));
    await expect.poll(() => page.getByText("#7701").count()).toBe(1);
    await screenshot(page, "deliveries-search-en-1280");
    // A state changed by the worker shows up on its own (the page reads its rows again).
    const row = await prisma.delivery.findFirstOrThrow({ where: { shop, orderName: "#7701" } });
    await prisma.delivery.update({ where: { id: row.id }, data: { state: "returned" } });
    await page.evaluate(() => document.dispatchEvent(new Event("visibilitychange")));
    await expect.poll(() => page.getByText("Returned").count()).toBeGreaterThan(0);
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  it("filters the list by the day a delivery ended, chosen on the admin's calendar in Arabic", async () => {
    const row = await prisma.delivery.findFirstOrThrow({
      where: { shop, lastMovedAt: { not: null } },
      select: { lastMovedAt: true, orderName: true },
    });
    const day = kuwaitDay(row.lastMovedAt!);
    const page = await open(`/app/deliveries?finished=${day}`, 390, "ar", "phone");
    // The applied filter opens its calendar: the month in Arabic, the chosen day pressed.
    await page
      .getByRole("button", { name: /انتهت في/ })
      .first()
      .click();
    const picker = page.locator("[data-day-picker]");
    await picker.waitFor();
    const [year, month, date] = day.split("-").map(Number) as [number, number, number];
    expect(await picker.getByText(`${monthNames("ar")[month - 1]} ${year}`).count()).toBe(1);
    expect(
      await picker
        .locator("button[aria-pressed=true]")
        .filter({ hasText: new RegExp(`^${date}$`) })
        .count(),
    ).toBe(1);
    expect(await page.locator('input[type="date"]').count()).toBe(0);
    await screenshot(page, "deliveries-finished-ar-390");
    expect(await latinTextOnArabicPage(page, BRAND_WORDS)).toEqual([]);
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  it("says a quiet fortnight in words on Home, with every day at 0", async () => {
    // The shop's outcomes moved two months back for this test, and put back after it.
    const moved = await prisma.delivery.findMany({
      where: { shop, lastMovedAt: { not: null } },
      select: { id: true, lastMovedAt: true },
    });
    const shift = async (ms: number) => {
      for (const row of moved)
        await prisma.delivery.update({
          where: { id: row.id },
          data: { lastMovedAt: new Date(row.lastMovedAt!.getTime() + ms) },
        });
    };
    await shift(-60 * 86_400_000);
    try {
      const page = await open("/app", 1280);
      await expect
        .poll(() =>
          page
            .getByText(/^No delivery was delivered, failed or returned in the last 14 days/)
            .count(),
        )
        .toBe(1);
      const counts = await page
        .locator("svg text")
        .evaluateAll((nodes) => nodes.map((n) => n.textContent ?? ""));
      expect(counts.filter((text) => text === "0").length).toBeGreaterThanOrEqual(14);
      await screenshot(page, "home-quiet-en-1280");
      expect(pageErrors).toEqual([]);
      await page.close();
    } finally {
      await shift(0);
    }
  });
});
