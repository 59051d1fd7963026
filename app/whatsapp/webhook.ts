import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";

/*
 * Meta's message status callbacks (webhooks reference, "Status messages"): a POST signed in
 * `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body under the app secret>`, and a
 * GET handshake when the callback URL is registered.
 */

export const STATUS_SIGNATURE_HEADER = "x-hub-signature-256";

export function signStatusCallback(rawBody: string | Buffer, appSecret: string): string {
  return `sha256=${createHmac("sha256", appSecret).update(rawBody).digest("hex")}`;
}

/** True when the header is the signature of these exact bytes under the app secret. */
export function verifyStatusCallback(
  rawBody: string | Buffer,
  signatureHeader: string | null | undefined,
  appSecret: string,
): boolean {
  if (!signatureHeader || !appSecret) return false;
  const expected = Buffer.from(signStatusCallback(rawBody, appSecret));
  const given = Buffer.from(signatureHeader.trim());
  return expected.length === given.length && timingSafeEqual(expected, given);
}

export const MESSAGE_STATUSES = ["sent", "delivered", "read", "failed"] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

const statusSchema = z.object({
  id: z.string().min(1),
  status: z.string(),
  timestamp: z.string().regex(/^\d+$/),
  recipient_id: z.string().optional(),
  // Echoes the string sent with the message (`biz_opaque_callback_data`).
  biz_opaque_callback_data: z.string().optional(),
  errors: z
    .array(
      z.object({
        code: z.number().int(),
        title: z.string().optional(),
        message: z.string().optional(),
        error_data: z.object({ details: z.string().optional() }).loose().optional(),
      }),
    )
    .optional(),
});

// A shopper's message to the business number: only what a "STOP" needs is read.
const inboundSchema = z
  .object({
    from: z.string(),
    timestamp: z.string().regex(/^\d+$/),
    type: z.string(),
    text: z.object({ body: z.string() }).loose().optional(),
    button: z.object({ text: z.string() }).loose().optional(),
  })
  .loose();

export const statusCallbackSchema = z.object({
  object: z.literal("whatsapp_business_account"),
  entry: z.array(
    z.object({
      id: z.string(),
      changes: z.array(
        z.object({
          field: z.string().optional(),
          value: z
            .object({
              metadata: z.object({ phone_number_id: z.string() }).loose().optional(),
              statuses: z.array(statusSchema).optional(),
              messages: z.array(inboundSchema).optional(),
            })
            .loose(),
        }),
      ),
    }),
  ),
});

/** One status of one message, as the timeline records it. */
export interface StatusEvent {
  messageId: string;
  status: MessageStatus;
  at: Date;
  recipientId: string | undefined;
  phoneNumberId: string | undefined;
  /** The `biz_opaque_callback_data` the message was sent with, when it had some. */
  callbackData: string | undefined;
  /** For `failed`: Meta's code and words (131026, 131047…). */
  error?: { code: number; title: string | undefined; details: string | undefined };
}

/**
 * The status events of a callback's body, flat. Changes without statuses (incoming messages) and
 * statuses outside the four the app follows (`deleted`, `played`…) are skipped; a body that is
 * not a WhatsApp Business account callback is an error.
 */
export function parseStatusCallback(body: unknown): StatusEvent[] {
  const events: StatusEvent[] = [];
  for (const entry of statusCallbackSchema.parse(body).entry) {
    for (const change of entry.changes) {
      for (const status of change.value.statuses ?? []) {
        if (!(MESSAGE_STATUSES as readonly string[]).includes(status.status)) continue;
        const first = status.errors?.[0];
        events.push({
          messageId: status.id,
          status: status.status as MessageStatus,
          at: new Date(Number(status.timestamp) * 1000),
          recipientId: status.recipient_id,
          callbackData: status.biz_opaque_callback_data,
          phoneNumberId: change.value.metadata?.phone_number_id,
          ...(first && {
            error: {
              code: first.code,
              title: first.title,
              details: first.error_data?.details ?? first.message,
            },
          }),
        });
      }
    }
  }
  return events;
}

/** A shopper's text (or quick-reply button) sent to the business number. */
export interface InboundMessage {
  /** The sender's WhatsApp id: their number, digits with the country code. */
  from: string;
  text: string;
  at: Date;
  phoneNumberId: string | undefined;
}

/** The shoppers' texts and button replies of a callback's body, flat; other kinds are skipped. */
export function parseInboundMessages(body: unknown): InboundMessage[] {
  const messages: InboundMessage[] = [];
  for (const entry of statusCallbackSchema.parse(body).entry) {
    for (const change of entry.changes) {
      for (const message of change.value.messages ?? []) {
        const text = message.text?.body ?? message.button?.text;
        if (text === undefined) continue;
        messages.push({
          from: message.from,
          text,
          at: new Date(Number(message.timestamp) * 1000),
          phoneNumberId: change.value.metadata?.phone_number_id,
        });
      }
    }
  }
  return messages;
}

/**
 * The GET handshake Meta makes when the callback URL is saved: the challenge to echo back when
 * `hub.mode` is `subscribe` and `hub.verify_token` is ours, otherwise null (answer 403).
 */
export function answerVerification(query: URLSearchParams, verifyToken: string): string | null {
  const challenge = query.get("hub.challenge");
  const given = Buffer.from(query.get("hub.verify_token") ?? "");
  const expected = Buffer.from(verifyToken);
  const tokenMatches =
    verifyToken !== "" && given.length === expected.length && timingSafeEqual(given, expected);
  return query.get("hub.mode") === "subscribe" && tokenMatches && challenge ? challenge : null;
}
