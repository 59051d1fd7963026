/**
 * Rules that give the server's page the height it will have once it runs, for what Polaris only
 * lays out in the browser (issue 14, CLS). On a phone, a page's header actions become a "…"
 * button after hydration, and the header row grew from 28 to 36 px under it, moving the whole
 * page down (CLS 0.047 on the deliveries list). The row keeps that height from the first paint.
 * Below 490 px, IndexFilters' wrapper is rendered `height:0` until the browser has measured its
 * bar (its room for the sticky bar), so the table moved down by the bar's height once measured
 * (0.046): until then (the server's `height:0`, which the browser never writes) it takes the
 * bar's own height, which is what the measurement then sets. And in right-to-left, the back
 * arrow (Polaris draws ArrowLeftIcon in both directions) points the way "back" reads: right;
 * so do the calendar's previous and next month arrows.
 */
const CSS = `@media (max-width: 47.9975em) {
  .Polaris-Page-Header__Row:first-child:has(.Polaris-ActionMenu) { min-height: 2rem; }
}
@media (max-width: 30.6225em) {
  .Polaris-Page-Header__Row:first-child:has(.Polaris-ActionMenu) { min-height: 2.25rem; }
  .Polaris-IndexFilters__IndexFiltersWrapper[style="height:0"] { height: auto !important; }
}
[dir=rtl] .Polaris-Page-Header__BreadcrumbWrapper svg,
[dir=rtl] .Polaris-DatePicker__Header svg { transform: scaleX(-1); }`;

export function FirstPaintLayout() {
  return <style dangerouslySetInnerHTML={{ __html: CSS }} />;
}
