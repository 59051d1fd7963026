import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { resetEnvForTests } from "../../app/env.server";
import { loadWhatsAppSender } from "../../app/models/whatsapp-account.server";
import { action, loader } from "../../app/routes/app.settings";
import { startWhatsAppStandIn, type WhatsAppStandIn } from "../../sandbox/whatsapp";
import { adminFetchRequest, callRoute, installShop, shopDomain } from "../support/shopify";
import { TEST_ENCRYPTION_KEYS } from "../support/test-env";

const shop = shopDomain("wa-settings");
const TOKEN = "EAAGstandintoken1234567890";
const APP_SECRET = "0123456789abcdef0123456789abcdef";
const PHONE_NUMBER_ID = "106540352242922";

let standIn: WhatsAppStandIn;

beforeAll(async () => {
  standIn = await startWhatsAppStandIn({
    accessToken: TOKEN,
    appSecret: APP_SECRET,
    statusFlow: "none",
    notOnWhatsApp: ["96555000000"],
  });
  process.env.WHATSAPP_API_URL = standIn.url;
  resetEnvForTests();
});
afterAll(async () => {
  await standIn.close();
});
beforeEach(async () => {
  await installShop(shop);
});

async function post(form: Record<string, string>) {
  const response = await callRoute(
    action,
    await adminFetchRequest(shop, "/app/settings", { form }),
  );
  return { status: response.status, body: await response.json() };
}

async function load() {
  return (await callRoute(loader, await adminFetchRequest(shop, "/app/settings"))).json();
}

const connectForm = (overrides: Record<string, string> = {}) => ({
  intent: "whatsapp-connect",
  phoneNumberId: PHONE_NUMBER_ID,
  accessToken: TOKEN,
  appSecret: APP_SECRET,
  testPhone: "9900 1234",
  testLanguage: "ar",
  ...overrides,
});

describe("connecting WhatsApp from Settings", () => {
  it("keeps the number once the test message went, sealed, and never shows the secrets", async () => {
    const before = standIn.messages.length;
    const { status, body } = await post(connectForm());
    expect(status).toBe(200);
    expect(body).toMatchObject({ ok: true, done: "connected" });
    const sent = standIn.messages.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      to: "96599001234",
      phoneNumberId: PHONE_NUMBER_ID,
      template: { name: "address_check", language: "ar" },
    });

    const row = await prisma.whatsAppAccount.findUniqueOrThrow({ where: { shop } });
    expect(row.accessTokenSealed).toMatch(/^v1\.t1\./);
    expect(row.appSecretSealed).toMatch(/^v1\.t1\./);
    expect(JSON.stringify(row)).not.toContain(TOKEN);
    expect(JSON.stringify(row)).not.toContain(APP_SECRET);
    expect(row.webhookToken).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(row.verifyToken).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(row.enabled).toBe(false);

    const page = await load();
    expect(page.whatsapp).toMatchObject({
      connected: true,
      phoneNumberId: PHONE_NUMBER_ID,
      accessTokenHint: `••••••••${TOKEN.slice(-4)}`,
      callbackUrl: expect.stringMatching(new RegExp(`/whatsapp/webhooks/${row.webhookToken}$`)),
      verifyToken: row.verifyToken,
      webhookVerifiedAt: null,
      quietFrom: "21:00",
      quietUntil: "09:00",
      dailyCapPerOrder: 2,
    });
    const json = JSON.stringify(page);
    expect(json).not.toContain(TOKEN);
    expect(json).not.toContain(APP_SECRET);
  });

  it("opens the sealed token for the sending loop once messages are on", async () => {
    await post(connectForm());
    expect(await loadWhatsAppSender(shop)).toEqual({ status: "off" });
    expect((await post({ intent: "whatsapp-on" })).body).toMatchObject({ ok: true, done: "on" });
    expect(await loadWhatsAppSender(shop)).toMatchObject({
      status: "ready",
      phoneNumberId: PHONE_NUMBER_ID,
      accessToken: TOKEN,
      quiet: { from: 1260, until: 540 },
      dailyCapPerOrder: 2,
      webhookVerified: false,
      templates: { address_check: { ar: "address_check", en: "address_check" } },
    });
  });

  it("says the token was refused, in the merchant's words, and keeps nothing", async () => {
    const { status, body } = await post(connectForm({ accessToken: "EAAGwrongtoken" }));
    expect(status).toBe(400);
    expect(body).toMatchObject({
      ok: false,
      errorKey: "whatsapp.errors.auth",
      field: "accessToken",
    });
    expect(await prisma.whatsAppAccount.count({ where: { shop } })).toBe(0);
  });

  it("gives back what was typed with a refusal, but never the token or the secret", async () => {
    const { body } = await post(connectForm({ accessToken: "EAAGwrongtoken" }));
    expect(body.values).toMatchObject({ phoneNumberId: PHONE_NUMBER_ID, testPhone: "9900 1234" });
    expect(JSON.stringify(body)).not.toContain("EAAGwrongtoken");
    expect(JSON.stringify(body)).not.toContain(APP_SECRET);
  });

  it("refuses a test phone that is not a mobile before calling WhatsApp", async () => {
    const before = standIn.messages.length + standIn.refusals.length;
    const { body } = await post(connectForm({ testPhone: "2222 3333" }));
    expect(body).toMatchObject({
      ok: false,
      errorKey: "whatsapp.errors.testPhone",
      field: "testPhone",
    });
    expect(body.values.testPhone).toBe("2222 3333");
    expect(standIn.messages.length + standIn.refusals.length).toBe(before);
  });

  it("explains a test number that is not on WhatsApp", async () => {
    const { body } = await post(connectForm({ testPhone: "5500 0000" }));
    expect(body).toMatchObject({ ok: false, errorKey: "whatsapp.errors.testPhoneNotOnWhatsApp" });
  });

  it("explains a template not approved under the name typed", async () => {
    await post(connectForm());
    await post({
      intent: "whatsapp-save",
      ...templateFields({ "template.address_check.en": "address_check_v2" }),
      quietFrom: "21:00",
      quietUntil: "09:00",
      dailyCapPerOrder: "2",
    });
    const { body } = await post(
      connectForm({ accessToken: "", appSecret: "", phoneNumberId: "", testLanguage: "en" }),
    );
    expect(body).toMatchObject({ ok: false, errorKey: "whatsapp.errors.template" });
    const row = await prisma.whatsAppAccount.findUniqueOrThrow({ where: { shop } });
    expect(row.checkError).toBe("whatsapp.errors.template");
  });

  it("keeps the working token when a replacement is refused", async () => {
    await post(connectForm());
    await post(connectForm({ accessToken: "EAAGwrongtoken" }));
    await post({ intent: "whatsapp-on" });
    expect(await loadWhatsAppSender(shop)).toMatchObject({ accessToken: TOKEN });
  });

  it("erases the sealed token and secret on disconnect and turns messages off", async () => {
    await post(connectForm());
    await post({ intent: "whatsapp-on" });
    const { body } = await post({ intent: "whatsapp-disconnect" });
    expect(body).toMatchObject({ ok: true, done: "disconnected" });
    const row = await prisma.whatsAppAccount.findUniqueOrThrow({ where: { shop } });
    expect(row).toMatchObject({ accessTokenSealed: "", appSecretSealed: "", enabled: false });
    expect(await loadWhatsAppSender(shop)).toEqual({ status: "off" });
    expect((await load()).whatsapp.connected).toBe(false);
  });

  it("says the stored token can no longer be read after the encryption keys changed", async () => {
    await post(connectForm());
    await post({ intent: "whatsapp-on" });
    process.env.ENCRYPTION_KEYS = `t2:${Buffer.alloc(32, 9).toString("base64")}`;
    resetEnvForTests();
    try {
      expect(await loadWhatsAppSender(shop)).toEqual({ status: "unreadable" });
      const { body } = await post(
        connectForm({ accessToken: "", appSecret: "", phoneNumberId: "" }),
      );
      expect(body).toMatchObject({ ok: false, errorKey: "whatsapp.errors.unreadable" });
    } finally {
      process.env.ENCRYPTION_KEYS = TEST_ENCRYPTION_KEYS;
      resetEnvForTests();
    }
  });
});

