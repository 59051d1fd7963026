import bwipjs from "bwip-js/node";
import qrcode from "qrcode-generator";

/**
 * The label's machine-readable parts as SVG, drawn on the server: no canvas, no native code, and
 * the same output on every server. The barcode encoded by bwip-js (a port of Barcode Writer in
 * Pure PostScript); the QR code by qrcode-generator, five to ten times faster than bwip-js's QR
 * (whose PostScript emulation made 50 labels take half a second, issue 29).
 */

/**
 * The courier order number as a Code 128 barcode (its characters are printed under it as text).
 * bwip-js encodes it (its `raw` answer: the widths of bars and spaces, a bar first) and the bars are
 * drawn here as one path, a unit per module: its own SVG drawing took ten times as long.
 * Stretched to the label's width: every bar and space widens alike, so it scans the same.
 */
export function code128Svg(text: string): string {
  const [symbol] = bwipjs.raw({ bcid: "code128", text });
  if (!symbol || !("sbs" in symbol)) throw new Error("bwip-js drew no Code 128 bars");
  const HEIGHT = 40;
  let x = 0;
  let path = "";
  symbol.sbs.forEach((width, i) => {
    if (i % 2 === 0) path += `M${x} 0h${width}v${HEIGHT}h-${width}z`;
    x += width;
  });
  return `<svg preserveAspectRatio="none" viewBox="0 0 ${x} ${HEIGHT}" xmlns="http://www.w3.org/2000/svg" shape-rendering="crispEdges"><path d="${path}" fill="#000"/></svg>`;
}

/**
 * A QR code of a link, at error correction M (15 % of it may be smudged): one path, each row's
 * runs of dark modules as rectangles, in a view box of one unit per module (the label sizes it).
 */
export function qrCodeSvg(url: string): string {
  const qr = qrcode(0, "M");
  // UTF-8 bytes, each as one character: the library's own conversion keeps only the low byte.
  qr.addData(Buffer.from(url, "utf8").toString("latin1"), "Byte");
  qr.make();
  const size = qr.getModuleCount();
  let path = "";
  for (let row = 0; row < size; row += 1) {
    for (let col = 0; col < size;) {
      if (!qr.isDark(row, col)) {
        col += 1;
        continue;
      }
      const start = col;
      while (col < size && qr.isDark(row, col)) col += 1;
      path += `M${start} ${row}h${col - start}v1h-${col - start}z`;
    }
  }
  return `<svg viewBox="0 0 ${size} ${size}" xmlns="http://www.w3.org/2000/svg" shape-rendering="crispEdges"><path d="${path}" fill="#000"/></svg>`;
}
