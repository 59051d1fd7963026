import fs from "node:fs";
import path from "node:path";
import type { Browser, Page, Route } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import {
  collectPageErrors,
  launchBrowser,
  newAdminPage,
  embeddedPageUrl,
  gotoReady,
  reloadReady,
} from "../support/browser";
import { BROWSER_SHOP_NAME } from "../support/browser-shop";
import { overflowingElements } from "../support/page-checks";
import { ARTIFACTS_DIR, ROOT } from "../support/paths";

/**
 * `npm run demo`'s bar on a real app page (Home), as the demo serves it: after the App Bridge
 * stand-in, its commands answered the way scripts/support/demo-controls.ts answers them. Folded
 * to one line on a phone, open on a wide screen, the choice kept for the next page; a command says
 * what happened in the page's language and offers a reload. Screenshots in
 * test-results/browser/demo-bar-*.png.
 */
const appUrl = inject("appUrl");
const CONTROLS = "http://demo-controls.test/demo";
const BRIDGE = fs.readFileSync(path.join(ROOT, "sandbox/shopify/app-bridge-standin.js"), "utf8");
const BAR = fs.readFileSync(path.join(ROOT, "sandbox/shopify/demo-bar.js"), "utf8");
let browser: Browser;

/** The demo's controls as the page sees them: the commands it was sent, and its answers. */
function controls(page: Page) {
  const sent: string[] = [];
  let paused = false;
  const answer = (route: Route, status: number, body: object) =>
    route.fulfill({
      status,
      contentType: "application/json",
      headers: { "access-control-allow-origin": "*" },
      body: JSON.stringify(body),
    });
  const ready = Promise.all([
    page.route("https://cdn.shopify.com/shopifycloud/app-bridge.js*", (route) =>
      route.fulfill({
        contentType: "text/javascript",
        body: `${BRIDGE}\nwindow.__DEMO_CONTROLS__ = ${JSON.stringify(CONTROLS)};\n${BAR}`,
      }),
    ),
    page.route(`${CONTROLS}/**`, (route) => {
      const command = new URL(route.request().url()).pathname.slice("/demo/".length);
      if (command !== "state") sent.push(command);
      const clock = () => ({ stepSeconds: 60, paused });
      if (command === "state") return answer(route, 200, { ok: true, command, ...clock() });
      if (command === "pause" || command === "resume") {
        paused = command === "pause";
        return answer(route, 200, { ok: true, command, ...clock() });
      }
      if (command === "fail") {
        return answer(route, 200, { ok: true, command, orderNumber: "KW100001", status: "x" });
      }
      return answer(route, 409, { ok: false, command, error: `Order KW100001 is already there.` });
    }),
  ]);
  return { sent, ready };
}

async function openHome(device: "desktop" | "phone", locale: "ar" | "en", errors: string[]) {
  const page = await newAdminPage(browser, device);
  collectPageErrors(page, errors);
  const demo = controls(page);
  await demo.ready;
  const url = await embeddedPageUrl(appUrl, BROWSER_SHOP_NAME, "/app", locale);
  expect((await gotoReady(page, url))?.status()).toBe(200);
  await page.locator("#demo-bar").waitFor();
  await expect.poll(() => page.locator("#demo-bar .state").textContent()).not.toBe("");
  return { page, sent: demo.sent };
}

async function shot(page: Page, name: string) {
  const file = path.join(ARTIFACTS_DIR, "browser", `${name}.png`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  await page.screenshot({ path: file });
}

const barBox = async (page: Page) => (await page.locator("#demo-bar").boundingBox())!;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

describe("the demo's bar", () => {
  it("is one line on a phone, opens to its controls, and stays as it was left", async () => {
    const errors: string[] = [];
    const { page } = await openHome("phone", "en", errors);
    const folded = await barBox(page);
    expect(folded.height).toBeLessThanOrEqual(60);
    expect(folded.x).toBeGreaterThanOrEqual(0);
    expect(folded.x + folded.width).toBeLessThanOrEqual(390);
    await expect
      .poll(() => page.getByRole("button", { name: "A delivery fails" }).isVisible())
      .toBe(false);
    await shot(page, "demo-bar-phone-en-folded");

    await page.getByRole("button", { name: "Controls" }).click();
    await expect
      .poll(() => page.getByRole("button", { name: "A delivery fails" }).isVisible())
      .toBe(true);
    expect((await barBox(page)).x + (await barBox(page)).width).toBeLessThanOrEqual(390);
    expect(await overflowingElements(page)).toEqual([]);
    await shot(page, "demo-bar-phone-en-open");

    // The next page keeps it open; folding it is kept too.
    await reloadReady(page);
    await page.locator("#demo-bar").waitFor();
    expect(await page.getByRole("button", { name: "A delivery fails" }).isVisible()).toBe(true);
    await page.getByRole("button", { name: "Fold" }).click();
    await reloadReady(page);
    await page.locator("#demo-bar").waitFor();
    expect(await page.getByRole("button", { name: "A delivery fails" }).isVisible()).toBe(false);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("says what a command did, and pauses the courier, on a wide screen", async () => {
    const errors: string[] = [];
    const { page, sent } = await openHome("desktop", "en", errors);
    expect(await page.getByRole("button", { name: "A delivery fails" }).isVisible()).toBe(true);
    const box = await barBox(page);
    expect(box.width).toBeLessThanOrEqual(440);
    await page.getByRole("button", { name: "A delivery fails" }).click();
    await expect
      .poll(() => page.locator("#demo-bar output").textContent())
      .toContain("KW100001: the delivery attempt failed");
    expect(await page.getByRole("button", { name: "Reload to see it" }).isVisible()).toBe(true);
    await page.getByRole("button", { name: "Pause" }).click();
    await expect
      .poll(() => page.locator("#demo-bar .state").textContent())
      .toContain("Courier paused");
    expect(sent).toEqual(["fail", "pause"]);
    // The page's own content can scroll clear of the bar.
    const padding = await page.evaluate(() =>
      parseFloat(getComputedStyle(document.body).paddingBottom),
    );
    expect(padding).toBeGreaterThan((await barBox(page)).height);
    await shot(page, "demo-bar-desktop-en");
    expect(errors).toEqual([]);
    await page.context().close();
  });

  for (const device of ["desktop", "phone"] as const) {
    it(`speaks Arabic on an Arabic page (${device}), refusals included`, async () => {
      const errors: string[] = [];
      const { page, sent } = await openHome(device, "ar", errors);
      if (device === "phone") await page.getByRole("button", { name: "التحكم" }).click();
      await page.getByRole("button", { name: "إرجاع توصيلة" }).click();
      await expect
        .poll(() => page.locator("#demo-bar output").textContent())
        .toContain("غير ممكن الآن");
      expect(sent).toEqual(["return"]);
      const text = (await page.locator("#demo-bar").innerText()).replace(/\d+/g, "");
      expect(text).not.toMatch(/[A-Za-z]/);
      const box = await barBox(page);
      // Right to left: the bar sits in the page's left corner (its end).
      expect(box.x).toBeLessThan(device === "phone" ? 40 : 400);
      expect(await overflowingElements(page)).toEqual([]);
      await shot(page, `demo-bar-${device}-ar`);
      expect(errors).toEqual([]);
      await page.context().close();
    });
  }
});
