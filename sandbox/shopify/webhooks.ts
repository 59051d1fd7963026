import { createHmac, randomUUID } from "node:crypto";
import http from "node:http";
import https from "node:https";
import { webhookPayload } from "./payloads";
import type { ShopifyStandInStore } from "./store";
import { WEBHOOK_TOPICS, type StoreEvent, type WebhookTopic } from "./records";

/** One HTTP request the stand-in sends to the app. */
export interface OutgoingWebhook {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** Sends one webhook and resolves with the receiver's HTTP status; rejects when unreachable. */
export type WebhookTransport = (webhook: OutgoingWebhook) => Promise<{ status: number }>;

export interface WebhookAttempt {
  at: string;
  /** The receiver's status, or null when it could not be reached or timed out. */
  status: number | null;
  error: string | null;
  durationMs: number;
}

export interface WebhookDelivery {
  seq: number;
  topic: WebhookTopic;
  /** `X-Shopify-Webhook-Id`: the same on every retry and redelivery of one webhook. */
  webhookId: string;
  /** `X-Shopify-Event-Id`: the event that caused it. */
  eventId: string;
  triggeredAt: string;
  /** Where it went; null when the stand-in has no app URL and no transport. */
  url: string | null;
  headers: Record<string, string>;
  body: string;
  payload: unknown;
  /** The webhook id this delivery repeats (a redelivery), or null for the first delivery. */
  redeliveryOf: string | null;
  /** "dropped": never sent, as Shopify loses some webhooks ({@link WebhookSender.dropNext}). */
  state: "pending" | "delivered" | "failed" | "unsent" | "dropped";
  attempts: WebhookAttempt[];
}

export interface WebhookSenderOptions {
  store: ShopifyStandInStore;
  /** The app's API secret: the HMAC key. */
  apiSecret: string;
  apiVersion: string;
  /** Deliveries go to `${appUrl}${path(topic)}`. */
  appUrl?: string | null;
  /** The topics the app subscribed to (default all the stand-in sends). */
  topics?: readonly WebhookTopic[];
  /** The path (or full URL) for a topic (default `/webhooks/<topic>`); see `subscriptionsFromAppToml`. */
  path?: (topic: WebhookTopic) => string;
  /** Default: an HTTP(S) POST with a 5 s timeout. */
  transport?: WebhookTransport;
  /** Attempts per delivery, the first included (default 4). */
  attempts?: number;
  /** Wait before the first retry; doubles after each (default 100 ms). */
  retryDelayMs?: number;
  timeoutMs?: number;
  log?: (line: string) => void;
}

export const HMAC_HEADER = "X-Shopify-Hmac-Sha256";
export const WEBHOOK_ID_HEADER = "X-Shopify-Webhook-Id";

/** Base64 HMAC-SHA256 of the raw body under the app's secret, as Shopify signs webhooks. */
export function signWebhookBody(body: string | Buffer, apiSecret: string): string {
  return createHmac("sha256", apiSecret).update(body).digest("base64");
}

/**
 * Delivers the store's events to the app as Shopify does: a signed JSON POST per subscribed topic,
 * retried with exponential backoff on a non-2xx reply or no reply at all, then given up. Deliveries
 * run independently, so like Shopify's they may arrive out of order.
 */
export class WebhookSender {
  readonly deliveries: WebhookDelivery[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private readonly options: Required<Omit<WebhookSenderOptions, "appUrl" | "transport" | "log">> &
    Pick<WebhookSenderOptions, "appUrl" | "transport" | "log">;
  private seq = 0;
  private readonly unsubscribe: () => void;
  private drops: { topic: WebhookTopic | null; remaining: number } | undefined;

  constructor(options: WebhookSenderOptions) {
    this.options = {
      topics: WEBHOOK_TOPICS,
      path: (topic) => `/webhooks/${topic}`,
      attempts: 4,
      retryDelayMs: 100,
      timeoutMs: 5000,
      ...options,
    };
    this.unsubscribe = options.store.onEvent((event) => {
      this.send(event);
    });
  }

  /** Turns a store event into a delivery (null when the app did not subscribe to its topic). */
  send(event: StoreEvent): WebhookDelivery | null {
    if (!this.options.topics.includes(event.topic)) return null;
    const payload = webhookPayload(this.options.store, event);
    const body = JSON.stringify(payload);
    const webhookId = randomUUID();
    const triggeredAt = event.at.toISOString();
    const headers: Record<string, string> = {
      "Content-Type": "application/json",
      "User-Agent": "Shopify-Captain-Hook",
      "X-Shopify-Topic": event.topic,
      [HMAC_HEADER]: signWebhookBody(body, this.options.apiSecret),
      "X-Shopify-Shop-Domain": this.options.store.shop.domain,
      "X-Shopify-API-Version": this.options.apiVersion,
      [WEBHOOK_ID_HEADER]: webhookId,
      "X-Shopify-Triggered-At": triggeredAt,
      "X-Shopify-Event-Id": randomUUID(),
    };
    const delivery = this.record({
      topic: event.topic,
      webhookId,
      headers,
      body,
      payload,
      redeliveryOf: null,
    });
    const drops = this.drops;
    if (drops && (drops.topic === null || drops.topic === event.topic)) {
      delivery.state = "dropped";
      drops.remaining -= 1;
      if (drops.remaining <= 0) this.drops = undefined;
      return delivery;
    }
    this.start(delivery);
    return delivery;
  }

  /**
   * Sends a webhook again, `times` times (default 1), one after another or all at once: same body,
   * same signature, same webhook id, as Shopify's retries and manual redeliveries are.
   */
  async redeliver(
    webhookId: string,
    { times = 1, concurrent = false }: { times?: number; concurrent?: boolean } = {},
  ): Promise<WebhookDelivery[]> {
    const original = this.deliveries.find(
      (d) => d.webhookId === webhookId && d.redeliveryOf === null,
    );
    if (!original) throw new Error(`No webhook ${webhookId} to redeliver`);
    const copies = Array.from({ length: times }, () =>
      this.record({ ...original, redeliveryOf: webhookId }),
    );
    if (concurrent) {
      await Promise.all(copies.map((copy) => this.start(copy)));
    } else {
      for (const copy of copies) await this.start(copy);
    }
    return copies;
  }

  /**
   * The next `count` webhooks (of `topic`, or of any topic) are lost: recorded as "dropped" and
   * never sent, as Shopify does not guarantee delivery.
   */
  dropNext(count: number, topic: WebhookTopic | null = null): void {
    this.drops = count > 0 ? { topic, remaining: count } : undefined;
  }

  /** Resolves once every delivery started so far has succeeded or been given up. */
  async flush(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  /** Deliveries of one topic, first deliveries only unless `withRedeliveries`. */
  of(topic: WebhookTopic, withRedeliveries = false): WebhookDelivery[] {
    return this.deliveries.filter(
      (d) => d.topic === topic && (withRedeliveries || d.redeliveryOf === null),
    );
  }

  /** Stops listening to the store. */
  detach(): void {
    this.unsubscribe();
  }

  private record(
    fields: Pick<
      WebhookDelivery,
      "topic" | "webhookId" | "headers" | "body" | "payload" | "redeliveryOf"
    >,
  ): WebhookDelivery {
    const path = this.options.path(fields.topic);
    // A subscription's uri may be a full URL of its own, or a path on the app.
    const destination = /^https?:\/\//.test(path)
      ? path
      : this.options.appUrl || this.options.transport
        ? `${(this.options.appUrl ?? "").replace(/\/+$/, "")}${path}`
        : null;
    const delivery: WebhookDelivery = {
      seq: ++this.seq,
      topic: fields.topic,
      webhookId: fields.webhookId,
      eventId: fields.headers["X-Shopify-Event-Id"] ?? "",
      triggeredAt: fields.headers["X-Shopify-Triggered-At"] ?? "",
      url: destination,
      headers: fields.headers,
      body: fields.body,
      payload: fields.payload,
      redeliveryOf: fields.redeliveryOf,
      state: destination ? "pending" : "unsent",
      attempts: [],
    };
    this.deliveries.push(delivery);
    return delivery;
  }

  private start(delivery: WebhookDelivery): Promise<void> {
    if (delivery.url === null) return Promise.resolve();
    const running = this.deliver(delivery, delivery.url).finally(() =>
      this.inFlight.delete(running),
    );
    this.inFlight.add(running);
    return running;
  }

  private async deliver(delivery: WebhookDelivery, url: string): Promise<void> {
    const transport =
      this.options.transport ?? ((w: OutgoingWebhook) => post(w, this.options.timeoutMs));
    for (let attempt = 0; attempt < this.options.attempts; attempt++) {
      if (attempt > 0) await sleep(this.options.retryDelayMs * 2 ** (attempt - 1));
      const started = performance.now();
      const at = new Date().toISOString();
      let status: number | null = null;
      let error: string | null = null;
      try {
        status = (await transport({ url, headers: delivery.headers, body: delivery.body })).status;
      } catch (caught) {
        error = caught instanceof Error ? caught.message : String(caught);
      }
      delivery.attempts.push({
        at,
        status,
        error,
        durationMs: Math.round(performance.now() - started),
      });
      this.options.log?.(
        `webhook ${delivery.topic} ${delivery.webhookId} attempt ${attempt + 1}: ${status ?? error}`,
      );
      // Shopify counts only a 2xx as delivered; it does not follow redirects.
      if (status !== null && status >= 200 && status < 300) {
        delivery.state = "delivered";
        return;
      }
    }
    delivery.state = "failed";
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function post(webhook: OutgoingWebhook, timeoutMs: number): Promise<{ status: number }> {
  const url = new URL(webhook.url);
  const transport = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const request = transport.request(
      url,
      {
        method: "POST",
        headers: { ...webhook.headers, "Content-Length": String(Buffer.byteLength(webhook.body)) },
        timeout: timeoutMs,
      },
      (response) => {
        response.resume();
        response.on("end", () => resolve({ status: response.statusCode ?? 0 }));
      },
    );
    request.on("timeout", () => request.destroy(new Error(`no reply within ${timeoutMs} ms`)));
    request.on("error", reject);
    request.end(webhook.body);
  });
}
