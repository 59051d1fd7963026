import os from "node:os";
import { performance } from "node:perf_hooks";
import { renderLabelsDocument, type LabelSize } from "../app/labels";
import { longArabicLabels } from "../test/labels/long-address";
import { launchBrowser } from "../test/support/browser";

/**
 * 250 labels (long Arabic addresses, A6) rendered to one PDF in headless Chromium, against one
 * label the same way as the reference: the HTML built by the app, then laid out and printed by
 * the browser. Readable lines, then one JSON line.
 */
const COUNT = 250;
const size: LabelSize = "A6";
const browser = await launchBrowser();

async function toPdf(count: number) {
  const started = performance.now();
  const html = renderLabelsDocument(longArabicLabels(count), { size });
  const htmlMs = performance.now() - started;
  const page = await browser.newPage();
  await page.setContent(html);
  await page.evaluate(() => document.fonts.ready);
  const pdf = await page.pdf({ preferCSSPageSize: true, printBackground: true });
  const seconds = (performance.now() - started) / 1000;
  await page.close();
  const pages = pdf.toString("latin1").match(/\/Type\s*\/Page(?![s\w])/g)?.length ?? 0;
  return { seconds, htmlMs, htmlBytes: Buffer.byteLength(html), pdfBytes: pdf.length, pages };
}

try {
  console.log(
    `load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}, ${os.cpus().length} cores`,
  );
  await toPdf(1); // warm-up: Chromium's first page, font parsing
  const one = await toPdf(1);
  console.log(
    `1 label:    ${one.seconds.toFixed(2)} s (HTML ${one.htmlMs.toFixed(0)} ms), PDF ${(one.pdfBytes / 1024).toFixed(0)} KB, ${one.pages} page`,
  );
  const many = await toPdf(COUNT);
  console.log(
    `${COUNT} labels: ${many.seconds.toFixed(2)} s (HTML ${many.htmlMs.toFixed(0)} ms, ${(many.htmlBytes / 1024).toFixed(0)} KB), PDF ${(many.pdfBytes / 1024 / 1024).toFixed(1)} MB, ${many.pages} pages`,
  );
  console.log(
    `per label: ${((many.seconds / COUNT) * 1000).toFixed(0)} ms in the batch, against ${(one.seconds * 1000).toFixed(0)} ms alone`,
  );
  if (many.pages !== COUNT) {
    console.error(`expected ${COUNT} pages, got ${many.pages}`);
    process.exitCode = 1;
  }
  console.log(
    JSON.stringify({
      labels: COUNT,
      size,
      seconds: Number(many.seconds.toFixed(2)),
      pdfBytes: many.pdfBytes,
      pages: many.pages,
      htmlMs: Math.round(many.htmlMs),
      singleLabelSeconds: Number(one.seconds.toFixed(3)),
      loadAverage: Number(os.loadavg()[0]!.toFixed(1)),
    }),
  );
} finally {
  await browser.close();
}
