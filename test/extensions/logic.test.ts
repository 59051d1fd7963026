import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parse } from "smol-toml";
import { describe, expect, it, vi } from "vitest";
import type { DeliveryView, OrderDeliveriesResponse } from "../../app/api-contract";
import { stateTone } from "../../app/components/delivery-state";
import { DELIVERY_STATES } from "../../app/domain/states";
import { deliveryView as appDeliveryView } from "../../app/extension-api/delivery-view";
import { ADMIN_API_VERSION } from "../../app/shopify/api-version";
import { AppApiError, createAppApi, labelsSrc, numericId } from "../../extensions/shared/api";
import { runBulkSend } from "../../extensions/shared/bulk-send";
import {
  deliveryRow,
  hasLabel,
  quoteLines,
  sendActionModel,
  sendActionUseful,
} from "../../extensions/shared/deliveries";
import { ROOT } from "../support/paths";

const EXTENSIONS = path.join(ROOT, "extensions");
const t = (key: string, replacements?: Record<string, string | number>) =>
  replacements ? `${key} ${JSON.stringify(replacements)}` : key;

function view(overrides: Partial<DeliveryView> = {}): DeliveryView {
  return {
    id: "cldelivery0000000000001",
    state: "created",
    stateLabel: "Created at the courier",
    tone: "info",
    problem: null,
    courierOrderNumber: "KW0088123",
    trackingUrl: "https://app.example.com/tracking/abc",
    cashToCollect: "12.500 KWD",
    cancelRequested: false,
    actions: { cancel: true, fixAddress: false, printLabel: true },
    fixAddressPath: null,
    ...overrides,
  };
}

function order(
  deliveries: DeliveryView[],
  send: { possible: boolean; reason: string | null } = { possible: false, reason: "Sent already." },
) {
  return { orderId: "gid://shopify/Order/7001", orderName: "#1042", deliveries, send };
}

/** The `shopify` global an extension sees, as far as the API client uses it. */
const fakeShopify = { auth: { idToken: async () => "session.token.of-shop-a" } };

describe("the app API client", () => {
  it("sends the session token and reads the order's deliveries by numeric id", async () => {
    const fetch = vi.fn(async (_url: string, _init?: RequestInit) =>
      Response.json(order([view()])),
    );
    const api = createAppApi(fakeShopify, fetch);
    const answer = await api.orderDeliveries("gid://shopify/Order/7001");
    expect(answer.orderName).toBe("#1042");
    expect(fetch).toHaveBeenCalledWith("/api/orders/7001", {
      headers: { Accept: "application/json", Authorization: "Bearer session.token.of-shop-a" },
    });
  });

  it("posts a send as JSON", async () => {
    const fetch = vi.fn(async (_url: string, _init?: RequestInit) =>
      Response.json({ outcomes: [] }),
    );
    await createAppApi(fakeShopify, fetch).send(["gid://shopify/Order/7001"]);
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe("/api/send");
    expect(init?.method).toBe("POST");
    expect(JSON.parse(String(init?.body))).toEqual({ orderIds: ["gid://shopify/Order/7001"] });
  });

  it("turns the app's error answer into an error with its words", async () => {
    const fetch = async () =>
      Response.json({ error: "No such order in this shop." }, { status: 404 });
    await expect(
      createAppApi(fakeShopify, fetch).orderDeliveries("gid://shopify/Order/1"),
    ).rejects.toEqual(new AppApiError(404, "No such order in this shop.", true));
  });

  it("tells an app that did not answer from one that answered without its words", async () => {
    const offline = createAppApi(fakeShopify, async () => {
      throw new TypeError("Failed to fetch");
    });
    await expect(offline.orderDeliveries("gid://shopify/Order/1")).rejects.toMatchObject({
      status: 0,
      fromApp: false,
    });
    const gateway = createAppApi(fakeShopify, async () => new Response("<html>", { status: 502 }));
    await expect(gateway.orderDeliveries("gid://shopify/Order/1")).rejects.toMatchObject({
      status: 502,
      fromApp: false,
    });
  });

  it("gives a refused cancel's outcome rather than an error", async () => {
    const fetch = async () =>
      Response.json({ ok: false, error: "The courier refused to cancel." }, { status: 409 });
    expect(await createAppApi(fakeShopify, fetch).cancel("cldelivery0000000000001")).toEqual({
      ok: false,
      error: "The courier refused to cancel.",
    });
  });

  it("builds the labels document's address, and none without orders", () => {
    expect(labelsSrc(["gid://shopify/Order/7001", "gid://shopify/Order/7002"], "4x6")).toBe(
      "/api/labels?orderIds=gid%3A%2F%2Fshopify%2FOrder%2F7001%2Cgid%3A%2F%2Fshopify%2FOrder%2F7002&size=4x6",
    );
    expect(labelsSrc([], "A6")).toBeUndefined();
    expect(numericId("gid://shopify/Order/7001")).toBe("7001");
  });
});

