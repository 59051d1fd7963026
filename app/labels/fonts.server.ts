import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

/**
 * Noto Sans Arabic (Google's Noto, packaged by Fontsource), embedded in the label document as
 * data URLs: the print preview and the printer shape Arabic with the same font whatever the
 * merchant's computer has installed, and the document needs no second request (the print action
 * loads one URL). The @font-face rules and their unicode ranges are Fontsource's own; only the
 * Arabic and Latin subsets are kept (about 120 KB of fonts for the whole document).
 */
const require = createRequire(import.meta.url);
const SUBSETS = ["arabic", "latin"];
export const LABEL_FONT_FAMILY = "Noto Sans Arabic";

let css: string | undefined;

/** The @font-face rules of the label font (regular and bold), read once per process. */
export function labelFontFaces(): string {
  css ??= [400, 700]
    .map((weight) => {
      const file = require.resolve(`@fontsource/noto-sans-arabic/${weight}.css`);
      return readFileSync(file, "utf8")
        .split(/(?=\/\* noto-sans-arabic-)/)
        .filter((rule) => SUBSETS.some((s) => rule.startsWith(`/* noto-sans-arabic-${s}-`)))
        .map((rule) =>
          rule
            .replace(/font-display: swap/, "font-display: block")
            .replace(
              /src: url\(\.\/files\/([^)]+\.woff2)\) format\('woff2'\)[^;]*;/,
              (_m, name: string) => {
                const data = readFileSync(path.join(path.dirname(file), "files", name));
                return `src: url(data:font/woff2;base64,${data.toString("base64")}) format('woff2');`;
              },
            ),
        )
        .join("");
    })
    .join("");
  return css;
}