function templateFields(overrides: Record<string, string> = {}) {
  const fields: Record<string, string> = {};
  for (const purpose of [
    "address_check",
    "cash_confirmation",
    "out_for_delivery",
    "failed_attempt",
  ])
    for (const language of ["ar", "en"]) fields[`template.${purpose}.${language}`] = purpose;
  return { ...fields, ...overrides };
}

describe("WhatsApp templates and times", () => {
  it("saves template names, quiet hours and the daily cap for the sending loop", async () => {
    await post(connectForm());
    await post({ intent: "whatsapp-on" });
    const { body } = await post({
      intent: "whatsapp-save",
      ...templateFields({ "template.failed_attempt.ar": "failed_attempt_ar" }),
      quietFrom: "22:30",
      quietUntil: "08:00",
      dailyCapPerOrder: "3",
    });
    expect(body).toMatchObject({ ok: true, done: "saved" });
    const sender = await loadWhatsAppSender(shop);
    expect(sender).toMatchObject({
      quiet: { from: 22 * 60 + 30, until: 8 * 60 },
      dailyCapPerOrder: 3,
      templates: { failed_attempt: { ar: "failed_attempt_ar", en: "failed_attempt" } },
    });
  });

  it("refuses a wrong time with what to fix and gives back everything typed", async () => {
    await post(connectForm());
    const form = {
      intent: "whatsapp-save",
      ...templateFields({ "template.cash_confirmation.en": "cash_v3" }),
      quietFrom: "9pm",
      quietUntil: "08:00",
      dailyCapPerOrder: "3",
    };
    const { status, body } = await post(form);
    expect(status).toBe(400);
    expect(body).toMatchObject({
      ok: false,
      errorKey: "whatsapp.errors.quietTime",
      field: "quietFrom",
    });
    expect(body.values).toMatchObject({
      quietFrom: "9pm",
      "template.cash_confirmation.en": "cash_v3",
    });
    const row = await prisma.whatsAppAccount.findUniqueOrThrow({ where: { shop } });
    expect(row.quietFrom).toBe(1260);
  });

  it("refuses a template name WhatsApp Manager could not have", async () => {
    await post(connectForm());
    const { body } = await post({
      intent: "whatsapp-save",
      ...templateFields({ "template.out_for_delivery.ar": "Out For Delivery" }),
      quietFrom: "21:00",
      quietUntil: "09:00",
      dailyCapPerOrder: "2",
    });
    expect(body).toMatchObject({
      errorKey: "whatsapp.errors.templateName",
      field: "template.out_for_delivery.ar",
    });
  });

  it("refuses to turn messages on before a number is connected", async () => {
    const { body } = await post({ intent: "whatsapp-on" });
    expect(body).toMatchObject({ ok: false, errorKey: "whatsapp.errors.notConnected" });
  });
});
