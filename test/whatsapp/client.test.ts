import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  parseStatusCallback,
  sendTemplate,
  verifyStatusCallback,
  WhatsAppAuthError,
  WhatsAppError,
  WhatsAppMalformedReplyError,
  WhatsAppRateLimitedError,
  WhatsAppRequestError,
  WhatsAppTemplateError,
  WhatsAppTimeoutError,
  WhatsAppUnavailableError,
  WhatsAppUndeliverableError,
  type SendTemplateInput,
} from "../../app/whatsapp";
import { startWhatsAppStandIn, type WhatsAppStandIn } from "../../sandbox/whatsapp";

/** The client against the stand-in over HTTP: what a send costs, and how each failure reads. */
const TOKEN = "EAAGm0PX4ZCpsBA-secret-token-1234567890";
const APP_SECRET = "stand-in-app-secret";

const callbacksReceived: { body: string; signature: string | undefined }[] = [];
let receiver: http.Server;
let receiverUrl: string;
let standIn: WhatsAppStandIn;

beforeAll(async () => {
  receiver = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const signature = request.headers["x-hub-signature-256"];
      callbacksReceived.push({
        body: Buffer.concat(chunks).toString("utf8"),
        signature: typeof signature === "string" ? signature : undefined,
      });
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/whatsapp`;
  standIn = await startWhatsAppStandIn({
    accessToken: TOKEN,
    appSecret: APP_SECRET,
    webhookUrl: receiverUrl,
    notOnWhatsApp: ["96599999999"],
  });
});

afterAll(async () => {
  await standIn.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

afterEach(() => {
  callbacksReceived.length = 0;
});

const addressCheck = (overrides: Partial<SendTemplateInput> = {}): SendTemplateInput => ({
  phoneNumberId: "106540352242922",
  accessToken: TOKEN,
  to: "+96550001234",
  template: {
    name: "address_check",
    languageCode: "ar",
    bodyParameters: ["نورة", "#1042"],
    buttonUrlParameter: "t/abc123",
  },
  ...overrides,
});

const send = (input = addressCheck(), timeoutMs = 5_000) =>
  sendTemplate(input, { baseUrl: standIn.url, timeoutMs });

async function failure(promise: Promise<unknown>): Promise<WhatsAppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WhatsAppError);
  return error as WhatsAppError;
}

describe("sending a template message", () => {
  it("returns the message id and the recipient's WhatsApp id", async () => {
    const sent = await send();
    expect(sent.messageId).toMatch(/^wamid\./);
    expect(sent.waId).toBe("96550001234");
  });

  it("sends the template's name, language, body parameters and button parameter", async () => {
    const sent = await send();
    const recorded = standIn.messages.find((m) => m.id === sent.messageId);
    expect(recorded).toMatchObject({
      phoneNumberId: "106540352242922",
      to: "96550001234",
      template: {
        name: "address_check",
        language: "ar",
        bodyParameters: ["نورة", "#1042"],
        buttonUrlParameter: "t/abc123",
      },
    });
  });

  it("lets a test tap the link in the message's button", async () => {
    const sent = await send();
    expect(standIn.tap(sent.messageId)).toBe("https://shop.example/s/t/abc123");
  });

  it("is followed by signed sent, delivered and read callbacks", async () => {
    const sent = await send();
    await standIn.flushCallbacks();
    const mine = callbacksReceived
      .flatMap((c) => {
        expect(verifyStatusCallback(c.body, c.signature, APP_SECRET)).toBe(true);
        return parseStatusCallback(JSON.parse(c.body));
      })
      .filter((e) => e.messageId === sent.messageId);
    expect(mine.map((e) => e.status)).toEqual(["sent", "delivered", "read"]);
  });

  it("reads a failed status the stand-in reports", async () => {
    const sent = await send();
    await standIn.flushCallbacks();
    callbacksReceived.length = 0;
    await standIn.sendStatus(sent.messageId, "failed");
    const [event] = callbacksReceived.flatMap((c) => parseStatusCallback(JSON.parse(c.body)));
    expect(event).toMatchObject({ status: "failed", error: { code: 131026 } });
  });
});

describe("a refused send", () => {
  it("is an auth error for a wrong token, and does not quote it", async () => {
    const wrong = `${TOKEN}-revoked`;
    const error = await failure(send(addressCheck({ accessToken: wrong })));
    expect(error).toBeInstanceOf(WhatsAppAuthError);
    expect(error).toMatchObject({ status: 401, code: 190, retryable: false, outcome: "rejected" });
    expect(error.message).toMatch(/permanent token/);
    expect(JSON.stringify(error)).not.toContain(wrong);
    expect(error.message).not.toContain(TOKEN);
  });

  it("does not send a token holding a line break, nor quote it", async () => {
    const error = await failure(send(addressCheck({ accessToken: `${TOKEN}\n` })));
    expect(error).toBeInstanceOf(WhatsAppAuthError);
    expect(error.outcome).toBe("not_sent");
    expect(error.message).not.toContain(TOKEN);
  });

  it("is a template error, not retryable, for a template WhatsApp does not know", async () => {
    const input = addressCheck();
    input.template.name = "adress_check";
    const error = await failure(send(input));
    expect(error).toBeInstanceOf(WhatsAppTemplateError);
    expect(error).toMatchObject({ code: 132001, retryable: false });
    expect(error.message).toMatch(/approved in this language/);
  });

  it("is a template error for a wrong number of parameters", async () => {
    const input = addressCheck();
    input.template.bodyParameters = ["نورة"];
    const error = await failure(send(input));
    expect(error).toBeInstanceOf(WhatsAppTemplateError);
    expect(error.code).toBe(132000);
  });

  it("is undeliverable for a number not on WhatsApp", async () => {
    const error = await failure(send(addressCheck({ to: "96599999999" })));
    expect(error).toBeInstanceOf(WhatsAppUndeliverableError);
    expect(error).toMatchObject({ code: 131026, retryable: false });
    expect(error.message).toMatch(/Check the shopper's phone/);
  });

  it("is not sent for a number without its country code", async () => {
    const before = standIn.messages.length;
    const error = await failure(send(addressCheck({ to: "5000 1234" })));
    expect(error).toBeInstanceOf(WhatsAppRequestError);
    expect(error.outcome).toBe("not_sent");
    expect(standIn.messages.length).toBe(before);
  });

  it("is a request error when WhatsApp refuses a parameter (code 100)", async () => {
    standIn.injectFault({
      kind: "graph-error",
      status: 400,
      code: 100,
      message: "Invalid parameter",
    });
    const error = await failure(send());
    expect(error).toBeInstanceOf(WhatsAppRequestError);
    expect(error).toMatchObject({ code: 100, retryable: false, outcome: "rejected" });
  });
});

describe("a send that may pass later", () => {
  it("is rate limited with the wait WhatsApp asked for", async () => {
    standIn.injectFault({ kind: "rate-limit", retryAfterSeconds: 30 });
    const error = await failure(send());
    expect(error).toBeInstanceOf(WhatsAppRateLimitedError);
    expect(error).toMatchObject({ code: 130429, retryable: true, retryAfterMs: 30_000 });
    expect(error.message).toMatch(/in 30 seconds/);
  });

  it("is rate limited without a wait when WhatsApp gives none", async () => {
    standIn.injectFault({ kind: "rate-limit" });
    const error = await failure(send());
    expect(error).toBeInstanceOf(WhatsAppRateLimitedError);
    expect(error.retryAfterMs).toBeUndefined();
  });

  it("treats the pair-rate limit (131056) as rate limited", async () => {
    standIn.injectFault({
      kind: "graph-error",
      status: 400,
      code: 131056,
      message: "Pair rate limit hit",
    });
    expect(await failure(send())).toBeInstanceOf(WhatsAppRateLimitedError);
  });

  it("is unavailable, outcome unknown, on a server error", async () => {
    standIn.injectFault({ kind: "server-error", status: 503 });
    const error = await failure(send());
    expect(error).toBeInstanceOf(WhatsAppUnavailableError);
    expect(error).toMatchObject({ status: 503, retryable: true, outcome: "unknown" });
  });

  it("times out, outcome unknown, when WhatsApp does not answer", async () => {
    standIn.injectFault({ kind: "timeout" });
    const started = performance.now();
    const error = await failure(send(addressCheck(), 300));
    expect(error).toBeInstanceOf(WhatsAppTimeoutError);
    expect(error).toMatchObject({ retryable: true, outcome: "unknown" });
    expect(performance.now() - started).toBeLessThan(3_000);
  });

  it("is not sent when nothing listens at the address", async () => {
    // A port just freed: nothing listens there.
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const error = await failure(
      sendTemplate(addressCheck(), { baseUrl: `http://127.0.0.1:${port}`, timeoutMs: 2_000 }),
    );
    expect(error).toBeInstanceOf(WhatsAppUnavailableError);
    expect(error.outcome).toBe("not_sent");
  });
});

