import { readFileSync } from "node:fs";
import path from "node:path";
import { render } from "preact";
import { expect, vi } from "vitest";
import { ROOT } from "../../support/paths";

/**
 * The Shopify admin as an extension sees it, for rendering the extensions' real Preact trees in
 * happy-dom without Shopify: the `shopify` global of the extension API (i18n from the extension's
 * own locales/, the selected orders, the session token, `close`, the block's `navigation`), and
 * `fetch` to the app's `/api/...` answered by the test's routes. Polaris web components (`s-*`)
 * are not defined here: they stay plain elements with the attributes the admin would read, and
 * the helpers below read and press them the way a merchant would (a disabled button cannot be
 * pressed; a button or link with an `href` navigates there).
 */

export type ExtensionFolder =
  "courier-delivery-block" | "courier-send-action" | "courier-bulk-send" | "courier-labels";

export interface AppRequest {
  method: string;
  /** Path and query, as the extension asked (relative to the app's URL). */
  url: string;
  path: string;
  query: URLSearchParams;
  authorization: string | null;
  body: unknown;
}

type Answer = Response | { status?: number; json: unknown };
export type Route = (request: AppRequest) => Answer | Promise<Answer>;

export interface FakeAdminOptions {
  extension: ExtensionFolder;
  target: string;
  /** The merchant's admin language: the extension's `locales/ar.json` or `en.default.json`. */
  locale?: "en" | "ar";
  /** The order page's order, or the orders selected in the order list (numeric ids). */
  orders: readonly number[];
  /** "GET /api/orders/7001" → its answer. Any other request fails the test. */
  routes?: Record<string, Route>;
}

export const SESSION_TOKEN = "header.session-token-of-dar-al-abaya.signature";

export interface FakeAdmin {
  /** Every request the extension made to the app, in order. */
  requests: AppRequest[];
  /** Where the admin was asked to go (`app:` pages of the app, tracking links). */
  navigations: string[];
  close: ReturnType<typeof vi.fn>;
  /** Keys the extension asked for that its locale does not have. */
  missingKeys: string[];
  routes: Record<string, Route>;
}

const BLOCK_TARGETS = new Set(["admin.order-details.block.render"]);

/**
 * Shopify's translate over an extension's own locales/: a dotted key, `{{name}}` replacements,
 * and `count` choosing among the plural forms (zero, one, two, few, many, other) the language
 * has. A key the locale lacks is pushed to `missingKeys` and shown as such.
 */
export function localeTranslate(extension: string, locale: "en" | "ar", missingKeys: string[]) {
  const messages = JSON.parse(
    readFileSync(
      path.join(
        ROOT,
        "extensions",
        extension,
        "locales",
        locale === "en" ? "en.default.json" : "ar.json",
      ),
      "utf8",
    ),
  ) as Record<string, unknown>;
  const plural = new Intl.PluralRules(locale);
  return (key: string, replacements: Record<string, unknown> = {}) => {
    let value: unknown = key.split(".").reduce<unknown>((node, part) => {
      return node && typeof node === "object" ? (node as Record<string, unknown>)[part] : undefined;
    }, messages);
    if (value && typeof value === "object" && typeof replacements.count === "number") {
      const forms = value as Record<string, unknown>;
      value = forms[plural.select(replacements.count)] ?? forms.other;
    }
    if (typeof value !== "string") {
      missingKeys.push(key);
      return `[missing ${locale} text: ${key}]`;
    }
    return value.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) =>
      name in replacements ? String(replacements[name]) : whole,
    );
  };
}

