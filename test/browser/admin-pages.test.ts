import fs from "node:fs";
import path from "node:path";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaClient } from "@prisma/client";
import { API_KEY, API_SECRET_KEY, getJwt } from "@shopify/shopify-api/test-helpers";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import {
  collectPageErrors,
  launchBrowser,
  newAdminPage,
  screenshot,
  gotoReady,
  reloadReady,
} from "../support/browser";
import { latinTextOnArabicPage, KEPT_IN_LATIN } from "../support/page-checks";
import { ARTIFACTS_DIR } from "../support/paths";
import { SANDBOX_KEY } from "../support/test-env";

const appUrl = inject("appUrl");
const SHOP_NAME = "browser-shop";
const shop = `${SHOP_NAME}.myshopify.com`;
const prisma = new PrismaClient({
  adapter: new PrismaBetterSQLite3({ url: inject("appDatabaseFile") }),
});

let browser: Browser;
const pageErrors: string[] = [];

/** The URL the Shopify admin loads in its iframe: shop, host and a fresh session token. */
async function embeddedUrl(path: string): Promise<string> {
  const { token } = await getJwt(SHOP_NAME, API_KEY, API_SECRET_KEY);
  const url = new URL(path, appUrl);
  url.searchParams.set("embedded", "1");
  url.searchParams.set("shop", shop);
  url.searchParams.set(
    "host",
    Buffer.from(`admin.shopify.com/store/${SHOP_NAME}`).toString("base64"),
  );
  url.searchParams.set("id_token", token);
  return url.href;
}

async function openEmbedded(path: string, device: "desktop" | "phone" = "desktop"): Promise<Page> {
  const page = await newAdminPage(browser, device);
  collectPageErrors(page, pageErrors);
  const response = await gotoReady(page, await embeddedUrl(path));
  expect(response?.status()).toBe(200);
  return page;
}

beforeAll(async () => {
  // The first page load installs the shop: token exchange with the Shopify stand-in.
  browser = await launchBrowser();
  // The browser test files share one shop and run in an order of vitest's choosing: these tests
  // start from a shop whose courier is not connected yet, whatever a file before them left.
  await prisma.$transaction([
    prisma.courierMasterData.deleteMany({ where: { shop } }),
    prisma.courierStatusMapping.deleteMany({ where: { shop } }),
    prisma.shopSettings.updateMany({
      where: { shop },
      data: {
        courierEnvironment: "sandbox",
        courierApiKeySealed: null,
        courierApiKeyHint: null,
        courierApiKeySetAt: null,
        courierCheckedAt: null,
        courierCheckError: null,
      },
    }),
  ]);
});

afterAll(async () => {
  await browser?.close();
  await prisma.$disconnect();
});

