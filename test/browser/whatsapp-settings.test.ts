import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaClient } from "@prisma/client";
import { API_KEY, API_SECRET_KEY, getJwt } from "@shopify/shopify-api/test-helpers";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { signStatusCallback } from "../../app/whatsapp";
import { launchBrowser, newAdminPage, gotoReady } from "../support/browser";
import { ARTIFACTS_DIR } from "../support/paths";
import path from "node:path";
import fs from "node:fs";

const appUrl = inject("appUrl");
const whatsApp = inject("whatsApp");
const SHOP_NAME = "browser-shop";
const shop = `${SHOP_NAME}.myshopify.com`;
const prisma = new PrismaClient({
  adapter: new PrismaBetterSQLite3({ url: inject("appDatabaseFile") }),
});

let browser: Browser;
const pageErrors: string[] = [];

async function openSettings(
  device: "desktop" | "phone" = "desktop",
  locale: "ar" | "en" = "en",
  pagePath = "/app/settings",
): Promise<Page> {
  const { token } = await getJwt(SHOP_NAME, API_KEY, API_SECRET_KEY);
  const url = new URL(pagePath, appUrl);
  url.searchParams.set("embedded", "1");
  url.searchParams.set("shop", shop);
  url.searchParams.set(
    "host",
    Buffer.from(`admin.shopify.com/store/${SHOP_NAME}`).toString("base64"),
  );
  url.searchParams.set("id_token", token);
  url.searchParams.set("locale", locale);
  const page = await newAdminPage(browser, device);
  page.on("pageerror", (error) => pageErrors.push(error.message));
  const response = await gotoReady(page, url.href);
  expect(response?.status()).toBe(200);
  return page;
}

/** The WhatsApp section alone, as a picture to look at. */
async function sectionShot(page: Page, name: string) {
  const file = path.join(ARTIFACTS_DIR, "browser", `${name}.png`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  await page.locator("[data-settings-section=whatsapp]").screenshot({ path: file });
}

const section = (page: Page) => page.locator("[data-settings-section=whatsapp]");

beforeAll(async () => {
  browser = await launchBrowser();
  await prisma.whatsAppAccount.deleteMany({ where: { shop } });
});

afterAll(async () => {
  await browser?.close();
  await prisma.$disconnect();
});

describe("Settings' WhatsApp messages", () => {
  it("refuses a wrong token keeping what was typed, then connects with a test message", async () => {
    const page = await openSettings();
    const wa = section(page);
    // The first page of a fresh server installs the shop first: more time than the default.
    await expect
      .poll(() => wa.getByRole("heading", { name: "WhatsApp messages" }).count(), {
        timeout: 60_000,
      })
      .toBe(1);
    await sectionShot(page, "settings-whatsapp-new");
    await wa.getByLabel("Phone number ID").fill("106540352242922");
    await wa.getByLabel("Access token").fill("EAAGwrongtoken");
    await wa.getByLabel("App secret").fill(whatsApp.appSecret);
    await wa.getByLabel("Send the test message to").fill("9900 1234");
    await wa.getByRole("button", { name: "Send a test message and connect" }).click();
    await expect.poll(() => wa.getByText("WhatsApp refused the access token.").count()).toBe(1);
    expect(await wa.getByLabel("Phone number ID").inputValue()).toBe("106540352242922");
    expect(await wa.getByLabel("Send the test message to").inputValue()).toBe("9900 1234");
    await sectionShot(page, "settings-whatsapp-refused");
    expect(await prisma.whatsAppAccount.count({ where: { shop } })).toBe(0);

    await wa.getByLabel("Access token").fill(whatsApp.accessToken);
    await wa.getByRole("button", { name: "Send a test message and connect" }).click();
    await expect
      .poll(() =>
        page
          .locator("[data-standin-toast]")
          .getByText(/WhatsApp connected/)
          .count(),
      )
      .toBe(1);
    await expect.poll(() => wa.getByText("Not verified yet").count()).toBe(1);
    expect(await page.content()).not.toContain(whatsApp.accessToken);
    expect(await page.content()).not.toContain(whatsApp.appSecret);
    expect(await wa.getByLabel("Access token", { exact: true }).count()).toBe(0);
    await sectionShot(page, "settings-whatsapp-connected");
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  it("shows Meta's handshake through the real server as verified", async () => {
    const account = await prisma.whatsAppAccount.findUniqueOrThrow({ where: { shop } });
    const base = `${appUrl}/whatsapp/webhooks/${account.webhookToken}`;
    const wrong = await fetch(`${base}?hub.mode=subscribe&hub.verify_token=nope&hub.challenge=7`);
    expect(wrong.status).toBe(403);
    const right = await fetch(
      `${base}?hub.mode=subscribe&hub.verify_token=${account.verifyToken}&hub.challenge=7`,
    );
    expect(right.status).toBe(200);
    expect(await right.text()).toBe("7");
    const body = JSON.stringify({ object: "whatsapp_business_account", entry: [] });
    const forged = await fetch(base, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-hub-signature-256": signStatusCallback(body, "not the secret"),
      },
      body,
    });
    expect(forged.status).toBe(401);
    const signed = await fetch(base, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-hub-signature-256": signStatusCallback(body, whatsApp.appSecret),
      },
      body,
    });
    expect(signed.status).toBe(200);

    const page = await openSettings();
    await expect.poll(() => section(page).getByText("Verified", { exact: true }).count()).toBe(1);
    await page.close();
  });

  for (const [device, locale] of [
    ["desktop", "ar"],
    ["phone", "ar"],
    ["phone", "en"],
    ["desktop", "en"],
  ] as const) {
    it(`lays out on a ${device} in ${locale} without scrolling sideways`, async () => {
      const page = await openSettings(device, locale);
      await expect.poll(() => section(page).locator("h2").count()).toBeGreaterThan(0);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
      await sectionShot(page, `settings-whatsapp-${locale}-${device}`);
      await page.close();
    });
  }
});

