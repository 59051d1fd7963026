import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { leafKeys, type Catalog } from "../../app/i18n/catalog-check";
import { resources } from "../../app/i18n/config";
import {
  collectPageErrors,
  launchBrowser,
  newAdminPage,
  openEmbeddedPage,
  screenshot,
  gotoReady,
} from "../support/browser";
import {
  appDatabase,
  BROWSER_SHOP,
  BROWSER_SHOP_NAME,
  connectCourier,
  ensureStoreLocation,
} from "../support/browser-shop";
import {
  charactersLeftToRight,
  englishCatalogStrings,
  latinTextOnArabicPage,
  overflowingElements,
  seriousAccessibilityViolations,
  KEPT_IN_LATIN,
} from "../support/page-checks";

const appUrl = inject("appUrl");
const SHOP_NAME = BROWSER_SHOP_NAME;
const shop = BROWSER_SHOP;
const prisma = appDatabase();
let browser: Browser;
let trackingToken = "";
let labelDeliveryId = "";
let waitingDeliveryId = "";

const WIDTHS = [1280, 390] as const;
// Names that stay as they are in an Arabic sentence.
const BRAND_WORDS = [...KEPT_IN_LATIN, "name@example.com", "jaddah"];
// Protocol words and raw codes a merchant should never read.
const PROTOCOL_WORDS =
  /HMAC|ApiKey|Authorization|[Gg]overnance|picked_up|out_for_delivery|needs_address|at_the_hub/;

const catalogs = resources as Record<string, Record<string, Catalog>>;
/** English catalog sentences (not shared with Arabic, no placeholders): none may show in Arabic. */
const ENGLISH_PHRASES = Object.entries(catalogs.en!).flatMap(([namespace, catalog]) => {
  const arabic = leafKeys(catalogs.ar?.[namespace] ?? {});
  return [...leafKeys(catalog)]
    .filter(([key, value]) => arabic.get(key) !== value && !value.includes("{{"))
    .map(([, value]) => value)
    .filter((value) => value.length >= 6 && /[A-Za-z]{3}/.test(value));
});

/** An admin page as Shopify's admin opens it for a staff member using `language`. */
async function openAdmin(
  path: string,
  language: "en" | "ar",
  width: number,
  expectedStatus = 200,
): Promise<Page> {
  const url = new URL(path, "http://x");
  url.searchParams.set("locale", language === "ar" ? "ar" : "en-US");
  const errors: string[] = [];
  const page = await openEmbeddedPage(
    browser,
    appUrl,
    SHOP_NAME,
    url.pathname + url.search,
    errors,
    expectedStatus,
  );
  pageErrors.set(page, errors);
  await page.setViewportSize({ width, height: 900 });
  return page;
}

/** Each page's uncaught and console errors (a hydration mismatch is one), from its opening on. */
const pageErrors = new WeakMap<Page, string[]>();

async function checkPage(page: Page, name: string, language: "en" | "ar", width: number) {
  await page.waitForLoadState("networkidle");
  expect(pageErrors.get(page), `${name} ${language} ${width}: errors in the browser`).toEqual([]);
  expect(await page.getAttribute("html", "lang")).toBe(language);
  expect(await page.getAttribute("html", "dir")).toBe(language === "ar" ? "rtl" : "ltr");
  await screenshot(page, `i18n-${name}-${language}-${width}`);
  expect(await overflowingElements(page), `${name} ${language} ${width}`).toEqual([]);
  const text = await page.evaluate(() => document.body.innerText);
  expect(text).not.toMatch(PROTOCOL_WORDS);
  if (language === "ar") {
    expect(await englishCatalogStrings(page, ENGLISH_PHRASES), name).toEqual([]);
    expect(await latinTextOnArabicPage(page, BRAND_WORDS), name).toEqual([]);
  }
}

