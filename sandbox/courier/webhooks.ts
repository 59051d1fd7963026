import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import http from "node:http";
import https from "node:https";

/**
 * Status webhooks, as this sandbox sends them (the document mentions webhooks but shows nothing):
 * a JSON POST whose raw body is signed with HMAC-SHA256 under the shared secret, hex encoded, in
 * `X-Courier-Signature: sha256=<hex>`. `X-Courier-Event-Id` repeats on redelivery, for de-duplication.
 */
export const SIGNATURE_HEADER = "x-courier-signature";
export const EVENT_ID_HEADER = "x-courier-event-id";

export interface WebhookConfig {
  url: string;
  secret: string;
  /** Attempts per event (default 3), 200 ms apart, doubling. */
  attempts?: number;
}

export interface WebhookDelivery {
  eventId: string;
  orderId: string;
  status: string;
  attempts: number;
  /** The receiver's HTTP status on the last attempt, or null when it could not be reached. */
  responseStatus: number | null;
  delivered: boolean;
}

export function signWebhookBody(rawBody: string | Buffer, secret: string): string {
  return `sha256=${createHmac("sha256", secret).update(rawBody).digest("hex")}`;
}

/** Checks a signature header against the raw body, in constant time. */
export function verifyWebhookSignature(
  rawBody: string | Buffer,
  header: string | null | undefined,
  secret: string,
): boolean {
  if (!header) return false;
  const expected = Buffer.from(signWebhookBody(rawBody, secret));
  const given = Buffer.from(header.trim());
  return expected.length === given.length && timingSafeEqual(expected, given);
}

function post(url: URL, body: string, headers: Record<string, string>): Promise<number> {
  const transport = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const request = transport.request(
      url,
      {
        method: "POST",
        headers: { ...headers, "content-length": Buffer.byteLength(body) },
        timeout: 5000,
      },
      (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode ?? 0));
      },
    );
    request.on("timeout", () => request.destroy(new Error("webhook receiver timed out")));
    request.on("error", reject);
    request.end(body);
  });
}

/** Sends events one after another, so a receiver sees an order's statuses in order. */
export class WebhookSender {
  readonly deliveries: WebhookDelivery[] = [];
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly config: WebhookConfig) {}

  send(event: {
    orderId: string;
    orderNumber: string;
    status: string;
    previousStatus: string;
    at: string;
  }): void {
    const eventId = randomUUID();
    const body = JSON.stringify({
      eventId,
      event: "order.status_changed",
      occurredAt: event.at,
      order: {
        orderId: event.orderId,
        orderNumber: event.orderNumber,
        status: event.status,
        previousStatus: event.previousStatus,
      },
    });
    const headers = {
      "content-type": "application/json",
      "x-courier-event": "order.status_changed",
      [EVENT_ID_HEADER]: eventId,
      [SIGNATURE_HEADER]: signWebhookBody(body, this.config.secret),
    };
    const delivery: WebhookDelivery = {
      eventId,
      orderId: event.orderId,
      status: event.status,
      attempts: 0,
      responseStatus: null,
      delivered: false,
    };
    this.deliveries.push(delivery);
    this.queue = this.queue.then(async () => {
      const attempts = this.config.attempts ?? 3;
      for (let i = 0; i < attempts && !delivery.delivered; i++) {
        if (i > 0) await new Promise((r) => setTimeout(r, 200 * 2 ** (i - 1)));
        delivery.attempts += 1;
        try {
          delivery.responseStatus = await post(new URL(this.config.url), body, headers);
          delivery.delivered = delivery.responseStatus >= 200 && delivery.responseStatus < 300;
        } catch {
          delivery.responseStatus = null;
        }
      }
    });
  }

  /** Resolves once every event sent so far has been delivered or given up on. */
  flush(): Promise<void> {
    return this.queue;
  }
}