describe("a delivery's WhatsApp messages", () => {
  it("shows each message's purpose and latest status in both languages", async () => {
    const orderId = "gid://shopify/Order/990001";
    await prisma.shopperMessage.deleteMany({ where: { shop, orderId } });
    await prisma.delivery.deleteMany({ where: { shop, orderId } });
    const delivery = await prisma.delivery.create({
      data: {
        shop,
        orderId,
        orderName: "#990001",
        fulfillmentId: "gid://shopify/Fulfillment/990001",
        source: "webhook",
        state: "pending",
        environment: "sandbox",
        reference: "SHPFY-wa-browser",
      },
    });
    const at = new Date(Date.now() - 3_600_000);
    const later = new Date(Date.now() + 9 * 3_600_000);
    const base = { shop, orderId, orderName: "#990001", language: "ar", notBefore: at };
    await prisma.shopperMessage.createMany({
      data: [
        {
          ...base,
          purpose: "address_check",
          dedupeKey: "b:1",
          state: "read",
          sentAt: at,
          deliveredAt: at,
          readAt: at,
          createdAt: at,
        },
        {
          ...base,
          purpose: "cash_confirmation",
          dedupeKey: "b:2",
          state: "failed",
          failedAt: at,
          lastError:
            "WhatsApp could not deliver it (code 131026): the number is not on WhatsApp or cannot receive business messages.",
          createdAt: at,
        },
        {
          ...base,
          purpose: "failed_attempt",
          dedupeKey: "b:3",
          state: "skipped",
          skipReason: "opted_out",
        },
        {
          ...base,
          purpose: "out_for_delivery",
          dedupeKey: "b:4",
          state: "queued",
          notBefore: later,
          nextAttemptAt: later,
          language: "en",
        },
      ],
    });
    // English last: the staff language a visit chooses stays for the next test files.
    for (const [device, locale] of [
      ["phone", "ar"],
      ["desktop", undefined],
    ] as const) {
      const page = await openSettings(device, locale, `/app/deliveries/${delivery.id}`);
      const card = page
        .locator("li[data-whatsapp-message]")
        .first()
        .locator("xpath=ancestor::ol/..");
      await expect.poll(() => page.locator("li[data-whatsapp-message]").count()).toBe(4);
      const file = path.join(
        ARTIFACTS_DIR,
        "browser",
        `delivery-whatsapp-${locale ?? "en"}-${device}.png`,
      );
      await card.screenshot({ path: file });
      if (!locale) {
        expect(await card.innerText()).toMatch(/Read by the customer/);
        expect(await card.innerText()).toMatch(/not on WhatsApp/);
        expect(await card.innerText()).toMatch(/asked for no more WhatsApp messages/);
        expect(await card.innerText()).toMatch(/Quiet hours: it goes/);
      } else {
        expect(await card.innerText()).toMatch(/قرأها العميل/);
      }
      await page.close();
    }
  });
});
