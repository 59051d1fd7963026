import { describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { readCourierApiKey } from "../../app/models/courier-account.server";
import { action, loader } from "../../app/routes/app.settings";
import { setUpCourierSandbox, SANDBOX_KEY } from "../support/courier-sandbox";
import { adminFetchRequest, APP_URL, callRoute, installShop, shopDomain } from "../support/shopify";

const shop = shopDomain("settings");
const sandbox = setUpCourierSandbox();

async function post(form: Record<string, string>, forShop = shop) {
  const response = await callRoute(
    action,
    await adminFetchRequest(forShop, "/app/settings", { form }),
  );
  return { status: response.status, body: await response.json() };
}

async function load(forShop = shop) {
  return (await callRoute(loader, await adminFetchRequest(forShop, "/app/settings"))).json();
}

describe("the settings page's courier connection", () => {
  it("tests a new key against the sandbox, stores it sealed and shows what it found", async () => {
    await installShop(shop);
    const { status, body } = await post({
      intent: "connect",
      courierEnvironment: "sandbox",
      apiKey: SANDBOX_KEY,
    });
    expect(status).toBe(200);
    const governances = sandbox().requestLog.filter((r) => r.endpoint === "governances");
    expect(governances).toHaveLength(1);
    expect(body).toMatchObject({ ok: true, environment: "sandbox", governances: 6 });
    expect(body.areas).toBeGreaterThan(100);

    const row = await prisma.shopSettings.findUniqueOrThrow({ where: { shop } });
    expect(row.courierApiKeySealed).toMatch(/^v1\.t1\./);
    expect(row.courierApiKeySealed).not.toContain(SANDBOX_KEY);
    expect(await readCourierApiKey(shop)).toBe(SANDBOX_KEY);

    const page = await load();
    expect(page.key.hint).toBe(`••••••••${SANDBOX_KEY.slice(-4)}`);
    expect(JSON.stringify(page)).not.toContain(SANDBOX_KEY);
    expect(page.masterData).toMatchObject({ governances: 6, areas: body.areas });
    expect(page.lastCheck.error).toBeNull();
  });

  it("keeps nothing when the courier rejects a new key, and says so in plain words", async () => {
    await installShop(shop);
    const { status, body } = await post({
      intent: "connect",
      courierEnvironment: "sandbox",
      apiKey: "not-the-right-key",
    });
    expect(status).toBe(400);
    expect(body.ok).toBe(false);
    expect(body.error).toMatch(/key/i);
    expect(body.error).not.toContain("not-the-right-key");
    // The merchant's words: not the call's status, header or endpoint.
    expect(body.error).not.toMatch(/HTTP|\d{3}|Authorization|ApiKey|governance/);
    const row = await prisma.shopSettings.findUnique({ where: { shop } });
    expect(row?.courierApiKeySealed ?? null).toBeNull();
    expect(await prisma.courierMasterData.count({ where: { shop } })).toBe(0);
  });

  it("keeps the working key when a replacement is rejected", async () => {
    await installShop(shop);
    await post({ intent: "connect", courierEnvironment: "sandbox", apiKey: SANDBOX_KEY });
    const { body } = await post({
      intent: "connect",
      courierEnvironment: "sandbox",
      apiKey: "wrong-key",
    });
    expect(body.ok).toBe(false);
    expect(await readCourierApiKey(shop)).toBe(SANDBOX_KEY);
  });

  it("re-tests the stored key when no new one is typed", async () => {
    await installShop(shop);
    await post({ intent: "connect", courierEnvironment: "sandbox", apiKey: SANDBOX_KEY });
    const before = sandbox().requestLog.length;
    const { body } = await post({ intent: "connect", courierEnvironment: "sandbox", apiKey: "" });
    expect(body).toMatchObject({ ok: true, governances: 6 });
    expect(sandbox().requestLog.length).toBeGreaterThan(before);
  });

  it("asks for a key when none is stored or typed", async () => {
    await installShop(shop);
    const { status, body } = await post({ intent: "connect", courierEnvironment: "sandbox" });
    expect(status).toBe(400);
    expect(body.error).toBe("Paste the API key the courier issued you.");
    expect(sandbox().requestLog).toHaveLength(0);
  });

  it("refuses a pasted key with spaces inside before calling the courier", async () => {
    await installShop(shop);
    const { body } = await post({
      intent: "connect",
      courierEnvironment: "sandbox",
      apiKey: "abc def",
    });
    expect(body.error).toMatch(/must not contain spaces/);
    expect(sandbox().requestLog).toHaveLength(0);
  });

  it("explains that production is not configured yet and stores nothing", async () => {
    await installShop(shop);
    const { status, body } = await post({
      intent: "connect",
      courierEnvironment: "production",
      apiKey: SANDBOX_KEY,
    });
    expect(status).toBe(400);
    expect(body.error).toMatch(/production address/);
    expect(
      (await prisma.shopSettings.findUnique({ where: { shop } }))?.courierApiKeySealed ?? null,
    ).toBeNull();
  });

  it("rejects an unknown environment with a message saying what to choose", async () => {
    await installShop(shop);
    const { status, body } = await post({
      intent: "connect",
      courierEnvironment: "staging",
      apiKey: SANDBOX_KEY,
    });
    expect(status).toBe(400);
    // A catalog key; the page shows its words in the merchant's language.
    expect(body.errorKey).toBe("errors.environment");
  });

  it("reports the courier being down as such and remembers the failed check of a stored key", async () => {
    await installShop(shop);
    await post({ intent: "connect", courierEnvironment: "sandbox", apiKey: SANDBOX_KEY });
    sandbox().faults.add({ endpoint: "governances", kind: "error", status: 503, times: 5 });
    const { body } = await post({ intent: "refresh-master-data" });
    expect(body.ok).toBe(false);
    expect(body.error).toMatch(/unavailable|try again/i);
    const page = await load();
    expect(page.lastCheck.error).toBe(body.error);
    // The cached master data from the first check is kept.
    expect(page.masterData.governances).toBe(6);
  });

  it("refreshes the master data on demand with the stored key", async () => {
    await installShop(shop);
    await post({ intent: "connect", courierEnvironment: "sandbox", apiKey: SANDBOX_KEY });
    const first = (await load()).masterData.fetchedAt;
    await new Promise((r) => setTimeout(r, 5));
    const { body } = await post({ intent: "refresh-master-data" });
    expect(body.ok).toBe(true);
    expect((await load()).masterData.fetchedAt > first).toBe(true);
  });

  it("removes the key on request, so that it can no longer be read", async () => {
    await installShop(shop);
    await post({ intent: "connect", courierEnvironment: "sandbox", apiKey: SANDBOX_KEY });
    const { body } = await post({ intent: "remove-key" });
    expect(body).toEqual({ ok: true, removed: true });
    expect(await readCourierApiKey(shop)).toBeNull();
    expect((await load()).key).toBeNull();
  });

  it("keeps each shop's key to itself", async () => {
    const other = shopDomain("other-settings");
    await installShop(shop);
    await installShop(other);
    await post({ intent: "connect", courierEnvironment: "sandbox", apiKey: SANDBOX_KEY });
    expect(await readCourierApiKey(other)).toBeNull();
    expect((await load(other)).key).toBeNull();
    // A sealed key copied into another shop's row does not open there.
    const sealed = (await prisma.shopSettings.findUniqueOrThrow({ where: { shop } }))
      .courierApiKeySealed;
    await prisma.shopSettings.upsert({
      where: { shop: other },
      create: { shop: other, courierApiKeySealed: sealed },
      update: { courierApiKeySealed: sealed },
    });
    await expect(readCourierApiKey(other)).rejects.toThrow(/does not decrypt/);
  });

  /** Saves every setting, with automatic sending on and a 90-minute preparation time. */
  async function saveSettings() {
    await installShop(shop);
    return post({
      intent: "save",
      // What a checked Polaris checkbox sends: its empty value.
      autoSend: "",
      paymentCodeCod: "COD",
      paymentCodePrepaid: "PP",
      preparationMinutes: "90",
      markPaidWhen: "settled",
      trackingShopName: "Dar Al Oud",
      trackingContactPhone: "+965 2222 3333",
      trackingContactEmail: "",
    });
  }

  it("saves every setting in one go", async () => {
    const saved = await saveSettings();
    expect(saved).toEqual({ status: 200, body: { ok: true, saved: "settings" } });
    const row = await prisma.shopSettings.findUniqueOrThrow({ where: { shop } });
    expect(row).toMatchObject({
      autoSend: true,
      notifyCustomer: false,
      paymentCodeCod: "COD",
      paymentCodePrepaid: "PP",
      preparationMinutes: 90,
      markCodPaid: false,
      markPaidOnSettlement: true,
      trackingShopName: "Dar Al Oud",
      trackingContactPhone: "+965 2222 3333",
      trackingContactEmail: null,
    });
  });

  it("explains a bad preparation time and keeps the one saved", async () => {
    await saveSettings();
    const bad = await post({ intent: "save", preparationMinutes: "-5" });
    expect(bad.status).toBe(400);
    expect(bad.body.errorKey).toBe("errors.preparationNegative");
    expect(
      (await prisma.shopSettings.findUniqueOrThrow({ where: { shop } })).preparationMinutes,
    ).toBe(90);
    expect((await load()).deliveryOptions).toMatchObject({
      autoSend: true,
      preparationMinutes: 90,
    });
  });

  it("saves when to ask customers and for how long", async () => {
    await installShop(shop);
    const saved = await post({
      intent: "save",
      preparationMinutes: "60",
      askCashConfirmation: "",
      askWindowHours: "48",
    });
    expect(saved.status).toBe(200);
    expect(await prisma.shopSettings.findUniqueOrThrow({ where: { shop } })).toMatchObject({
      askShoppers: false,
      askCashConfirmation: true,
      askWindowHours: 48,
    });
    expect((await load()).askCustomers).toEqual({
      addresses: false,
      cash: true,
      resendOnAnswer: false,
      windowHours: 48,
    });
  });

  it("saves sending again as soon as the customer answers after a failed attempt", async () => {
    await installShop(shop);
    const saved = await post({
      intent: "save",
      preparationMinutes: "60",
      askShoppers: "",
      resendOnRescueAnswer: "",
      askWindowHours: "24",
    });
    expect(saved.status).toBe(200);
    expect(
      (await prisma.shopSettings.findUniqueOrThrow({ where: { shop } })).resendOnRescueAnswer,
    ).toBe(true);
    expect((await load()).askCustomers).toMatchObject({ resendOnAnswer: true });
  });

  it("asks about doubtful addresses within 24 hours until the merchant says otherwise", async () => {
    await installShop(shop);
    await prisma.shopSettings.create({ data: { shop } });
    expect((await load()).askCustomers).toEqual({
      addresses: true,
      cash: false,
      resendOnAnswer: false,
      windowHours: 24,
    });
  });

  for (const [typed, errorKey] of [
    ["0", "errors.askWindowRange"],
    ["169", "errors.askWindowRange"],
    ["1.5", "errors.askWindowWhole"],
    ["", "errors.askWindowNumber"],
    ["a day", "errors.askWindowNumber"],
  ] as const) {
    it(`refuses "${typed}" hours to answer, saying what to write, and saves nothing`, async () => {
      await saveSettings();
      const bad = await post({
        intent: "save",
        askShoppers: "",
        paymentCodeCod: "CHANGED",
        preparationMinutes: "30",
        askWindowHours: typed,
      });
      expect(bad).toEqual({ status: 400, body: { ok: false, errorKey } });
      // Nothing of the refused form is saved: the other settings are as they were.
      expect(await prisma.shopSettings.findUniqueOrThrow({ where: { shop } })).toMatchObject({
        paymentCodeCod: "COD",
        preparationMinutes: 90,
        askWindowHours: 24,
      });
    });
  }

  it("refuses a contact phone with letters in it, saying how to write it", async () => {
    await installShop(shop);
    const bad = await post({
      intent: "save",
      preparationMinutes: "60",
      trackingContactPhone: "call me",
    });
    expect(bad).toEqual({ status: 400, body: { ok: false, errorKey: "errors.phone" } });
  });

  it("needs a session token", async () => {
    const response = await callRoute(
      action,
      new Request(new URL("/app/settings", APP_URL), {
        method: "POST",
        body: new URLSearchParams({ intent: "remove-key" }),
      }),
    );
    expect(response.status).toBe(302);
  });
});
