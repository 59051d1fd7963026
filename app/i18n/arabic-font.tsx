import regular from "@fontsource/noto-sans-arabic/files/noto-sans-arabic-arabic-400-normal.woff2?url";
import bold from "@fontsource/noto-sans-arabic/files/noto-sans-arabic-arabic-700-normal.woff2?url";

/**
 * Noto Sans Arabic for Arabic pages (the labels' font, ADR 0030), served by the app: the Arabic
 * glyphs read the same on every merchant's computer instead of whatever the system falls back to.
 * Only Arabic code points use it (unicode-range), Polaris's own stack otherwise; `optional`: a
 * first visit that would wait for it keeps the system's font rather than re-laying the page out
 * when it arrives (no layout shift), and it is used once cached. English pages never load it.
 */
const ARABIC = "U+0600-06FF,U+0750-077F,U+0870-08FF,U+200C-200E,U+FB50-FDFF,U+FE70-FEFF";
const face = (url: string, weight: number) =>
  `@font-face{font-family:"Noto Sans Arabic";font-style:normal;font-weight:${weight};font-display:optional;src:url(${url}) format("woff2");unicode-range:${ARABIC}}`;
const STACK =
  'Inter,"Noto Sans Arabic",-apple-system,BlinkMacSystemFont,"San Francisco","Segoe UI",Roboto,"Helvetica Neue",sans-serif';
const CSS = `${face(regular, 400)}${face(bold, 700)}html[lang=ar]{--p-font-family-sans:${STACK}}`;

export function ArabicFont() {
  return (
    <>
      <link rel="preload" href={regular} as="font" type="font/woff2" crossOrigin="anonymous" />
      {/* As markup, not a text child: React would escape its quotes, which a style element
          does not unescape, and the browser's text would differ from the client's (hydration). */}
      <style dangerouslySetInnerHTML={{ __html: CSS }} />
    </>
  );
}
