import { createHmac, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/*
 * A stand-in for the WhatsApp Business Cloud API's send endpoint and its status callbacks
 * (sandbox/whatsapp/README.md). Written from Meta's documentation, apart from app/whatsapp, so
 * the client's tests compare two readings of the wire format rather than one with itself.
 */

export interface StandInTemplate {
  /** Language codes it is approved in. */
  languages: string[];
  /** How many `{{n}}` the body takes. */
  bodyParameters: number;
  /** A URL button's address, `{{1}}` standing for the dynamic part the message supplies. */
  buttonUrl?: string;
}

export type StatusFlow = "read" | "delivered" | "sent" | "failed" | "none";

export interface WhatsAppStandInOptions {
  /** The only bearer token accepted. */
  accessToken: string;
  /** Signs the status callbacks (`X-Hub-Signature-256`). */
  appSecret: string;
  /** Where status callbacks are POSTed; none are sent without it. */
  webhookUrl?: string;
  port?: number;
  /** Approved templates (default: the app's four, in ar, en and en_US). */
  templates?: Record<string, StandInTemplate>;
  /** Numbers answered with 131026 (not on WhatsApp). */
  notOnWhatsApp?: string[];
  /** The statuses sent after each accepted message (default "read": sent, delivered, read). */
  statusFlow?: StatusFlow;
  /** Base of the default templates' button URL (default `https://shop.example/s/`). */
  linkBase?: string;
  /**
   * Waits before trying a callback again that was not answered 2xx, as Meta retries failed
   * webhooks (for days, less and less often). Default none: one attempt each.
   */
  callbackRetryDelaysMs?: number[];
}

export interface RecordedMessage {
  id: string;
  phoneNumberId: string;
  to: string;
  template: {
    name: string;
    language: string;
    bodyParameters: string[];
    buttonUrlParameter?: string;
  };
  /** `biz_opaque_callback_data` as sent: Meta echoes it in the message's status callbacks. */
  callbackData?: string;
  /** The Authorization header is not kept. */
  receivedAt: Date;
}

export interface StatusCallback {
  messageId: string;
  status: "sent" | "delivered" | "read" | "failed";
  body: string;
  signature: string;
  /** The receiver's HTTP status, or null when it could not be reached. */
  responseStatus: number | null;
}

export type StandInFault =
  | { kind: "server-error"; status?: number }
  | { kind: "rate-limit"; retryAfterSeconds?: number }
  | { kind: "timeout" }
  | { kind: "graph-error"; status: number; code: number; message?: string }
  // The message is accepted and goes (it is recorded, its callbacks are sent), but the answer
  // is lost: a 5xx, or no answer at all. The sender cannot tell this from a refusal.
  | { kind: "server-error-after-send"; status?: number }
  | { kind: "timeout-after-send" }
  // No fault: the send goes as usual (to space faults out in a queue of them).
  | { kind: "none" };

export interface WhatsAppStandIn {
  /** Base URL to give the client (as WHATSAPP_API_URL). */
  url: string;
  messages: readonly RecordedMessage[];
  callbacks: readonly StatusCallback[];
  /** Requests refused, by Graph error code (for figures and assertions). */
  refusals: readonly { status: number; code: number }[];
  /** The next `times` sends (default 1) meet this fault. */
  injectFault(fault: StandInFault, times?: number): void;
  /** Drops the faults not met yet; how many there were (not counting "none"). */
  clearFaults(): number;
  /** Sends one signed status callback for a recorded message and waits for the answer. */
  sendStatus(
    messageId: string,
    status: StatusCallback["status"],
    error?: { code: number; title: string; details?: string },
  ): Promise<StatusCallback>;
  /** Waits until every callback queued so far has been answered. */
  flushCallbacks(): Promise<void>;
  /** Where callbacks go from now on (the receiver's address may be known only later). */
  setWebhookUrl(url: string | undefined): void;
  /** Each callback from now on waits this long before it is sent (Meta's take a moment). */
  setCallbackDelay(ms: number): void;
  /** The link the shopper would open by tapping the message's button (or its URL in the body). */
  tap(messageId: string): string;
  close(): Promise<void>;
}

const LANGUAGES = ["ar", "en", "en_US"];
const defaultTemplates = (linkBase: string): Record<string, StandInTemplate> => ({
  address_check: { languages: LANGUAGES, bodyParameters: 2, buttonUrl: `${linkBase}{{1}}` },
  cash_confirmation: { languages: LANGUAGES, bodyParameters: 3, buttonUrl: `${linkBase}{{1}}` },
  out_for_delivery: { languages: LANGUAGES, bodyParameters: 2, buttonUrl: `${linkBase}{{1}}` },
  failed_attempt: { languages: LANGUAGES, bodyParameters: 2, buttonUrl: `${linkBase}{{1}}` },
});

const FLOWS: Record<StatusFlow, StatusCallback["status"][]> = {
  read: ["sent", "delivered", "read"],
  delivered: ["sent", "delivered"],
  sent: ["sent"],
  failed: ["failed"],
  none: [],
};

class GraphRefusal extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly details?: string,
  ) {
    super(message);
  }
}

