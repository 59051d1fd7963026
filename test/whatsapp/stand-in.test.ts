import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { startWhatsAppStandIn, type WhatsAppStandIn } from "../../sandbox/whatsapp";

/** The stand-in's own checks, spoken to over raw HTTP (not through the app's client). */
const TOKEN = "stand-in-token";
let standIn: WhatsAppStandIn | undefined;

afterEach(async () => {
  await standIn?.close();
  standIn = undefined;
});

const templateBody = (overrides: Record<string, unknown> = {}) => ({
  messaging_product: "whatsapp",
  recipient_type: "individual",
  to: "96550001234",
  type: "template",
  template: {
    name: "out_for_delivery",
    language: { code: "en" },
    components: [
      {
        type: "body",
        parameters: [
          { type: "text", text: "Noura" },
          { type: "text", text: "#1042" },
        ],
      },
      { type: "button", sub_type: "url", index: "0", parameters: [{ type: "text", text: "t/x1" }] },
    ],
  },
  ...overrides,
});

interface GraphReply {
  messages: { id: string }[];
  error: { code: number };
}

async function post(body: unknown, path = "/v23.0/106540352242922/messages", token = TOKEN) {
  const response = await fetch(standIn!.url + path, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as GraphReply };
}

describe("the WhatsApp stand-in", () => {
  it("accepts a well-formed template message and records it", async () => {
    standIn = await startWhatsAppStandIn({
      accessToken: TOKEN,
      appSecret: "s",
      statusFlow: "none",
    });
    const { status, json } = await post(templateBody());
    expect(status).toBe(200);
    expect(json.messages[0]?.id).toMatch(/^wamid\./);
    expect(standIn.messages).toHaveLength(1);
  });

  it("refuses a body that is not JSON with code 100", async () => {
    standIn = await startWhatsAppStandIn({ accessToken: TOKEN, appSecret: "s" });
    const { status, json } = await post("{not json");
    expect(status).toBe(400);
    expect(json.error.code).toBe(100);
  });

  it("refuses another path with code 100", async () => {
    standIn = await startWhatsAppStandIn({ accessToken: TOKEN, appSecret: "s" });
    const { json } = await post(templateBody(), "/v23.0/106540352242922/media");
    expect(json.error.code).toBe(100);
  });

  it("refuses a template not approved in the language asked with code 132001", async () => {
    standIn = await startWhatsAppStandIn({
      accessToken: TOKEN,
      appSecret: "s",
      templates: { out_for_delivery: { languages: ["ar"], bodyParameters: 2 } },
    });
    const { status, json } = await post(templateBody());
    expect(status).toBe(404);
    expect(json.error.code).toBe(132001);
  });

  it("refuses a message without the button parameter its template needs", async () => {
    standIn = await startWhatsAppStandIn({ accessToken: TOKEN, appSecret: "s" });
    const body = templateBody();
    body.template.components = body.template.components.slice(0, 1);
    const { json } = await post(body);
    expect(json.error.code).toBe(132000);
  });

  it("meets an injected fault only as many times as asked", async () => {
    standIn = await startWhatsAppStandIn({
      accessToken: TOKEN,
      appSecret: "s",
      statusFlow: "none",
    });
    standIn.injectFault({ kind: "server-error" }, 2);
    expect((await post(templateBody())).status).toBe(500);
    expect((await post(templateBody())).status).toBe(500);
    expect((await post(templateBody())).status).toBe(200);
    expect(standIn.refusals).toEqual([
      { status: 500, code: 1 },
      { status: 500, code: 1 },
    ]);
  });

  it("taps a link carried in the body when the template has no button", async () => {
    standIn = await startWhatsAppStandIn({
      accessToken: TOKEN,
      appSecret: "s",
      statusFlow: "none",
      templates: { plain: { languages: ["ar"], bodyParameters: 2 } },
    });
    const { json } = await post(
      templateBody({
        template: {
          name: "plain",
          language: { code: "ar" },
          components: [
            {
              type: "body",
              parameters: [
                { type: "text", text: "نورة" },
                { type: "text", text: "http://127.0.0.1:3000/s/t/x1" },
              ],
            },
          ],
        },
      }),
    );
    expect(standIn.tap(json.messages[0]!.id)).toBe("http://127.0.0.1:3000/s/t/x1");
  });

  it("sends a failed status with code 131026 when told the flow fails", async () => {
    const received: string[] = [];
    const receiver = http.createServer((request, response) => {
      let text = "";
      request.on("data", (chunk: Buffer) => (text += chunk.toString()));
      request.on("end", () => {
        received.push(text);
        response.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = receiver.address() as AddressInfo;
      standIn = await startWhatsAppStandIn({
        accessToken: TOKEN,
        appSecret: "s",
        statusFlow: "failed",
        webhookUrl: `http://127.0.0.1:${port}/hook`,
      });
      await post(templateBody());
      await standIn.flushCallbacks();
      expect(received).toHaveLength(1);
      const status = JSON.parse(received[0]!).entry[0].changes[0].value.statuses[0];
      expect(status).toMatchObject({ status: "failed", errors: [{ code: 131026 }] });
    } finally {
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });

  it("records a callback nobody received with no response status", async () => {
    standIn = await startWhatsAppStandIn({
      accessToken: TOKEN,
      appSecret: "s",
      statusFlow: "sent",
      webhookUrl: "http://127.0.0.1:1/hook",
    });
    await post(templateBody());
    await standIn.flushCallbacks();
    expect(standIn.callbacks.map((c) => c.responseStatus)).toEqual([null]);
  });
});

describe("the stand-in's faults and callbacks that a sender must survive", () => {
  it("takes a message and loses the answer, echoing its callback data in the callbacks", async () => {
    const bodies: string[] = [];
    const receiver = http.createServer((request, response) => {
      let body = "";
      request.on("data", (chunk: Buffer) => (body += chunk.toString()));
      request.on("end", () => {
        bodies.push(body);
        response.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    try {
      standIn = await startWhatsAppStandIn({
        accessToken: TOKEN,
        appSecret: "s",
        statusFlow: "sent",
      });
      standIn.setWebhookUrl(`http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`);
      standIn.injectFault({ kind: "server-error-after-send" });
      const { status, json } = await post(templateBody({ biz_opaque_callback_data: "row-1" }));
      expect(status).toBe(503);
      expect(json.error.code).toBe(2);
      expect(standIn.messages).toHaveLength(1);
      await standIn.flushCallbacks();
      expect(JSON.parse(bodies[0]!).entry[0].changes[0].value.statuses[0]).toMatchObject({
        id: standIn.messages[0]!.id,
        status: "sent",
        biz_opaque_callback_data: "row-1",
      });
    } finally {
      receiver.close();
    }
  });

  it("tries a refused callback again, as Meta does, until the receiver takes it", async () => {
    let calls = 0;
    const receiver = http.createServer((request, response) => {
      request.resume();
      request.on("end", () => response.writeHead(++calls < 3 ? 503 : 200).end());
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    try {
      standIn = await startWhatsAppStandIn({
        accessToken: TOKEN,
        appSecret: "s",
        statusFlow: "sent",
        callbackRetryDelaysMs: [10, 10, 10],
        webhookUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`,
      });
      await post(templateBody());
      await standIn.flushCallbacks();
      expect(calls).toBe(3);
      expect(standIn.callbacks[0]!.responseStatus).toBe(200);
    } finally {
      receiver.close();
    }
  });
});