describe("the embedded admin in Chromium", () => {
  it("renders the home page inside the admin frame headers Shopify requires", async () => {
    const direct = await fetch(await embeddedUrl("/app"), {
      redirect: "manual",
      headers: { "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0.0.0 Safari/537.36" },
    });
    expect(direct.status).toBe(200);
    expect(direct.headers.get("content-security-policy")).toContain(
      `frame-ancestors https://${shop} https://admin.shopify.com`,
    );

    const page = await openEmbedded("/app");
    // Home is the day's dashboard; a shop whose courier is not connected sees the setup list.
    await expect
      .poll(() => page.getByRole("heading", { name: "Today's deliveries" }).count())
      .toBe(1);
    expect(await page.getByText("Set up deliveries").isVisible()).toBe(true);
    expect(
      await page
        .getByRole("link", { name: "Connect your courier account in Settings" })
        .getAttribute("href"),
    ).toBe("/app/settings");
    expect(await page.getByText("Deliveries go to the courier's test service").isVisible()).toBe(
      true,
    );
    const file = await screenshot(page, "home");
    expect(fs.statSync(file).size).toBeGreaterThan(5_000);
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  it("connects the courier from the settings page after refusing a bad key", async () => {
    const page = await openEmbedded("/app");
    await page.getByRole("link", { name: "Settings" }).first().click();
    await page.waitForURL(/\/app\/settings/);
    await expect.poll(() => page.getByRole("heading", { name: "Settings" }).count()).toBe(1);
    expect(await page.getByText("Not read yet").isVisible()).toBe(true);
    expect(await page.getByLabel("Live: real parcels").isDisabled()).toBe(true);

    await page.getByLabel("Test (sandbox): no real parcels").check();
    await page.getByLabel("API key").fill("not-the-right-key");
    await page.getByRole("button", { name: "Test connection and save" }).click();
    await expect.poll(() => page.getByText("The connection did not work").count()).toBe(1);
    const refusal = await page.locator(".Polaris-Banner").first().innerText();
    expect(refusal).toMatch(/key/i);
    expect(refusal).not.toContain("not-the-right-key");
    expect(refusal).not.toMatch(/HTTP|Authorization|ApiKey|governance/);
    await screenshot(page, "settings-bad-key");
    const afterRefusal = await prisma.shopSettings.findUnique({ where: { shop } });
    expect(afterRefusal?.courierApiKeySealed ?? null).toBeNull();

    await page.getByLabel("API key").fill(SANDBOX_KEY);
    await page.getByRole("button", { name: "Test connection and save" }).click();
    // Success is a toast, and the failure's banner is gone.
    await expect
      .poll(() =>
        page
          .locator("[data-standin-toast]")
          .getByText(/Connected to the courier's test environment: 6 governorates and \d+ areas/)
          .count(),
      )
      .toBe(1);
    expect(await page.getByText("The connection did not work").count()).toBe(0);
    // The toast comes with the action's answer; the page's data is read again just after it.
    await expect
      .poll(() => page.getByText(/Last checked .*: the connection worked\./).count())
      .toBe(1);
    expect(await page.getByText("Saved API key:").innerText()).toContain(
      `••••••••${SANDBOX_KEY.slice(-4)}`,
    );
    expect(await page.content()).not.toContain(SANDBOX_KEY);
    await screenshot(page, "settings-connected");

    const settings = await prisma.shopSettings.findUniqueOrThrow({ where: { shop } });
    expect(settings.courierApiKeySealed).toMatch(/^v1\./);
    expect(settings.courierEnvironment).toBe("sandbox");
    expect(await prisma.courierMasterData.count({ where: { shop } })).toBe(1);
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  it("shows the courier's statuses with what they mean, and keeps the merchant's changes", async () => {
    const page = await openEmbedded("/app/settings");
    // Read from the courier's master data when the key was tested (previous test). All have a
    // meaning: they stay folded behind one line until the merchant asks to see them.
    await expect
      .poll(() => page.getByText("Courier statuses: 10, of which 0 set by you").count())
      .toBe(1);
    expect(await page.locator("div[data-status]").count()).toBe(0);
    // The section is one line, not twenty choices.
    const height = await page.evaluate(
      () =>
        document
          .getElementById("status-mapping-summary")
          ?.closest(".Polaris-ShadowBevel")
          ?.getBoundingClientRect().height,
    );
    expect(height).toBeLessThan(200);
    await page.getByRole("button", { name: "Show and change" }).click();
    await expect.poll(() => page.locator("div[data-status]").count()).toBe(10);
    expect(await page.getByText("Some courier statuses have no meaning yet").count()).toBe(0);
    const inApp = (code: string) => page.locator(`select[name="state:${code}"]`);
    const onShopify = (code: string) => page.locator(`select[name="shopify:${code}"]`);
    expect(await inApp("delivery_failed").inputValue()).toBe("failed");
    expect(await onShopify("delivery_failed").inputValue()).toBe("ATTEMPTED_DELIVERY");
    expect(await onShopify("assigned").inputValue()).toBe("CONFIRMED");
    // Nothing is edited yet: no save bar.
    expect(await page.locator("ui-save-bar[data-shown]").count()).toBe(0);

    // A status the courier started using that nothing recognizes: shown, not guessed.
    await prisma.courierStatusMapping.create({
      data: { shop, code: "held_at_customs", name: "محجوز في الجمارك", source: "unmapped" },
    });
    await reloadReady(page);
    await expect
      .poll(() => page.getByText("Some courier statuses have no meaning yet").count())
      .toBe(1);
    await inApp("held_at_customs").selectOption("unchanged");
    await onShopify("held_at_customs").selectOption("DELAYED");
    await onShopify("assigned").selectOption("");
    // An edit shows the save bar; its Save sends the whole form at once.
    await expect.poll(() => page.locator("ui-save-bar[data-shown]").count()).toBe(1);
    await screenshot(page, "settings-unsaved");
    await page.locator("ui-save-bar button[variant=primary]").click();
    await expect
      .poll(() => page.locator("[data-standin-toast]").getByText("Settings saved").count())
      .toBe(1);
    // The page's data is read again after the save, and the bar goes away.
    await expect
      .poll(() => page.getByText("Some courier statuses have no meaning yet").count())
      .toBe(0);
    await expect.poll(() => page.locator("ui-save-bar[data-shown]").count()).toBe(0);
    await screenshot(page, "settings-status-mapping");
    const rows = await prisma.courierStatusMapping.findMany({
      where: { shop, code: { in: ["held_at_customs", "assigned", "accepted"] } },
      orderBy: { code: "asc" },
    });
    expect(rows.map((r) => [r.code, r.state, r.shopifyStatus, r.source])).toEqual([
      ["accepted", "created", "CONFIRMED", "default"],
      ["assigned", "created", null, "merchant"],
      ["held_at_customs", "unchanged", "DELAYED", "merchant"],
    ]);
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  it("keeps an edit not saved yet when another button on the page reloads its data", async () => {
    const page = await openEmbedded("/app/settings");
    const onShopify = (code: string) => page.locator(`select[name="shopify:${code}"]`);
    await page.getByRole("button", { name: "Show and change" }).click();
    await expect.poll(() => onShopify("assigned").count()).toBe(1);
    await onShopify("assigned").selectOption("DELAYED");
    await expect.poll(() => page.locator("ui-save-bar[data-shown]").count()).toBe(1);
    // Reading the courier's areas again is a form of its own; the page's data reloads after it.
    const reloaded = page.waitForResponse(
      (r) => r.request().method() === "GET" && /\/app\/settings\.data/.test(r.url()),
    );
    await page.getByRole("button", { name: "Read the list again" }).click();
    await expect
      .poll(() =>
        page.locator("[data-standin-toast]").getByText("Areas and governorates read again").count(),
      )
      .toBe(1);
    await reloaded;
    // Past the reload's render: the edit is still there and the save bar still open.
    await page.waitForTimeout(500);
    expect(await onShopify("assigned").inputValue()).toBe("DELAYED");
    expect(await page.locator("ui-save-bar[data-shown]").count()).toBe(1);
    // Nothing was saved behind the merchant's back.
    const row = await prisma.courierStatusMapping.findFirstOrThrow({
      where: { shop, code: "assigned" },
    });
    expect(row.shopifyStatus).toBeNull();
    await page.locator("ui-save-bar button:not([variant])").click();
    await expect.poll(() => page.locator("ui-save-bar[data-shown]").count()).toBe(0);
    await page.close();
  });

  it("offers payment methods in words, the courier's link with copy buttons and Shopify's shop name", async () => {
    await prisma.shopSettings.update({
      where: { shop },
      data: {
        paymentCodeCod: "cod",
        paymentCodePrepaid: "PP-7",
        trackingShopName: null,
        shopifyShopName: "Dar Al Oud",
      },
    });
    const page = await openEmbedded("/app/settings");
    const cod = page.getByLabel("Orders with cash to collect are sent as");
    await expect.poll(() => cod.count()).toBe(1);
    // A stored code reads as words; another code the courier gave stays typed as it was.
    expect(await cod.inputValue()).toBe("standard");
    expect(await page.getByLabel("Orders already paid are sent as").inputValue()).toBe("other");
    expect(await page.getByLabel("The courier's code").inputValue()).toBe("PP-7");
    expect(await page.getByLabel("Shop name").getAttribute("placeholder")).toBe("Dar Al Oud");
    await page.getByLabel("Orders already paid are sent as").selectOption("standard");
    await page.locator("ui-save-bar button[variant=primary]").click();
    await expect
      .poll(() => page.locator("[data-standin-toast]").getByText("Settings saved").count())
      .toBe(1);
    const saved = await prisma.shopSettings.findUniqueOrThrow({ where: { shop } });
    expect([saved.paymentCodeCod, saved.paymentCodePrepaid]).toEqual(["cod", "PREPAID"]);

    // Another file of the shared shop may have left them on: off first, then on from here.
    const turnOn = page.getByRole("button", { name: "Turn on instant updates" });
    const turnOff = page.getByRole("button", { name: "Turn off instant updates" });
    await expect.poll(async () => (await turnOn.count()) + (await turnOff.count())).toBe(1);
    if ((await turnOff.count()) > 0) await turnOff.click();
    await turnOn.click();
    await expect
      .poll(() => page.getByRole("button", { name: "Copy: Password for the link" }).count())
      .toBe(1);
    expect(
      await page.getByRole("button", { name: "Copy: Link for the courier's updates" }).count(),
    ).toBe(1);
    expect(await page.getByText(/ask them to send their delivery updates/).count()).toBe(1);
    await screenshot(page, "settings-payment-and-push");
    // Off again: the browser files share one shop, and another turns pushes on itself.
    await turnOff.click();
    await expect.poll(() => turnOn.count()).toBe(1);
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  it("keeps Settings short on a phone in Arabic, every choice inside the screen", async () => {
    const phone = await openEmbedded("/app/settings?locale=ar", "phone");
    await phone.waitForLoadState("networkidle");
    await phone.getByRole("button", { name: "عرض وتغيير" }).click();
    await expect.poll(() => phone.locator("div[data-status]").count()).toBeGreaterThan(0);
    await screenshot(phone, "settings-ar-390");
    // While checkout rates are off their choices are folded behind what they are now: Settings
    // on a phone is about half as tall as with them open.
    const folded = await phone.evaluate(() => document.documentElement.scrollHeight);
    expect(await phone.locator("[data-rate-choices-summary] li").count()).toBe(6);
    await phone.getByRole("button", { name: "تغيير اختيارات أسعار التوصيل" }).click();
    await expect.poll(() => phone.getByLabel("السعر الاحتياطي").count()).toBe(1);
    const open = await phone.evaluate(() => document.documentElement.scrollHeight);
    expect(open - folded).toBeGreaterThan(1500);
    const cut = await phone.evaluate(
      () =>
        [...document.querySelectorAll(".Polaris-Select")]
          .map((el) => el.getBoundingClientRect())
          .filter((box) => box.width > 0 && (box.left < 0 || box.right > 390)).length,
    );
    expect(cut).toBe(0);
    // The cut-off and holidays in the page's language, not the browser's date and time boxes.
    expect(await phone.locator('input[type="time"], input[type="date"]').count()).toBe(0);
    expect(await phone.getByRole("option", { name: "ديسمبر" }).count()).toBe(1);
    expect(
      await latinTextOnArabicPage(phone, [...KEPT_IN_LATIN, "name@example.com", "Dar Al Oud"]),
    ).toEqual([]);
    await phone.close();
    // The staff member's language back to English for the tests after this one.
    await (await openEmbedded("/app/settings?locale=en-US")).close();
    expect(pageErrors).toEqual([]);
  });

  it("lists a customer's data request and downloads what the app holds on their orders", async () => {
    await prisma.delivery.create({
      data: {
        shop,
        orderId: "gid://shopify/Order/424242",
        orderName: "#4242",
        fulfillmentId: "gid://shopify/Fulfillment/424242",
        source: "webhook",
        state: "delivered",
        environment: "sandbox",
        reference: "SHPFY-privacy-1",
        request: JSON.stringify({ deliveryAddress: { contactName: "Mariam Al-Sabah" } }),
      },
    });
    await prisma.complianceRequest.create({
      data: {
        shop,
        topic: "customers/data_request",
        webhookId: "privacy-browser-1",
        customerId: "5150",
        orderIds: '["424242"]',
        completedAt: new Date(),
        outcome: "1 delivery held for these orders; download them here.",
      },
    });
    const page = await openEmbedded("/app");
    await page.getByRole("link", { name: "Privacy requests" }).first().click();
    await page.waitForURL(/\/app\/privacy/);
    await expect.poll(() => page.getByText("Data request", { exact: true }).count()).toBe(1);
    // The customer as Shopify's own page for them, one click away; the outcome in words.
    const customer = page.getByRole("link", { name: "Customer 5150" });
    expect(await customer.getAttribute("href")).toContain("customers/5150");
    expect(await page.getByText("Deliveries held for these orders: 1.").count()).toBe(1);
    await screenshot(page, "privacy-requests");

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Download data" }).click(),
    ]);
    const file = await download.path();
    const data = JSON.parse(fs.readFileSync(file, "utf8")) as {
      customerId: string;
      deliveries: { orderName: string; courierRequest: unknown }[];
    };
    expect(data.customerId).toBe("5150");
    expect(data.deliveries.map((d) => d.orderName)).toEqual(["#4242"]);
    expect(JSON.stringify(data.deliveries[0]!.courierRequest)).toContain("Mariam Al-Sabah");
    expect(pageErrors).toEqual([]);
    await page.close();

    // On a phone, in Arabic: the outcome in Arabic, Download on screen, nothing to scroll sideways.
    for (const language of ["ar", "en"] as const) {
      const phone = await openEmbedded(
        `/app/privacy?locale=${language === "ar" ? "ar" : "en-US"}`,
        "phone",
      );
      await phone.waitForLoadState("networkidle");
      const button = phone.getByRole("button", {
        name: language === "ar" ? "تنزيل البيانات" : "Download data",
      });
      const box = (await button.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
      expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        390,
      );
      if (language === "ar") {
        expect(
          await phone.getByText("التوصيلات المحفوظة لهذه الطلبات: 1.", { exact: false }).count(),
        ).toBe(1);
        expect(await latinTextOnArabicPage(phone, ["Shopify", "English"])).toEqual([]);
      }
      await screenshot(phone, `privacy-requests-${language}-390`);
      await phone.close();
    }
    expect(pageErrors).toEqual([]);
  });

  it("keeps session tokens out of the server's request log", async () => {
    await openEmbedded("/app").then((page) => page.close());
    const log = fs.readFileSync(path.join(ARTIFACTS_DIR, "browser", "app-server.log"), "utf8");
    expect(log).toContain("GET /app 200");
    expect(log).not.toContain("id_token");
    expect(log).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}/);
  });

  it("turns a page opened without a session token away to the login page", async () => {
    const page = await newAdminPage(browser);
    await gotoReady(page, `${appUrl}/app/settings`);
    await page.waitForURL(/\/auth\/login/);
    expect(await page.getByLabel("Shop domain").isVisible()).toBe(true);
    await page.close();
  });
});