export async function startWhatsAppStandIn(
  options: WhatsAppStandInOptions,
): Promise<WhatsAppStandIn> {
  const templates =
    options.templates ?? defaultTemplates(options.linkBase ?? "https://shop.example/s/");
  const notOnWhatsApp = new Set(options.notOnWhatsApp ?? []);
  const flow = FLOWS[options.statusFlow ?? "read"];
  const messages: RecordedMessage[] = [];
  const callbacks: StatusCallback[] = [];
  const refusals: { status: number; code: number }[] = [];
  const faults: StandInFault[] = [];
  let queue: Promise<unknown> = Promise.resolve();
  let webhookUrl = options.webhookUrl;
  let callbackDelayMs = 0;
  let closed = false;

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const fault = faults.shift();
      if (fault?.kind === "timeout") return; // never answered; closed with the server
      const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        response.writeHead(status, { "content-type": "application/json", ...headers });
        response.end(JSON.stringify(body));
      };
      const refuse = (refusal: GraphRefusal, headers?: Record<string, string>) => {
        refusals.push({ status: refusal.status, code: refusal.code });
        answer(refusal.status, graphError(refusal), headers);
      };
      if (fault?.kind === "server-error") {
        return refuse(new GraphRefusal(fault.status ?? 500, 1, "An unknown error has occurred."));
      }
      if (fault?.kind === "rate-limit") {
        const refusal = new GraphRefusal(
          429,
          130429,
          "Rate limit hit",
          "Cloud API message throughput has been reached.",
        );
        return refuse(
          refusal,
          fault.retryAfterSeconds === undefined
            ? {}
            : { "retry-after": String(fault.retryAfterSeconds) },
        );
      }
      if (fault?.kind === "graph-error") {
        return refuse(
          new GraphRefusal(fault.status, fault.code, fault.message ?? "Injected error"),
        );
      }
      try {
        const message = accept(request, Buffer.concat(chunks).toString("utf8"));
        messages.push(message);
        for (const status of flow) void enqueue(message.id, status);
        if (fault?.kind === "timeout-after-send") return;
        if (fault?.kind === "server-error-after-send") {
          return refuse(
            new GraphRefusal(fault.status ?? 503, 2, "Service temporarily unavailable"),
          );
        }
        answer(200, {
          messaging_product: "whatsapp",
          contacts: [{ input: message.to, wa_id: message.to }],
          messages: [{ id: message.id }],
        });
      } catch (error) {
        // A bug of the stand-in answers as Meta's own failure would, rather than killing the test.
        refuse(error instanceof GraphRefusal ? error : new GraphRefusal(500, 1, String(error)));
      }
    });
  });

  function accept(request: http.IncomingMessage, raw: string): RecordedMessage {
    const route = /^\/v\d+\.\d+\/(\d+)\/messages$/.exec(request.url ?? "");
    if (request.method !== "POST" || !route) {
      throw new GraphRefusal(400, 100, "Unsupported post request.");
    }
    if (request.headers.authorization !== `Bearer ${options.accessToken}`) {
      throw new GraphRefusal(401, 190, "Invalid OAuth access token - Cannot parse access token");
    }
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      throw new GraphRefusal(400, 100, "Invalid parameter", "The request body is not JSON.");
    }
    if (body.messaging_product !== "whatsapp") {
      throw new GraphRefusal(400, 100, "The parameter messaging_product is required.");
    }
    if (body.type !== "template") {
      throw new GraphRefusal(400, 100, "Invalid parameter", "The stand-in sends templates only.");
    }
    const to = typeof body.to === "string" ? body.to : "";
    if (!/^\d{8,15}$/.test(to)) {
      throw new GraphRefusal(
        400,
        100,
        "Invalid parameter",
        "Param to is not a valid phone number.",
      );
    }
    if (notOnWhatsApp.has(to)) {
      throw new GraphRefusal(
        400,
        131026,
        "Message undeliverable",
        "The recipient is not a WhatsApp user.",
      );
    }
    const template = readTemplate(body.template);
    const approved = templates[template.name];
    if (!approved || !approved.languages.includes(template.language)) {
      throw new GraphRefusal(
        404,
        132001,
        "Template name does not exist in the translation",
        `template name (${template.name}) does not exist in ${template.language}`,
      );
    }
    const buttonMissing =
      (approved.buttonUrl !== undefined) !== (template.buttonUrlParameter !== undefined);
    if (template.bodyParameters.length !== approved.bodyParameters || buttonMissing) {
      throw new GraphRefusal(
        400,
        132000,
        "Number of parameters does not match the expected number of params",
        `body: expected ${approved.bodyParameters}, got ${template.bodyParameters.length}`,
      );
    }
    const id = `wamid.${randomBytes(24).toString("base64url")}`;
    const opaque = body.biz_opaque_callback_data;
    if (opaque !== undefined && (typeof opaque !== "string" || opaque.length > 512)) {
      throw new GraphRefusal(400, 100, "Invalid parameter", "biz_opaque_callback_data");
    }
    return {
      id,
      phoneNumberId: route[1]!,
      to,
      template,
      ...(opaque !== undefined && { callbackData: opaque }),
      receivedAt: new Date(),
    };
  }

  function enqueue(
    messageId: string,
    status: StatusCallback["status"],
    error?: { code: number; title: string; details?: string },
  ): Promise<StatusCallback> {
    const message = messages.find((m) => m.id === messageId);
    if (!message) throw new Error(`No message ${messageId} was sent to the stand-in`);
    const failure =
      error ?? (status === "failed" ? { code: 131026, title: "Message undeliverable" } : undefined);
    const body = JSON.stringify(statusBody(message, status, failure));
    const signature = `sha256=${createHmac("sha256", options.appSecret).update(body).digest("hex")}`;
    const delivery = queue.then(async () => {
      const callback: StatusCallback = { messageId, status, body, signature, responseStatus: null };
      callbacks.push(callback);
      if (callbackDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, callbackDelayMs));
      const delays = options.callbackRetryDelaysMs ?? [];
      for (let attempt = 0; ; attempt += 1) {
        if (!webhookUrl) return callback;
        try {
          const response = await fetch(webhookUrl, {
            method: "POST",
            headers: { "content-type": "application/json", "x-hub-signature-256": signature },
            body,
            signal: AbortSignal.timeout(5000),
          });
          await response.arrayBuffer();
          callback.responseStatus = response.status;
        } catch {
          callback.responseStatus = null;
        }
        const answered = callback.responseStatus !== null && callback.responseStatus < 300;
        if (answered || attempt >= delays.length || closed) return callback;
        await new Promise((resolve) => setTimeout(resolve, delays[attempt]));
      }
    });
    queue = delivery;
    return delivery;
  }

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    messages,
    callbacks,
    refusals,
    injectFault(fault, times = 1) {
      for (let i = 0; i < times; i++) faults.push(fault);
    },
    clearFaults() {
      const left = faults.filter((f) => f.kind !== "none").length;
      faults.length = 0;
      return left;
    },
    sendStatus: (messageId, status, error) => enqueue(messageId, status, error),
    setWebhookUrl(url) {
      webhookUrl = url;
    },
    setCallbackDelay(ms) {
      callbackDelayMs = ms;
    },
    async flushCallbacks() {
      let seen: Promise<unknown>;
      do {
        seen = queue;
        await seen;
      } while (seen !== queue);
    },
    tap(messageId) {
      const message = messages.find((m) => m.id === messageId);
      if (!message) throw new Error(`No message ${messageId} was sent to the stand-in`);
      const button = templates[message.template.name]?.buttonUrl;
      if (button && message.template.buttonUrlParameter !== undefined) {
        return button.replace("{{1}}", message.template.buttonUrlParameter);
      }
      const inBody = message.template.bodyParameters.find((p) => /^https?:\/\/\S+$/.test(p));
      if (!inBody) throw new Error(`Message ${messageId} carries no link to tap`);
      return inBody;
    },
    async close() {
      closed = true;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function readTemplate(value: unknown): RecordedMessage["template"] {
  const template = (value ?? {}) as {
    name?: unknown;
    language?: { code?: unknown };
    components?: { type?: unknown; sub_type?: unknown; parameters?: { text?: unknown }[] }[];
  };
  if (typeof template.name !== "string" || typeof template.language?.code !== "string") {
    throw new GraphRefusal(
      400,
      100,
      "Invalid parameter",
      "template.name and template.language.code are required.",
    );
  }
  const texts = (component: (typeof template.components & object)[number] | undefined) =>
    (component?.parameters ?? []).map((p) => (typeof p.text === "string" ? p.text : ""));
  const components = template.components ?? [];
  const body = components.find((c) => c.type === "body");
  const button = components.find((c) => c.type === "button" && c.sub_type === "url");
  return {
    name: template.name,
    language: template.language.code,
    bodyParameters: texts(body),
    ...(button && { buttonUrlParameter: texts(button)[0] ?? "" }),
  };
}

function statusBody(
  message: RecordedMessage,
  status: StatusCallback["status"],
  error: { code: number; title: string; details?: string } | undefined,
) {
  return {
    object: "whatsapp_business_account",
    entry: [
      {
        id: "102290129340398",
        changes: [
          {
            value: {
              messaging_product: "whatsapp",
              metadata: {
                display_phone_number: "96522000000",
                phone_number_id: message.phoneNumberId,
              },
              statuses: [
                {
                  id: message.id,
                  status,
                  timestamp: String(Math.floor(Date.now() / 1000)),
                  recipient_id: message.to,
                  ...(message.callbackData !== undefined && {
                    biz_opaque_callback_data: message.callbackData,
                  }),
                  ...(error
                    ? {
                        errors: [
                          {
                            code: error.code,
                            title: error.title,
                            message: error.title,
                            error_data: { details: error.details ?? error.title },
                          },
                        ],
                      }
                    : { pricing: { billable: true, pricing_model: "PMP", category: "utility" } }),
                },
              ],
            },
            field: "messages",
          },
        ],
      },
    ],
  };
}

function graphError(refusal: GraphRefusal) {
  return {
    error: {
      message: `(#${refusal.code}) ${refusal.message}`,
      type: refusal.code === 190 ? "OAuthException" : "GraphMethodException",
      code: refusal.code,
      ...(refusal.details && {
        error_data: { messaging_product: "whatsapp", details: refusal.details },
      }),
      fbtrace_id: randomBytes(9).toString("base64url"),
    },
  };
}