describe("what the block shows for each delivery", () => {
  it("shows a created delivery's number, cash, and print and cancel buttons", () => {
    expect(deliveryRow(view(), t)).toEqual({
      id: "cldelivery0000000000001",
      state: "state.created",
      tone: "info",
      courierOrderNumber: "KW0088123",
      trackingUrl: "https://app.example.com/tracking/abc",
      cash: 'cash.collect {"amount":"12.500 KWD"}',
      problem: null,
      buttons: ["print_label", "cancel"],
    });
  });

  it("shows the problem and Fix address for a delivery waiting for its address", () => {
    const row = deliveryRow(
      view({
        state: "needs_address",
        tone: "critical",
        problem: "The area could not be recognised.",
        courierOrderNumber: null,
        cashToCollect: null,
        actions: { cancel: true, fixAddress: true, printLabel: false },
      }),
      t,
    );
    expect(row).toMatchObject({
      tone: "critical",
      cash: "cash.paid",
      problem: "The area could not be recognised.",
      buttons: ["fix_address", "cancel"],
    });
  });

  it("says a cancellation is under way instead of offering it again", () => {
    const row = deliveryRow(
      view({
        cancelRequested: true,
        actions: { cancel: false, fixAddress: false, printLabel: true },
      }),
      t,
    );
    expect(row.problem).toBe("cancel.requested");
    expect(row.buttons).toEqual(["print_label"]);
  });
});

describe("a state's colour", () => {
  it("is the one the app's own pages give it, for every state", () => {
    for (const state of DELIVERY_STATES) {
      const served = appDeliveryView({
        id: "d1",
        state,
        stateReason: null,
        courierOrderId: null,
        courierOrderNumber: null,
        trackingUrl: null,
        cashToCollect: null,
        cancelRequestedAt: null,
      });
      const appTone = stateTone(state);
      const expected =
        appTone === undefined ? "neutral" : appTone === "attention" ? "warning" : appTone;
      expect(deliveryRow(served, t).tone, state).toBe(expected);
    }
    // The two the order page used to colour differently: returned and waiting for an address.
    expect(stateTone("returned")).toBe("warning");
    expect(stateTone("needs_address")).toBe("critical");
  });
});

describe("the order page's actions", () => {
  const quote = {
    ok: true as const,
    price: 2.5,
    currency: "KWD",
    basis: {
      weightKg: 1.25,
      weightKnown: true,
      value: 12.5,
      cashOnDelivery: true,
      from: "Salmiya store (Salmiya)",
      to: "Hawalli (Hawalli)",
    },
  };

  it("offers Fix address before anything else", () => {
    const waiting = view({
      id: "clwaiting00000000000001",
      state: "needs_address",
      problem: "The area could not be recognised.",
      actions: { cancel: true, fixAddress: true, printLabel: false },
      fixAddressPath: "/app/address-review",
    });
    expect(sendActionModel(order([waiting], { possible: true, reason: null }), quote)).toEqual({
      kind: "fix_address",
      deliveryId: "clwaiting00000000000001",
      problem: "The area could not be recognised.",
      path: "/app/address-review",
    });
  });

  it("offers Send with the quote when the order can be sent", () => {
    const model = sendActionModel(order([], { possible: true, reason: null }), quote);
    expect(model).toEqual({ kind: "send", quote });
    expect(quoteLines(quote, t)).toEqual([
      'quote.price {"price":"2.500","currency":"KWD"}',
      'quote.route {"from":"Salmiya store (Salmiya)","to":"Hawalli (Hawalli)"}',
      'quote.weight {"weight":1.25}',
      'quote.cod {"value":"12.500"}',
    ]);
  });

  it("hides Send where it can do nothing and the print action where there is no label", () => {
    const sent = order([view()]);
    expect(sendActionUseful(sent)).toBe(false);
    expect(sendActionModel(sent, null)).toEqual({ kind: "nothing", reason: "Sent already." });
    expect(hasLabel(sent)).toBe(true);
    const unsent: OrderDeliveriesResponse = order([], { possible: true, reason: null });
    expect(sendActionUseful(unsent)).toBe(true);
    expect(hasLabel(unsent)).toBe(false);
  });
});