describe("an answer that is not WhatsApp's", () => {
  it("is a malformed reply when a success carries no message id", async () => {
    const fake = http.createServer((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
    });
    await new Promise<void>((resolve) => fake.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = fake.address() as AddressInfo;
      const error = await failure(
        sendTemplate(addressCheck(), { baseUrl: `http://127.0.0.1:${port}` }),
      );
      expect(error).toBeInstanceOf(WhatsAppMalformedReplyError);
      expect(error.outcome).toBe("unknown");
    } finally {
      await new Promise<void>((resolve) => fake.close(() => resolve()));
    }
  });

  it("keeps the token out of an error whose Graph message echoes it", async () => {
    const echo = http.createServer((request, response) => {
      const body = { error: { message: `bad token ${request.headers.authorization}`, code: 190 } };
      response.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify(body));
    });
    await new Promise<void>((resolve) => echo.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = echo.address() as AddressInfo;
      const error = await failure(
        sendTemplate(addressCheck(), { baseUrl: `http://127.0.0.1:${port}` }),
      );
      expect(error).toBeInstanceOf(WhatsAppAuthError);
      const everything = `${error.message} ${JSON.stringify(error)} ${error.graphMessage} ${error.stack}`;
      expect(everything).not.toContain(TOKEN);
      expect(error.graphMessage).toContain("[redacted]");
    } finally {
      await new Promise<void>((resolve) => echo.close(() => resolve()));
    }
  });
});
