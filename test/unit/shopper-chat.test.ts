import { describe, expect, it } from "vitest";
import {
  customerWhatsappNumber,
  messageLanguage,
  shopperChatMessage,
  whatsappChatUrl,
} from "../../app/domain/shopper-chat";

const link = "https://courier-app.example/tracking/0123456789abcdef0123456789abcdef";

describe("the customer's WhatsApp number", () => {
  it.each([
    ["+965 5012 3456", "96550123456"],
    ["0096560123456", "96560123456"],
    ["965 9988 7766", "96599887766"],
    ["99887766", "96599887766"],
    ["٩٩٨٨٧٧٦٦", "96599887766"],
    ["+971 50 123 4567", "971501234567"],
  ])("reads %s as %s", (typed, number) => {
    expect(customerWhatsappNumber(typed)).toBe(number);
  });

  it.each([
    ["a Kuwaiti landline", "22223333"],
    ["a number without its country", "0501234567"],
    ["too few digits", "+965 5012"],
    ["no phone", null],
  ])("is none for %s", (_case, typed) => {
    expect(customerWhatsappNumber(typed)).toBeNull();
  });
});

describe("the message to the customer", () => {
  it("says the shop, the order, what to do and the link in English", () => {
    expect(
      shopperChatMessage({
        language: "en",
        shopName: "Dar Al Oud",
        orderName: "#1044",
        questions: ["address"],
        link,
      }),
    ).toBe(
      `Hello from Dar Al Oud. About your order #1044: please confirm or correct your delivery address here: ${link}`,
    );
  });

  it("asks about cash on delivery in Arabic", () => {
    expect(
      shopperChatMessage({
        language: "ar",
        shopName: "دار العود",
        orderName: "#1044",
        questions: ["cash"],
        link,
      }),
    ).toBe(
      `مرحباً من دار العود. بخصوص طلبك #1044: يرجى تأكيد الدفع نقداً عند الاستلام من هنا: ${link}`,
    );
  });

  it("asks both questions in one message and leaves out a missing shop name", () => {
    const message = shopperChatMessage({
      language: "en",
      shopName: null,
      orderName: null,
      questions: ["address", "cash"],
      link,
    });
    expect(message).toBe(
      `Hello. About your order: please confirm your delivery address and cash on delivery here: ${link}`,
    );
  });

  it("is written in Arabic only for a customer who shopped in Arabic", () => {
    expect(messageLanguage("ar")).toBe("ar");
    expect(messageLanguage("ar-KW")).toBe("ar");
    expect(messageLanguage("en")).toBe("en");
    expect(messageLanguage("fr")).toBe("en");
    expect(messageLanguage(null)).toBe("en");
  });

  it("goes into WhatsApp's link encoded", () => {
    const url = whatsappChatUrl("96550123456", "Hello & welcome: #1044");
    expect(url).toBe("https://wa.me/96550123456?text=Hello%20%26%20welcome%3A%20%231044");
    expect(new URL(url).searchParams.get("text")).toBe("Hello & welcome: #1044");
  });
});
