import type { ReactNode } from "react";

/**
 * The deliveries table's column widths, fixed before its rows arrive. A table laid out by its
 * content widens a column each time a longer name or state is parsed, so the first paint of a
 * 200 kB page moved its columns while it was still loading (bench:pages measured CLS 0.046 on a
 * search, 0.075 on a deep page) and the columns jumped from one page of the list to the next.
 * With a fixed layout the widths come from these rules alone: the columns whose values have a
 * known length (order, amount, courier number, date) are wide enough for the longest in either
 * language, and the customer and the area share the rest, each cutting a long name with an
 * ellipsis. The table fits the admin's frame from 900 px (a 1,280 px screen leaves it about
 * 1,040); narrower, it scrolls sideways in Polaris's own container with the order column sticky.
 * Phones get the condensed list, which is not a table.
 */
const COLUMNS = [
  "2.5rem", // selection checkbox
  "7rem", // order
  "auto", // customer
  "auto", // area
  "7.5rem", // cash on delivery: "KWD 1,234.500"
  "12.5rem", // state, its second badge wrapping below, its reason (wrapping) and its action
  "8.5rem", // courier number
  "9.5rem", // created: "Nov 27, 2026, 19:49"
];

const CSS = [
  ".delivery-list-table table.Polaris-IndexTable__Table { table-layout: fixed; min-width: 56rem; }",
  ".delivery-list-table .Polaris-IndexTable__TableCell { overflow: hidden; }",
  // A waiting delivery's reason is read whole: it wraps within its column (issue 29).
  ".delivery-list-reason { white-space: normal; overflow-wrap: anywhere; }",
  ...COLUMNS.map(
    (width, i) =>
      `.delivery-list-table table.Polaris-IndexTable__Table > thead > tr > th:nth-child(${i + 1}) { width: ${width}; }`,
  ),
].join("\n");

/** Wraps the deliveries IndexTable; the rules come before the table, so its first paint uses them. */
export function DeliveryListColumns(props: { children: ReactNode }) {
  return (
    <div className="delivery-list-table">
      <style dangerouslySetInnerHTML={{ __html: CSS }} />
      {props.children}
    </div>
  );
}
