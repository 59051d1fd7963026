import AxeBuilder from "@axe-core/playwright";
import type { Page } from "playwright-core";

/**
 * Elements wider than the viewport, or sticking out of the card they sit in (Polaris cards, the
 * shopper page's cards), unless something between them scrolls or clips on purpose. Polaris's
 * visually hidden labels (one pixel, clipped) are not drawn and do not count.
 */
export async function overflowingElements(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const viewport = document.documentElement.clientWidth;
    const describe = (el: Element) =>
      `${el.tagName.toLowerCase()}${el.className && typeof el.className === "string" ? "." + el.className.split(" ")[0] : ""} "${(el.textContent ?? "").trim().slice(0, 40)}"`;
    const drawn = (el: Element) => {
      const rect = el.getBoundingClientRect();
      if (rect.width <= 1 || rect.height <= 1) return null;
      const style = getComputedStyle(el);
      if (style.visibility === "hidden" || style.display === "none") return null;
      return rect;
    };
    const clipsBetween = (el: Element, stop: Element | null) => {
      for (let node = el.parentElement; node && node !== stop; node = node.parentElement) {
        const overflow = getComputedStyle(node).overflowX;
        if (overflow !== "visible") return true;
      }
      return false;
    };
    const problems: string[] = [];
    for (const el of document.body.querySelectorAll("*")) {
      if (el.closest("ui-nav-menu, ui-save-bar, script, style")) continue;
      const rect = drawn(el);
      if (!rect) continue;
      if ((rect.right > viewport + 1 || rect.left < -1) && !clipsBetween(el, null))
        problems.push(
          `wider than the page: ${describe(el)} (${Math.round(rect.left)}–${Math.round(rect.right)} of ${viewport})`,
        );
      const card = el.parentElement?.closest(".Polaris-Card, .Polaris-ShadowBevel, .sp-card");
      if (!card) continue;
      const box = card.getBoundingClientRect();
      if ((rect.right > box.right + 1 || rect.left < box.left - 1) && !clipsBetween(el, card))
        problems.push(`outside its card: ${describe(el)}`);
    }
    return problems.slice(0, 10);
  });
}

/** Serious and critical accessibility violations axe-core finds (the admin's own frame aside). */
export async function seriousAccessibilityViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .exclude("ui-nav-menu")
    .exclude("ui-save-bar")
    .analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map(
      (v) =>
        `${v.id}: ${v.help} (${v.nodes
          .map((n) => n.target.join(" "))
          .slice(0, 3)
          .join(", ")})`,
    );
}

/**
 * What an Arabic page may leave in Latin letters (ADR 0045): data, marked translate="no" (order
 * and courier numbers, names, addresses, what a customer typed, a third party's own words), and
 * the delivery page's technical record (data-technical-record), shown only on request. An element
 * that says it is English (lang="en") is not data, whatever else it says: a sentence of the app
 * left in English is a missing translation, not an exemption.
 */
/**
 * Words that stay as they are in an Arabic page's sentences: names of products and file formats
 * the merchant's own software shows in Latin letters. A file adds what only its page may show
 * (a shop's name, "KWD" where the page quotes a code).
 */
export const KEPT_IN_LATIN = [
  "Shopify",
  "API",
  "WhatsApp",
  "Meta",
  "English",
  "CSV",
  "Excel",
  ".xlsx",
] as const;

export const NOT_PAGE_TEXT =
  "script, style, noscript, ui-nav-menu, ui-save-bar, [data-technical-record]";
export const DATA = "[translate=no]:not([lang=en]):not([lang=en] *)";
/**
 * What a shopper would read, quoted in both languages on purpose (Settings' checkout-rates
 * preview): the page shows the shopper's English and Arabic whatever its own language.
 */
export const SHOPPER_QUOTE = "[data-shopper-preview]";

/**
 * Visible text in Latin letters on an Arabic page: every text node that is neither data nor
 * outside the page's text ({@link DATA}, {@link NOT_PAGE_TEXT}), minus brand and unit names
 * that stay as they are.
 */
export async function latinTextOnArabicPage(
  page: Page,
  allowed: readonly string[],
  /** Only this part of the page (a selector). */
  scope: { within?: string } = {},
): Promise<string[]> {
  return page.evaluate(
    ({ allowedWords, exempt, within }) => {
      const found: string[] = [];
      const root = within ? document.querySelector(within) : document.body;
      if (!root) return [`nothing matches ${within}`];
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const parent = node.parentElement;
        if (!parent || parent.closest(exempt)) continue;
        if (parent.closest("[aria-hidden=true]")) continue;
        const style = getComputedStyle(parent);
        if (style.display === "none" || style.visibility === "hidden") continue;
        let text = node.textContent ?? "";
        for (const word of allowedWords) text = text.split(word).join("");
        const latin = text.match(/[A-Za-z]{2,}/g);
        if (latin) found.push(`${(node.textContent ?? "").trim().slice(0, 60)}`);
      }
      return found;
    },
    {
      allowedWords: allowed,
      exempt: `${NOT_PAGE_TEXT}, ${DATA}, ${SHOPPER_QUOTE}`,
      within: scope.within ?? null,
    },
  );
}

/** Visible strings of the English catalogs (four letters or more) found on the page. */
export async function englishCatalogStrings(
  page: Page,
  english: readonly string[],
): Promise<string[]> {
  // Data (translate="no": a location's address, an order number) may contain such words.
  const text = await page.evaluate((exempt) => {
    const copy = document.body.cloneNode(true) as HTMLElement;
    for (const data of copy.querySelectorAll(exempt)) data.remove();
    return copy.textContent ?? "";
  }, `${NOT_PAGE_TEXT}, ${DATA}, ${SHOPPER_QUOTE}`);
  return english.filter((phrase) => text.includes(phrase));
}

/**
 * The characters of an element's text in the order the eye meets them from left to right
 * (spaces left out): "+96522223333" for a phone laid out left to right, "33332222965+" for one
 * the right-to-left page around it has reordered.
 */
export async function charactersLeftToRight(page: Page, selector: string): Promise<string> {
  return page.locator(selector).evaluate((element) => {
    const found: [string, number][] = [];
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? "";
      for (let i = 0; i < text.length; i += 1) {
        if (/\s/.test(text[i]!)) continue;
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const box = range.getBoundingClientRect();
        found.push([text[i]!, box.left + box.width / 2]);
      }
    }
    return found
      .sort((a, b) => a[1] - b[1])
      .map(([character]) => character)
      .join("");
  });
}