describe("bulk send", () => {
  const ids = Array.from({ length: 23 }, (_, i) => `gid://shopify/Order/${9000 + i}`);

  it("sends in batches the app accepts and follows each delivery until its outcome is known", async () => {
    const batches: string[][] = [];
    let looks = 0;
    const api = {
      send: async (orderIds: readonly string[]) => {
        batches.push([...orderIds]);
        return {
          outcomes: orderIds.map((orderId) =>
            orderId.endsWith("9005")
              ? {
                  orderId,
                  orderName: "#5",
                  ok: false,
                  error: "The order does not ship to Kuwait.",
                  deliveryId: null,
                }
              : {
                  orderId,
                  orderName: `#${numericId(orderId)}`,
                  ok: true,
                  deliveryId: `d${numericId(orderId)}`,
                },
          ),
        };
      },
      sendStatus: async (deliveryIds: readonly string[]) => {
        looks++;
        return {
          statuses: deliveryIds.map((deliveryId) => ({
            deliveryId,
            orderId: "",
            settled: looks >= 2,
            progress: (deliveryId.endsWith("9007") ? "needs_address" : "created") as "created",
            message: looks >= 2 ? `Done ${deliveryId}` : "Sending to the courier",
          })),
        };
      },
    };
    const reports: number[] = [];
    const rows = await runBulkSend(api, ids, {
      onProgress: (_rows, done) => reports.push(done),
      sleep: async () => {},
    });
    expect(batches.map((b) => b.length)).toEqual([10, 10, 3]);
    expect(looks).toBe(2);
    expect(rows.filter((r) => r.phase === "settled")).toHaveLength(22);
    expect(rows[5]).toEqual({
      orderId: "gid://shopify/Order/9005",
      orderName: "#5",
      phase: "failed",
      message: "The order does not ship to Kuwait.",
    });
    expect(rows[7]).toMatchObject({ phase: "settled", good: false });
    expect(reports.at(-1)).toBe(23);
  });

  it("marks a batch the app did not take as failed and goes on with the next", async () => {
    let call = 0;
    const api = {
      send: async (orderIds: readonly string[]) => {
        if (call++ === 0) throw new AppApiError(503, "The app answered 503.");
        return {
          outcomes: orderIds.map((orderId) => ({
            orderId,
            orderName: null,
            ok: true,
            deliveryId: `d${numericId(orderId)}`,
          })),
        };
      },
      sendStatus: async (deliveryIds: readonly string[]) => ({
        statuses: deliveryIds.map((deliveryId) => ({
          deliveryId,
          orderId: "",
          settled: true,
          progress: "created" as const,
          message: "Created",
        })),
      }),
    };
    const rows = await runBulkSend(api, ids.slice(0, 12), {
      onProgress: () => {},
      sleep: async () => {},
    });
    expect(
      rows.slice(0, 10).every((r) => r.phase === "failed" && r.message === "The app answered 503."),
    ).toBe(true);
    expect(rows.slice(10).every((r) => r.phase === "settled")).toBe(true);
  });
});

describe("each extension's folder", () => {
  const folders = readdirSync(EXTENSIONS).filter(
    (d) => d.startsWith("courier-") || d.startsWith("shopper-"),
  );

  it("has the four admin extensions and the shopper's two blocks", () => {
    expect(folders.sort()).toEqual([
      "courier-bulk-send",
      "courier-delivery-block",
      "courier-labels",
      "courier-send-action",
      "shopper-order-status-block",
      "shopper-thank-you-block",
    ]);
  });

  it.each(folders)("%s speaks the app's API version", (folder) => {
    const toml = parse(
      readFileSync(path.join(EXTENSIONS, folder, "shopify.extension.toml"), "utf8"),
    );
    expect(toml.api_version).toBe(ADMIN_API_VERSION);
  });

  it.each(folders)("%s has every key it uses in English and in Arabic", (folder) => {
    // A text counted with `count` is an object of plural forms: one key, whose forms must be
    // those its language has (English one and other; Arabic zero, one, two, few, many, other).
    const PLURAL_FORMS = ["zero", "one", "two", "few", "many", "other"];
    const plurals: Record<string, string[]> = {};
    const keysOf = (value: unknown, language: string, prefix = ""): string[] => {
      if (typeof value !== "object" || value === null) return [prefix];
      const forms = Object.keys(value);
      if (forms.every((form) => PLURAL_FORMS.includes(form))) {
        plurals[`${language} ${prefix}`] = forms.sort();
        return [prefix];
      }
      return Object.entries(value).flatMap(([k, v]) =>
        keysOf(v, language, prefix ? `${prefix}.${k}` : k),
      );
    };
    const locale = (name: string, language: string) =>
      keysOf(
        JSON.parse(readFileSync(path.join(EXTENSIONS, folder, "locales", name), "utf8")),
        language,
      ).sort();
    const english = locale("en.default.json", "en");
    expect(locale("ar.json", "ar")).toEqual(english);
    for (const [where, forms] of Object.entries(plurals)) {
      const language = where.split(" ")[0]!;
      expect(forms, where).toEqual(
        [...new Intl.PluralRules(language).resolvedOptions().pluralCategories].sort(),
      );
    }
    const srcDir = path.join(EXTENSIONS, folder, "src");
    const own = readdirSync(srcDir)
      .map((f) => readFileSync(path.join(srcDir, f), "utf8"))
      .join("\n");
    const used = [...own.matchAll(/\bt\("([a-zA-Z0-9.]+)"/g)].map((m) => m[1]!);
    expect(used.length).toBeGreaterThan(0);
    for (const key of used) expect(english).toContain(key);
  });
});
