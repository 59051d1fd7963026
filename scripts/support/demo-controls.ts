import { createHmac, randomUUID } from "node:crypto";
import type http from "node:http";
import type { CourierSandbox, FailureKind, SandboxOrder, StatusCode } from "../../sandbox/courier";
import type { ShopifyStandInStore } from "../../sandbox/shopify";

/**
 * The demo's controls (`npm run demo`): the courier's speed, pause and resume, a delivery made to
 * fail, be returned or raise a courier exception, and a customer's privacy request sent as Shopify
 * sends it. Served by the demo on its App Bridge port (4030) under /demo/, for the bar the demo
 * draws over the app's pages and for curl; every answer is JSON.
 */

/** Seconds between two courier statuses at each speed the newcomer can choose. */
export const DEMO_SPEEDS = { slow: 120, normal: 60, fast: 10 } as const;
export type DemoSpeed = keyof typeof DEMO_SPEEDS;

/** What a command asks of a courier order: the status it reaches, and why it fails. */
const COURSES = {
  fail: { to: "delivery_failed", failure: "no_answer" },
  exception: { to: "delivery_failed", failure: "address_problem" },
  return: { to: "returned", failure: undefined },
  deliver: { to: "delivered", failure: undefined },
} as const satisfies Record<string, { to: StatusCode; failure: FailureKind | undefined }>;
export type DemoCourse = keyof typeof COURSES;

export interface DemoControlsOptions {
  courier: CourierSandbox;
  store: ShopifyStandInStore;
  /** Where the app receives Shopify's webhooks, and the secret they are signed with. */
  appUrl: string;
  apiSecret: string;
  /** The privacy webhook's path in the app, and the API version it is sent in (shopify.app.toml). */
  dataRequestPath: string;
  apiVersion: string;
}

export type DemoAnswer =
  | {
      ok: true;
      command: string;
      orderNumber?: string;
      status?: string;
      stepSeconds?: number;
      paused?: boolean;
    }
  | { ok: false; command: string; error: string };

export function demoControls(options: DemoControlsOptions) {
  const { courier } = options;

  const clock = () => ({
    stepSeconds: Math.round(courier.clock.stepMs / 1000),
    paused: courier.clock.paused,
  });

  /**
   * Moves the order named (its courier number), or the newest order that can get there, to the
   * course's status through the courier's own moves; says why when none can.
   */
  function steer(course: DemoCourse, orderNumber?: string): DemoAnswer {
    const { to, failure } = COURSES[course];
    // A failed order goes out again and fails anew; one already returned or delivered is passed
    // over unless named: each press shows the app a new event.
    const again = (o: SandboxOrder) =>
      o.status === "delivery_failed" &&
      to === "delivery_failed" &&
      !(o.scenario === "return" && o.failedAttempts >= 2);
    const candidates = [...courier.orders.values()]
      .filter((o) => (orderNumber ? o.orderNumber === orderNumber : o.status !== to || again(o)))
      .sort((a, b) => b.createdAt - a.createdAt);
    if (orderNumber && candidates[0]?.status === to && !again(candidates[0]))
      return { ok: false, command: course, error: `Order ${orderNumber} is already there.` };
    let why = orderNumber
      ? `No courier order ${orderNumber}.`
      : "The courier has no order that can get there: fulfil an order first.";
    for (const order of candidates) {
      const number = order.orderNumber;
      try {
        if (again(order)) courier.advance(number);
        const [moved] = courier.advance(number, to, failure);
        if (moved) return { ok: true, command: course, orderNumber: number, status: moved.status };
      } catch (error) {
        why = error instanceof Error ? error.message : String(error);
      }
    }
    return {
      ok: false,
      command: course,
      error: orderNumber ? why : `No courier order can get there now. ${why}`,
    };
  }

  /**
   * A customer's request for their data (customers/data_request), signed with the app's secret as
   * Shopify signs it, for the newest order the app has sent to the courier.
   */
  async function privacyRequest(): Promise<DemoAnswer> {
    const order = [...options.store.orders()].reverse().find((o) => o.fulfillments.length > 0);
    if (!order) return { ok: false, command: "privacy", error: "Fulfil an order first." };
    const body = JSON.stringify({
      shop_id: 1,
      shop_domain: options.store.shop.domain,
      orders_requested: [order.id],
      customer: { id: 700_000 + order.id, email: order.email, phone: order.phone },
      data_request: { id: Date.now() },
    });
    const response = await fetch(new URL(options.dataRequestPath, options.appUrl), {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "X-Shopify-Topic": "customers/data_request",
        "X-Shopify-Hmac-Sha256": createHmac("sha256", options.apiSecret)
          .update(body)
          .digest("base64"),
        "X-Shopify-Shop-Domain": options.store.shop.domain,
        "X-Shopify-API-Version": options.apiVersion,
        "X-Shopify-Webhook-Id": randomUUID(),
        "X-Shopify-Triggered-At": new Date().toISOString(),
      },
      body,
    });
    return response.ok
      ? { ok: true, command: "privacy", orderNumber: order.name }
      : { ok: false, command: "privacy", error: `The app answered ${response.status}.` };
  }

  /** Runs one command: `speed/slow`, `pause`, `resume`, `fail`, `exception`, `return`, `deliver`, `privacy`. */
  async function run(command: string, orderNumber?: string): Promise<DemoAnswer> {
    const [verb, argument] = command.split("/");
    switch (verb) {
      case "state":
        return { ok: true, command: verb, ...clock() };
      case "speed": {
        const seconds = DEMO_SPEEDS[argument as DemoSpeed] ?? Number(argument);
        if (!Number.isInteger(seconds) || seconds < 1)
          return {
            ok: false,
            command: verb,
            error: "Choose slow, normal, fast or seconds (1 or more).",
          };
        courier.setStepInterval(seconds * 1000);
        return { ok: true, command: verb, ...clock() };
      }
      case "pause":
      case "resume":
        courier.setPaused(verb === "pause");
        return { ok: true, command: verb, ...clock() };
      case "fail":
      case "exception":
      case "return":
      case "deliver":
        return steer(verb, orderNumber);
      case "privacy":
        return privacyRequest();
      default:
        return { ok: false, command: verb ?? "", error: `No demo command ${command}.` };
    }
  }

  /** Answers `/demo/<command>[?order=KW100001]`; false for any other path. */
  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<boolean> {
    const url = new URL(req.url ?? "/", "http://demo");
    if (!url.pathname.startsWith("/demo/")) return false;
    const headers = {
      "content-type": "application/json",
      // The bar runs on the app's pages (another port): it reads the answers.
      "access-control-allow-origin": "*",
    };
    if (req.method !== "POST" && !url.pathname.endsWith("/state")) {
      res.writeHead(405, headers).end(JSON.stringify({ ok: false, error: "Use POST." }));
      return true;
    }
    const answer = await run(
      url.pathname.slice("/demo/".length),
      url.searchParams.get("order") ?? undefined,
    );
    res.writeHead(answer.ok ? 200 : 409, headers).end(JSON.stringify(answer));
    return true;
  }

  return { run, handle };
}
