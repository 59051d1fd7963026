import { describe, expect, it } from "vitest";
import {
  answerVerification,
  parseInboundMessages,
  parseStatusCallback,
  signStatusCallback,
  verifyStatusCallback,
} from "../../app/whatsapp";
import {
  deliveredAndReadCallback,
  failedCallback,
  incomingMessageCallback,
  sentCallback,
  WAMID,
} from "./fixtures";

const SECRET = "0123456789abcdef0123456789abcdef";
const raw = JSON.stringify(sentCallback);

describe("status callback signatures", () => {
  it("accepts the signature of the raw body under the app secret", () => {
    expect(verifyStatusCallback(raw, signStatusCallback(raw, SECRET), SECRET)).toBe(true);
  });

  it("accepts a body given as bytes", () => {
    const bytes = Buffer.from(raw);
    expect(verifyStatusCallback(bytes, signStatusCallback(bytes, SECRET), SECRET)).toBe(true);
  });

  it("refuses a forged signature", () => {
    expect(verifyStatusCallback(raw, `sha256=${"ab".repeat(32)}`, SECRET)).toBe(false);
  });

  it("refuses a missing signature", () => {
    expect(verifyStatusCallback(raw, undefined, SECRET)).toBe(false);
    expect(verifyStatusCallback(raw, "", SECRET)).toBe(false);
  });

  it("refuses a signature made with another secret", () => {
    expect(verifyStatusCallback(raw, signStatusCallback(raw, "another secret"), SECRET)).toBe(
      false,
    );
  });

  it("refuses a body altered by one byte", () => {
    const signature = signStatusCallback(raw, SECRET);
    const altered = raw.replace('"sent"', '"senT"');
    expect(altered).not.toBe(raw);
    expect(verifyStatusCallback(altered, signature, SECRET)).toBe(false);
  });

  it("refuses everything when no app secret is configured", () => {
    expect(verifyStatusCallback(raw, signStatusCallback(raw, ""), "")).toBe(false);
  });

  it("refuses a bare hex digest without its sha256= prefix", () => {
    const bare = signStatusCallback(raw, SECRET).slice("sha256=".length);
    expect(verifyStatusCallback(raw, bare, SECRET)).toBe(false);
  });
});

describe("status callback payloads", () => {
  it("reads a sent status as one event", () => {
    expect(parseStatusCallback(sentCallback)).toEqual([
      {
        messageId: WAMID,
        status: "sent",
        at: new Date(1750263773 * 1000),
        recipientId: "96550001234",
        phoneNumberId: "106540352242922",
      },
    ]);
  });

  it("flattens several statuses of one change in order", () => {
    const events = parseStatusCallback(deliveredAndReadCallback);
    expect(events.map((e) => e.status)).toEqual(["delivered", "read"]);
  });

  it("carries the code and details of a failed status", () => {
    const [event] = parseStatusCallback(failedCallback);
    expect(event?.status).toBe("failed");
    expect(event?.error).toEqual({
      code: 131026,
      title: "Message undeliverable",
      details: "Message Undeliverable.",
    });
  });

  it("finds no status events in an incoming message", () => {
    expect(parseStatusCallback(incomingMessageCallback)).toEqual([]);
  });

  it("skips statuses the app does not follow", () => {
    const played = JSON.parse(raw.replace('"status":"sent"', '"status":"played"')) as unknown;
    expect(parseStatusCallback(played)).toEqual([]);
  });

  it("carries the opaque data the message was sent with", () => {
    const echoed = JSON.parse(
      raw.replace('"status":"sent"', '"status":"sent","biz_opaque_callback_data":"row-42"'),
    ) as unknown;
    expect(parseStatusCallback(echoed)[0]?.callbackData).toBe("row-42");
  });

  it("reads a shopper's text from an incoming message", () => {
    expect(parseInboundMessages(incomingMessageCallback)).toEqual([
      {
        from: "16505551234",
        text: "Does it come in another color?",
        at: new Date(1749416383 * 1000),
        phoneNumberId: "106540352242922",
      },
    ]);
  });

  it("finds no incoming message in a status callback", () => {
    expect(parseInboundMessages(sentCallback)).toEqual([]);
  });

  it("refuses a body from another kind of object", () => {
    expect(() => parseStatusCallback({ ...sentCallback, object: "page" })).toThrow();
  });

  it("refuses a status without a message id", () => {
    const broken = structuredClone(sentCallback) as {
      entry: { changes: { value: { statuses: { id?: string }[] } }[] }[];
    };
    delete broken.entry[0]!.changes[0]!.value.statuses[0]!.id;
    expect(() => parseStatusCallback(broken)).toThrow();
  });
});

describe("the callback URL's verification handshake", () => {
  const query = (params: Record<string, string>) => new URLSearchParams(params);

  it("echoes the challenge when the mode is subscribe and the token matches", () => {
    const answer = answerVerification(
      query({
        "hub.mode": "subscribe",
        "hub.verify_token": "our-token",
        "hub.challenge": "1158201444",
      }),
      "our-token",
    );
    expect(answer).toBe("1158201444");
  });

  it("refuses a wrong verify token", () => {
    const answer = answerVerification(
      query({
        "hub.mode": "subscribe",
        "hub.verify_token": "guess",
        "hub.challenge": "1158201444",
      }),
      "our-token",
    );
    expect(answer).toBeNull();
  });

  it("refuses another mode", () => {
    const answer = answerVerification(
      query({ "hub.mode": "unsubscribe", "hub.verify_token": "our-token", "hub.challenge": "1" }),
      "our-token",
    );
    expect(answer).toBeNull();
  });

  it("refuses a request without a challenge", () => {
    expect(
      answerVerification(
        query({ "hub.mode": "subscribe", "hub.verify_token": "our-token" }),
        "our-token",
      ),
    ).toBeNull();
  });

  it("refuses everything when no verify token is configured", () => {
    expect(
      answerVerification(
        query({ "hub.mode": "subscribe", "hub.verify_token": "", "hub.challenge": "1" }),
        "",
      ),
    ).toBeNull();
  });
});
