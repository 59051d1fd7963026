import { z } from "zod";
import {
  classifyGraphError,
  graphErrorSchema,
  retryAfterMs,
  WhatsAppAuthError,
  WhatsAppMalformedReplyError,
  WhatsAppRequestError,
  WhatsAppTimeoutError,
  WhatsAppUnavailableError,
  type GraphError,
} from "./errors";

/*
 * Business-initiated template messages through the WhatsApp Business Cloud API
 * (POST /<version>/<phone-number-id>/messages, ADR 0057). One attempt per call: a retry may
 * deliver a second copy, so whoever keeps the outbox decides, from the error's `retryable` and
 * `outcome`.
 */

/** The Graph API version the app was written against; `apiVersion` overrides it. */
export const GRAPH_API_VERSION = "v23.0";
export const GRAPH_API_URL = "https://graph.facebook.com";

export type TemplateLanguage = "ar" | "en" | "en_US";

export interface TemplateMessage {
  /** The template's name as approved in WhatsApp Manager. */
  name: string;
  languageCode: TemplateLanguage;
  /** `{{1}}`, `{{2}}`… of the body, in order. */
  bodyParameters: string[];
  /** The dynamic part of the first button's URL (the `{{1}}` after its fixed base). */
  buttonUrlParameter?: string;
}

export interface SendTemplateInput {
  phoneNumberId: string;
  accessToken: string;
  /** The shopper's number with its country code, digits only (a leading + is accepted). */
  to: string;
  template: TemplateMessage;
  /**
   * `biz_opaque_callback_data` (≤ 512 characters): Meta echoes it in the message's status
   * callbacks, so a send whose answer was lost can be recognised by its callback.
   */
  callbackData?: string;
}

export interface WhatsAppClientOptions {
  /** `https://graph.facebook.com` in production; callers read WHATSAPP_API_URL. */
  baseUrl?: string;
  apiVersion?: string;
  /** Time limit of the call in milliseconds (default 10 000). */
  timeoutMs?: number;
  /** Aborts the call from outside (a worker shutting down); counted as a time-out. */
  signal?: AbortSignal;
  fetch?: typeof fetch;
}

/** Meta's answer to a send: the message id (`wamid.…`) the status callbacks will name. */
export const sendResultSchema = z.object({
  messaging_product: z.literal("whatsapp"),
  contacts: z.array(z.object({ input: z.string(), wa_id: z.string() })).min(1),
  messages: z
    .array(z.object({ id: z.string().min(1), message_status: z.string().optional() }))
    .min(1),
});

export interface SentMessage {
  messageId: string;
  /** The recipient's WhatsApp id, as Meta normalised the number. */
  waId: string;
}

/** The request body Meta documents for a template message. */
export function templateMessageBody(to: string, template: TemplateMessage, callbackData?: string) {
  const components: unknown[] = [];
  if (template.bodyParameters.length > 0) {
    components.push({
      type: "body",
      parameters: template.bodyParameters.map((text) => ({ type: "text", text })),
    });
  }
  if (template.buttonUrlParameter !== undefined) {
    components.push({
      type: "button",
      sub_type: "url",
      index: "0",
      parameters: [{ type: "text", text: template.buttonUrlParameter }],
    });
  }
  return {
    messaging_product: "whatsapp",
    recipient_type: "individual",
    to,
    type: "template",
    template: { name: template.name, language: { code: template.languageCode }, components },
    ...(callbackData !== undefined && { biz_opaque_callback_data: callbackData }),
  };
}

/** Sends one template message; throws a {@link WhatsAppError} subclass on any failure. */
export async function sendTemplate(
  input: SendTemplateInput,
  options: WhatsAppClientOptions = {},
): Promise<SentMessage> {
  const to = input.to.replace(/^\+/, "");
  if (!/^[1-9]\d{7,14}$/.test(to)) {
    throw new WhatsAppRequestError(
      { outcome: "not_sent" },
      "The shopper's phone number is not a full international number (country code and number, digits only), so nothing was sent. Correct the phone on the order.",
    );
  }
  if (!/^\d{1,32}$/.test(input.phoneNumberId)) {
    throw new WhatsAppRequestError(
      { outcome: "not_sent" },
      "The phone number id must be the digits shown in WhatsApp Manager under API Setup, not the phone number itself. Nothing was sent.",
    );
  }
  if (input.callbackData !== undefined && input.callbackData.length > 512) {
    throw new WhatsAppRequestError(
      { outcome: "not_sent" },
      "The message's callback data is longer than WhatsApp's 512 characters. Nothing was sent.",
    );
  }
  if (!/^[\x21-\x7e]+$/.test(input.accessToken)) {
    throw new WhatsAppAuthError({ outcome: "not_sent" });
  }
  const base = (options.baseUrl ?? GRAPH_API_URL).replace(/\/+$/, "");
  const url = `${base}/${options.apiVersion ?? GRAPH_API_VERSION}/${input.phoneNumberId}/messages`;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;

  let response: Response;
  let text: string;
  try {
    response = await (options.fetch ?? globalThis.fetch)(url, {
      method: "POST",
      headers: {
        authorization: `Bearer ${input.accessToken}`,
        "content-type": "application/json",
        accept: "application/json",
      },
      body: JSON.stringify(templateMessageBody(to, input.template, input.callbackData)),
      signal,
      redirect: "manual",
    });
    text = await response.text();
  } catch (error) {
    if (signal.aborted) throw new WhatsAppTimeoutError({ outcome: "unknown", timeoutMs });
    // Refused before anything left, or cut off after: undici says which in the cause's code.
    const refused = /ECONNREFUSED|ENOTFOUND|EAI_AGAIN/.test(String(causeCode(error)));
    throw new WhatsAppUnavailableError(
      { outcome: refused ? "not_sent" : "unknown" },
      refused ? "WhatsApp could not be reached" : "The connection to WhatsApp broke",
    );
  }

  const json = parseJson(text);
  if (!response.ok) {
    const graph = graphErrorSchema.safeParse(json);
    throw classifyGraphError(
      response.status,
      graph.success ? redactGraph(graph.data.error, input.accessToken) : undefined,
      retryAfterMs(response.headers.get("retry-after")),
    );
  }
  const result = sendResultSchema.safeParse(json);
  if (!result.success) {
    throw new WhatsAppMalformedReplyError({
      outcome: "unknown",
      status: response.status,
      detail: `HTTP ${response.status} without a message id`,
    });
  }
  return { messageId: result.data.messages[0]!.id, waId: result.data.contacts[0]!.wa_id };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function causeCode(error: unknown): string | undefined {
  let current = error;
  for (let depth = 0; depth < 4 && typeof current === "object" && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string") return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

// A Graph message may quote what it was sent; the token must not reach a log through it.
function redactGraph(graph: GraphError, token: string): GraphError {
  const clean = (text: string | undefined) => text?.split(token).join("[redacted]");
  return {
    ...graph,
    message: clean(graph.message),
    error_user_msg: clean(graph.error_user_msg),
    error_user_title: clean(graph.error_user_title),
    error_data: graph.error_data && {
      ...graph.error_data,
      details: clean(graph.error_data.details),
    },
  };
}