beforeAll(async () => {
  browser = await launchBrowser();
  await (await openEmbeddedPage(browser, appUrl, SHOP_NAME, "/app")).close();
  await connectCourier(prisma, {
    courierCheckedAt: new Date(),
    trackingShopName: "Dar Al Oud",
    trackingContactPhone: "+965 2222 3333",
  });
  // A status met in tracking before the courier named it: Settings shows it in words, not code.
  await prisma.courierStatusMapping.upsert({
    where: { shop_code: { shop, code: "at_the_hub" } },
    create: { shop, code: "at_the_hub", name: null, state: "in_transit", source: "default" },
    update: { name: null },
  });
  await ensureStoreLocation();
  const at = (minutes: number) => new Date(Date.now() - (120 - minutes) * 60_000);
  const delivery = await prisma.delivery.create({
    data: {
      shop,
      orderId: "gid://shopify/Order/9901",
      orderName: "#9901",
      fulfillmentId: "gid://shopify/Fulfillment/9901",
      source: "webhook",
      state: "out_for_delivery",
      environment: "sandbox",
      reference: "SHPFY-i18n-9901",
      courierOrderNumber: "KW990001",
      events: {
        create: [
          { shop, at: at(0), kind: "created", message: "Created at the courier." },
          { shop, at: at(1), kind: "tracking", message: "Tracking number on the fulfillment." },
          {
            shop,
            at: at(30),
            kind: "courier_status",
            message: "Courier status",
            data: JSON.stringify({
              status: "picked_up",
              state: "picked_up",
              at: at(29).toISOString(),
            }),
          },
          {
            shop,
            at: at(90),
            kind: "courier_status",
            message: "Courier status",
            data: JSON.stringify({
              status: "out_for_delivery",
              state: "out_for_delivery",
              at: at(90).toISOString(),
            }),
          },
        ],
      },
    },
  });
  trackingToken = delivery.trackingToken;
  labelDeliveryId = delivery.id;
  const waiting = await prisma.delivery.create({
    data: {
      shop,
      orderId: "gid://shopify/Order/9902",
      orderName: "#9902",
      fulfillmentId: "gid://shopify/Fulfillment/9902",
      source: "webhook",
      state: "needs_address",
      environment: "sandbox",
      reference: "SHPFY-i18n-9902",
      addressMatch: JSON.stringify({
        input: {
          address1: "Rumaithiya co-op street, behind the mosque",
          address2: null,
          city: "Salmiya",
          provinceCode: "KW-HA",
        },
        area: "Salmiya",
        doubt: { kind: "two_areas", areas: ["Salmiya", "Rumaithiya"] },
        parts: { block: null },
        contactPhone: "+96599887766",
      }),
    },
  });
  waitingDeliveryId = waiting.id;
});

afterAll(async () => {
  await prisma.staffLanguage.deleteMany({ where: { shop } });
  await browser?.close();
  await prisma.$disconnect();
});

// Every page of the app's navigation: the checks above, in both languages at both widths.
const ADMIN_PAGES = [
  ["home", "/app"],
  ["deliveries", "/app/deliveries"],
  ["send", "/app/send"],
  ["cash", "/app/cash"],
  ["reports", "/app/reports"],
  ["privacy", "/app/privacy"],
  ["settings", "/app/settings"],
  ["language", "/app/language"],
  ["pickup-locations", "/app/pickup-locations"],
  ["address-review", "/app/address-review"],
  ["customer-answers", "/app/customer-answers"],
] as const;