export function installFakeAdmin(options: FakeAdminOptions): FakeAdmin {
  const locale = options.locale ?? "en";
  const admin: FakeAdmin = {
    requests: [],
    navigations: [],
    close: vi.fn(),
    missingKeys: [],
    routes: { ...options.routes },
  };
  const translate = localeTranslate(options.extension, locale, admin.missingKeys);

  const shopify: Record<string, unknown> = {
    extension: { target: options.target },
    i18n: {
      translate,
      formatNumber: (n: number) => new Intl.NumberFormat(locale).format(n),
      formatCurrency: (n: number, o?: Intl.NumberFormatOptions) =>
        new Intl.NumberFormat(locale, { style: "currency", currency: "KWD", ...o }).format(n),
      formatDate: (d: Date) => new Intl.DateTimeFormat(locale).format(d),
    },
    data: { selected: options.orders.map((id) => ({ id: `gid://shopify/Order/${id}` })) },
    auth: { idToken: async () => SESSION_TOKEN },
    close: admin.close,
  };
  // Only the block's API navigates, and only to another extension of the page ("Currently
  // supports navigating from a block to an action extension"); an action or a print action has no
  // `navigation`. The app's own pages open from an `app:` href.
  if (BLOCK_TARGETS.has(options.target)) {
    shopify.navigation = {
      navigate: (url: string | URL) => {
        if (!String(url).startsWith("extension:")) {
          throw new Error(
            `A block's navigation.navigate opens extensions only, not ${String(url)}`,
          );
        }
        admin.navigations.push(String(url));
      },
    };
  }
  vi.stubGlobal("shopify", shopify);

  vi.stubGlobal("fetch", async (input: string, init: RequestInit = {}) => {
    const url = new URL(input, "https://courier-app.example.com");
    const headers = new Headers(init.headers);
    const request: AppRequest = {
      method: init.method ?? "GET",
      url: input,
      path: url.pathname,
      query: url.searchParams,
      authorization: headers.get("Authorization"),
      body: typeof init.body === "string" ? JSON.parse(init.body) : null,
    };
    admin.requests.push(request);
    // The app's authenticate.admin: no session token, no answer.
    if (request.authorization !== `Bearer ${SESSION_TOKEN}`) {
      return new Response("", { status: 401 });
    }
    const route = admin.routes[`${request.method} ${request.path}`];
    if (!route) {
      throw new Error(`The fake admin has no route for ${request.method} ${input}`);
    }
    const answer = await route(request);
    return answer instanceof Response
      ? answer
      : new Response(JSON.stringify(answer.json), {
          status: answer.status ?? 200,
          headers: { "Content-Type": "application/json" },
        });
  });
  return admin;
}

/** Runs the extension's module as the admin does (its default export renders into the body). */
export async function runExtension(entry: () => unknown): Promise<void> {
  document.body.innerHTML = "";
  await entry();
}

/** Unmounts what the extension rendered and puts the real `fetch` back. */
export function closeExtension(admin: FakeAdmin): void {
  render(null, document.body);
  document.body.innerHTML = "";
  vi.unstubAllGlobals();
  expect(admin.missingKeys, "texts missing from the extension's locale").toEqual([]);
}

/** An answer the test gives when it chooses (to see what shows while the app is busy). */
export function later<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

// --- Reading and pressing what the merchant sees ------------------------------------------------

const ownText = (element: Element) =>
  [...element.childNodes]
    .filter((node) => node.nodeType === 3)
    .map((node) => node.textContent ?? "")
    .join("")
    .replace(/\s+/g, " ")
    .trim();

/**
 * What the merchant reads, in the order the admin draws it: headings, each element's own text,
 * spinners' labels.
 */
export function screen(root: Element = document.body): string[] {
  const lines: string[] = [];
  for (const element of [root, ...root.querySelectorAll("*")]) {
    const heading = element.getAttribute("heading");
    if (heading) lines.push(heading);
    const label = element.getAttribute("accessibilitylabel");
    if (label) lines.push(label);
    const text = ownText(element);
    if (text) lines.push(text);
  }
  return lines;
}

export interface Shown {
  element: Element;
  text: string;
  tone: string | null;
}

/** Every element of one Polaris kind ("s-badge", "s-banner"…) with its text and tone. */
export function all(kind: string, root: ParentNode = document.body): Shown[] {
  return [...root.querySelectorAll(kind)].map((element) => ({
    element,
    text: element.textContent?.replace(/\s+/g, " ").trim() ?? "",
    tone: element.getAttribute("tone"),
  }));
}

export interface ShownButton extends Shown {
  disabled: boolean;
  href: string | null;
  slot: string | null;
  loading: boolean;
}

export function buttons(root: ParentNode = document.body): ShownButton[] {
  return all("s-button", root).map((shown) => ({
    ...shown,
    disabled: shown.element.hasAttribute("disabled"),
    loading: shown.element.hasAttribute("loading"),
    href: shown.element.getAttribute("href"),
    slot: shown.element.getAttribute("slot"),
  }));
}

export function buttonLabels(root: ParentNode = document.body): string[] {
  return buttons(root).map((b) => b.text);
}

/** The one button with this label (the test fails naming the buttons there are when none is). */
export function button(label: string, root: ParentNode = document.body): ShownButton {
  const found = buttons(root).filter((b) => b.text === label);
  if (found.length !== 1) {
    throw new Error(
      `${found.length} buttons "${label}" (the buttons shown: ${JSON.stringify(buttonLabels(root))})`,
    );
  }
  return found[0]!;
}

/** Presses a button as a merchant would: not when it is disabled; its `href` is followed. */
export function press(admin: FakeAdmin, label: string, root: ParentNode = document.body): void {
  const target = button(label, root);
  if (target.disabled) throw new Error(`"${label}" is disabled: a merchant cannot press it`);
  target.element.dispatchEvent(new Event("click", { bubbles: true }));
  if (target.href) admin.navigations.push(target.href);
}

/** Waits until the extension shows what the check expects (the app answers asynchronously). */
export function until(check: () => void): Promise<void> {
  return vi.waitFor(check, { timeout: 2_000, interval: 5 });
}
