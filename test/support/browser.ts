import fs from "node:fs";
import path from "node:path";
import { chromium, type Browser, type Page, type Response } from "playwright-core";
import { ARTIFACTS_DIR, ROOT } from "./paths";

export const HUMAN_USER_AGENT =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36";
const PHONE_USER_AGENT =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const APP_BRIDGE_STANDIN = fs.readFileSync(
  path.join(ROOT, "sandbox", "shopify", "app-bridge-standin.js"),
  "utf8",
);

/** Debian's Chromium, headless, with nothing reaching beyond loopback. */
export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM}: run "apt-get install -y chromium" (as .ci/run does) or set CHROMIUM_PATH.`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      ...extraArgs,
    ],
  });
}

/**
 * A page whose App Bridge script is the local stand-in and whose other off-machine requests
 * (fonts) are answered empty, as if the admin's CDN were slow to load nothing. A "phone" is a
 * 390 px Android Chrome (its user agent says Mobile).
 */
export async function newAdminPage(
  browser: Browser,
  device: "desktop" | "phone" = "desktop",
): Promise<Page> {
  // Shopify's library answers "HeadlessChrome" as a bot (410), so the page says it is Chrome.
  // A context of its own (closed with the page), as axe-core's Playwright runner requires.
  const context = await browser.newContext(
    device === "phone"
      ? { viewport: { width: 390, height: 844 }, userAgent: PHONE_USER_AGENT, isMobile: true }
      : { viewport: { width: 1280, height: 900 }, userAgent: HUMAN_USER_AGENT },
  );
  const page = await context.newPage();
  // Closing the page closes its context; when the browser itself is closing meanwhile (the end
  // of a file), that close fails and there is nothing left to close.
  page.on("close", () => void context.close().catch(() => undefined));
  await page.route(
    (url) => url.hostname !== "127.0.0.1" && url.hostname !== "localhost",
    (route) => {
      const url = route.request().url();
      if (url.startsWith("https://cdn.shopify.com/shopifycloud/app-bridge.js")) {
        return route.fulfill({ contentType: "text/javascript", body: APP_BRIDGE_STANDIN });
      }
      if (url.endsWith(".css")) return route.fulfill({ contentType: "text/css", body: "" });
      return route.abort();
    },
  );
  return page;
}

/**
 * Uncaught errors and every console error of the page into `errors`: React's recoverable errors
 * (a hydration mismatch re-rendering the whole root: #418, #423, #425) are console errors, not
 * uncaught ones. Requests this harness refuses on purpose (anything off this machine) are not, nor
 * a form action the app answered with a 4xx (its refusal, which the page shows in words).
 */
export function collectPageErrors(page: Page, errors: string[]): void {
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() !== "error") return;
    const from = message.location().url;
    const failedLoad = /^Failed to load resource/.test(message.text());
    if (failedLoad && from && !isLoopback(from)) return;
    // The page's own document answering 404 (a wrong link's page): the test checks its status.
    if (failedLoad && from === page.url()) return;
    // A form the app refused (400 with what to fix) is an answer the page shows, not an error.
    if (
      failedLoad &&
      /status of 4\d\d/.test(message.text()) &&
      /\.data(?:\?|$)|[?&]_data=/.test(from)
    )
      return;
    errors.push(`console: ${message.text()} (${from})`);
  });
}

function isLoopback(url: string): boolean {
  try {
    const { hostname } = new URL(url);
    return hostname === "127.0.0.1" || hostname === "localhost";
  } catch {
    return false;
  }
}

export async function screenshot(page: Page, name: string): Promise<string> {
  const file = path.join(ARTIFACTS_DIR, "browser", `${name}.png`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/**
 * An app page's address as the Shopify admin opens it in its frame: shop, host and a fresh
 * session token; `locale` as the admin sends the staff member's language ("ar", "en-US").
 */
export async function embeddedPageUrl(
  appUrl: string,
  shopName: string,
  pagePath: string,
  locale?: "ar" | "en",
): Promise<string> {
  const { getJwt, API_KEY, API_SECRET_KEY } = await import("@shopify/shopify-api/test-helpers");
  const { token } = await getJwt(shopName, API_KEY, API_SECRET_KEY);
  const url = new URL(pagePath, appUrl);
  url.searchParams.set("embedded", "1");
  url.searchParams.set("shop", `${shopName}.myshopify.com`);
  url.searchParams.set(
    "host",
    Buffer.from(`admin.shopify.com/store/${shopName}`).toString("base64"),
  );
  url.searchParams.set("id_token", token);
  if (locale) url.searchParams.set("locale", locale === "ar" ? "ar" : "en-US");
  return url.href;
}

/** Opens an app page as the Shopify admin would: in its frame URL, with a fresh session token. */
export async function openEmbeddedPage(
  browser: Browser,
  appUrl: string,
  shopName: string,
  pagePath: string,
  pageErrors: string[] = [],
  expectedStatus = 200,
): Promise<Page> {
  const page = await newAdminPage(browser);
  collectPageErrors(page, pageErrors);
  const response = await gotoReady(page, await embeddedPageUrl(appUrl, shopName, pagePath));
  if (response?.status() !== expectedStatus) {
    throw new Error(`${pagePath} answered ${response?.status()}`);
  }
  return page;
}

/**
 * Opens a page and waits until React has hydrated it (app/root.tsx marks <html data-hydrated>):
 * a page checked or photographed before then is not the page a merchant uses, and Playwright's
 * screenshot writes a style on every input to hide the caret, which a hydration still under way
 * reports as a mismatch. A page opened without JavaScript (`javaScript: false`) has no hydration.
 */
export async function gotoReady(
  page: Page,
  url: string,
  options: { javaScript?: boolean } = {},
): Promise<Response | null> {
  // eslint-disable-next-line no-restricted-syntax -- the one place pages are opened
  const response = await page.goto(url);
  if (options.javaScript !== false) await hydrated(page);
  return response;
}

/** Reloads a page and waits for its hydration, as gotoReady does. */
export async function reloadReady(page: Page): Promise<Response | null> {
  // eslint-disable-next-line no-restricted-syntax -- the one place pages are reloaded
  const response = await page.reload();
  await hydrated(page);
  return response;
}

async function hydrated(page: Page): Promise<void> {
  // A page the server answered without the app's document (a bare error text) is never hydrated.
  if ((await page.locator("script[type=module]").count()) === 0) return;
  await page.locator("html[data-hydrated]").waitFor({ state: "attached", timeout: 30_000 });
}