describe("pages in English and Arabic", () => {
  for (const [name, path] of ADMIN_PAGES) {
    for (const language of ["en", "ar"] as const) {
      it(`shows ${name} in ${language} at 1280 and 390 px, nothing overflowing`, async () => {
        // Opened once at 1280 px, then narrowed to a phone's width: the layout follows the
        // window (Polaris's breakpoints listen to it), and each page is loaded once.
        const page = await openAdmin(path, language, WIDTHS[0]);
        await checkPage(page, name, language, WIDTHS[0]);
        expect(await seriousAccessibilityViolations(page)).toEqual([]);
        if (name === "pickup-locations") {
          // The governorate named, not its code; the pin one click away on a map.
          const text = await page.evaluate(() => document.body.innerText);
          expect(text).not.toMatch(/\bKW-[A-Z]{2}\b/);
          expect(text).toContain(language === "en" ? "Hawalli" : "حولي");
          const pin = page.locator('a[href^="https://maps.google.com/?q="]').first();
          expect(await pin.getAttribute("href")).toMatch(/\?q=-?\d+(\.\d+)?,-?\d+(\.\d+)?$/);
          expect(await pin.getAttribute("target")).toBe("_blank");
        }
        await page.setViewportSize({ width: WIDTHS[1], height: 900 });
        await checkPage(page, name, language, WIDTHS[1]);
        await page.close();
      });
    }
  }

  for (const language of ["en", "ar"] as const) {
    it(`shows the shoppers' tracking page in ${language}, and a wrong link's page`, async () => {
      for (const width of WIDTHS) {
        const page = await newAdminPage(browser);
        const errors: string[] = [];
        collectPageErrors(page, errors);
        pageErrors.set(page, errors);
        await page.setViewportSize({ width, height: 800 });
        await page.setExtraHTTPHeaders({
          "Accept-Language": language === "ar" ? "ar-KW,ar;q=0.9" : "en-GB,en;q=0.9",
        });
        expect((await gotoReady(page, `${appUrl}/tracking/${trackingToken}`))?.status()).toBe(200);
        await checkPage(page, "tracking", language, width);
        const steps = await page.locator("ol li .sp-step").allInnerTexts();
        expect(steps).toEqual(
          language === "en"
            ? [
                "Booked with the courier",
                "Picked up from the shop",
                "Out for delivery",
                "Delivered",
              ]
            : ["سُجّلت لدى شركة التوصيل", "استُلمت من المتجر", "خرجت للتوصيل", "تم التوصيل"],
        );
        expect(await page.locator("li[aria-current=step] .sp-step").innerText()).toBe(steps[2]);
        expect(await page.getByText("Dar Al Oud", { exact: true }).count()).toBe(1);
        // Numbers read left to right in both languages, the Arabic page's order around them
        // notwithstanding: the shop's phone and the tracking number.
        expect(await charactersLeftToRight(page, "a[href^='tel:'] bdi")).toBe("+96522223333");
        expect(await charactersLeftToRight(page, ".sp-number bdi")).toBe("KW990001");
        // The phone starts where the line above it starts (the right edge in Arabic).
        const edges = await page.evaluate(() => {
          const line = document.querySelector(".sp-contact-card > p")!.getBoundingClientRect();
          const phone = document.querySelector(".sp-tel")!.getBoundingClientRect();
          return { line: [line.left, line.right], phone: [phone.left, phone.right] };
        });
        const side = language === "ar" ? 1 : 0;
        expect(Math.abs(edges.phone[side]! - edges.line[side]!)).toBeLessThanOrEqual(1);
        if (width === 1280) expect(await seriousAccessibilityViolations(page)).toEqual([]);

        expect((await gotoReady(page, `${appUrl}/tracking/not-a-real-link`))?.status()).toBe(404);
        await checkPage(page, "tracking-wrong-link", language, width);
        expect(await page.locator("h1").innerText()).toBe(
          language === "en" ? "Page not found" : "الصفحة غير موجودة",
        );
        await page.close();
      }
    });
  }

  for (const language of ["en", "ar"] as const) {
    it(`shows the shipping labels page in ${language}, and a link that names nothing`, async () => {
      for (const width of WIDTHS) {
        const page = await openAdmin(
          `/app/labels?deliveryIds=${labelDeliveryId},${waitingDeliveryId}`,
          language,
          width,
        );
        await checkPage(page, "labels", language, width);
        expect(await page.locator("iframe").count()).toBe(1);
        // The delivery waiting for an address is left out, and the page says why and where to go.
        const why =
          language === "en" ? "Waiting for the customer's address (1)" : "بانتظار عنوان العميل (1)";
        expect(await page.getByText(why).count()).toBe(1);
        expect(
          await page
            .getByRole("listitem")
            .getByRole("link", { name: language === "en" ? "Review addresses" : "مراجعة العناوين" })
            .getAttribute("href"),
        ).toContain("/app/address-review");
        // The label fits the frame on a phone (shrunk on screen only, printed at its size).
        const fits = await page
          .frameLocator("iframe")
          .locator("html")
          .evaluate((html) => html.scrollWidth <= html.ownerDocument.defaultView!.innerWidth + 1);
        expect(fits).toBe(true);
        if (width === 1280) expect(await seriousAccessibilityViolations(page)).toEqual([]);
        await page.close();
      }
      const none = await openAdmin(`/app/labels?deliveryIds=${waitingDeliveryId}`, language, 390);
      await checkPage(none, "labels-none-to-print", language, 390);
      expect(await none.locator("iframe").count()).toBe(0);
      expect(
        await none
          .getByText(
            language === "en"
              ? "None of these deliveries has a label to print"
              : "لا توجد ملصقات لطباعتها لأي من هذه التوصيلات",
          )
          .count(),
      ).toBe(1);
      await none.close();
      const wrong = await openAdmin("/app/labels?size=A6", language, 390);
      await checkPage(wrong, "labels-nothing-named", language, 390);
      expect(
        await wrong
          .getByText(language === "en" ? "This link does not name" : "هذا الرابط لا يحدد")
          .count(),
      ).toBe(1);
      await wrong.close();
    });
  }

  for (const language of ["en", "ar"] as const) {
    it(`says on address review in ${language}, before sending, whether the answer is remembered`, async () => {
      const page = await openAdmin("/app/address-review", language, 1280);
      // The waiting delivery's address names Salmiya: its spelling can be remembered.
      const card = page.locator("form", { hasText: "#9902" });
      // The governorate the customer chose, named in the page's language (not "KW-HA").
      const cardText = await card.innerText();
      expect(cardText).not.toMatch(/KW-[A-Z]{2}/);
      expect(cardText).toContain(language === "en" ? "governorate chosen: Hawalli" : "حولي");
      // The customer one tap away, and the delivery (with the order) one click away.
      expect(await card.locator('a[href="tel:+96599887766"]').count()).toBe(1);
      expect(await card.locator(`a[href*="/app/deliveries/"]`).count()).toBe(1);
      // Why the app is not sure, in the page's language with the areas named in it.
      expect(cardText).toContain(
        language === "en"
          ? "The address names both Salmiya and Rumaithiya, and nothing says which one"
          : "يذكر العنوان السالمية والرميثية معًا",
      );
      const sentence = card.locator("[data-remember-sentence]");
      expect(await sentence.innerText()).toBe(
        language === "en"
          ? "When you send, orders whose address is written this way will go to the area you choose, without asking."
          : "عند الإرسال، ستذهب الطلبات التي يُكتب عنوانها بهذه الطريقة إلى المنطقة التي تختارها، دون سؤالك.",
      );
      await card.getByRole("checkbox").uncheck();
      expect(await sentence.innerText()).toBe(
        language === "en"
          ? "Only this delivery is corrected; the next address written this way is asked about again."
          : "تُصحَّح هذه التوصيلة فقط؛ وسيُسأل عن العنوان التالي المكتوب بهذه الطريقة مرة أخرى.",
      );
      await checkPage(page, "address-review-remember", language, 1280);
      await page.close();
    });

    it(`says in ${language} that a delivery is not in this shop, with a way back`, async () => {
      for (const width of WIDTHS) {
        const page = await openAdmin(
          "/app/deliveries/not-a-delivery-of-this-shop",
          language,
          width,
          404,
        );
        await checkPage(page, "admin-not-found", language, width);
        expect(await page.locator("h1").innerText()).toBe(
          language === "en" ? "Not found in this shop" : "غير موجود في هذا المتجر",
        );
        expect(await page.getByText("No such delivery").count()).toBe(0);
        expect(await page.locator('a[href="/app/deliveries"]').count()).toBeGreaterThan(0);
        await page.close();
      }
    });
  }

  it("switches a staff member's language and keeps it over Shopify's", async () => {
    const page = await openAdmin("/app/language", "en", 1280);
    await page.getByRole("button", { name: "العربية" }).click();
    await expect.poll(() => page.getAttribute("html", "dir")).toBe("rtl");
    await expect.poll(() => page.getByRole("heading", { name: "اللغة" }).count()).toBe(1);
    await expect
      .poll(() => page.locator("[data-standin-toast]").getByText("تم حفظ اللغة").count())
      .toBe(1);
    await page.close();
    // Shopify's admin still says English; the staff member's choice wins.
    const again = await openAdmin("/app/settings", "en", 1280);
    expect(await again.getAttribute("html", "lang")).toBe("ar");
    expect(await again.getByRole("heading", { name: "الإعدادات" }).count()).toBe(1);
    await again.close();
    const row = await prisma.staffLanguage.findFirstOrThrow({ where: { shop } });
    expect(row).toMatchObject({ language: "ar", chosen: true });
  });
});
