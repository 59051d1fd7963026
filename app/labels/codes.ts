import bwipjs from "bwip-js/node";

/**
 * The label's machine-readable parts, drawn by bwip-js (a port of Barcode Writer in Pure
 * PostScript) as SVG: no canvas, no native code, and the same output on every server.
 */

/**
 * The courier order number as a Code 128 barcode (its characters are printed under it as text).
 * Stretched to the label's width: every bar and space widens alike, so it scans the same.
 */
export function code128Svg(text: string): string {
  return bwipjs
    .toSVG({ bcid: "code128", text, height: 14, includetext: false })
    .replace("<svg ", '<svg preserveAspectRatio="none" ');
}

/** A QR code of a link, at BWIPP's default error correction M (15 % of it may be smudged). */
export function qrCodeSvg(url: string): string {
  return bwipjs.toSVG({ bcid: "qrcode", text: url });
}
