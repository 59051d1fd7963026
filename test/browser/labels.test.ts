import fs from "node:fs";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderLabelsDocument, type LabelSize } from "../../app/labels";
import { longArabicLabels } from "../labels/long-address";
import { launchBrowser } from "../support/browser";
import { ARTIFACTS_DIR } from "../support/paths";

const OUT = path.join(ARTIFACTS_DIR, "browser");
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
  fs.mkdirSync(OUT, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
});

/** Pages in a PDF: its page objects (`/Type /Page`, not the `/Pages` tree). */
function pdfPageCount(pdf: Buffer): number {
  return pdf.toString("latin1").match(/\/Type\s*\/Page(?![s\w])/g)?.length ?? 0;
}

describe.each(["A6", "4x6"] as LabelSize[])("a %s label for a long Arabic address", (size) => {
  it("fits each label on a page of its own, the Arabic shaped right to left", async () => {
    const page = await browser.newPage({
      viewport: { width: 600, height: 800 },
      deviceScaleFactor: 2,
    });
    await page.setContent(renderLabelsDocument(longArabicLabels(3), { size }));
    await page.evaluate(() => document.fonts.ready);
    const checks = await page.evaluate(() => {
      const label = document.querySelector<HTMLElement>(".label")!;
      const inside = (el: Element) => {
        const box = el.getBoundingClientRect();
        const frame = label.getBoundingClientRect();
        return (
          box.bottom <= frame.bottom + 0.5 &&
          box.right <= frame.right + 0.5 &&
          box.left >= frame.left - 0.5
        );
      };
      const typed = label.querySelector(".typed")!;
      const to = label.querySelector(".to")!;
      return {
        arabicFont: document.fonts.check('12pt "Noto Sans Arabic"', "صباح السالم"),
        areaDirection: getComputedStyle(label.querySelector(".place .ar")!).direction,
        typedDirection: getComputedStyle(typed).direction,
        everythingInside: [
          ...label.querySelectorAll(".head, .barcode, .number, .to, .foot, .qr"),
        ].every(inside),
        // Neither the address box itself nor the box around it cuts the typed address off.
        typedShownWhole:
          (getComputedStyle(typed).overflowY === "visible" ||
            typed.scrollHeight <= typed.clientHeight + 1) &&
          typed.getBoundingClientRect().top + typed.scrollHeight <=
            to.getBoundingClientRect().bottom + 0.5,
        labelOverflows: label.scrollHeight > label.clientHeight + 1,
      };
    });
    // The first label is prepaid, the second collects cash: both are kept to be looked at.
    const labels = page.locator(".label");
    await labels.nth(0).screenshot({ path: path.join(OUT, `label-${size}.png`) });
    await labels.nth(1).screenshot({ path: path.join(OUT, `label-${size}-cash.png`) });
    expect(checks).toEqual({
      arabicFont: true,
      areaDirection: "rtl",
      typedDirection: "rtl",
      everythingInside: true,
      typedShownWhole: true,
      labelOverflows: false,
    });
    const pdf = await page.pdf({ preferCSSPageSize: true, printBackground: true });
    fs.writeFileSync(path.join(OUT, `labels-${size}.pdf`), pdf);
    expect(pdfPageCount(pdf)).toBe(3);
    await page.close();
  });
});
