import type { ReactNode } from "react";

/**
 * The deliveries table's column widths, fixed before its rows arrive. A table laid out by its
 * content widens a column each time a longer name or state is parsed, so the first paint of a
 * 200 kB page moved its columns while it was still loading (bench:pages measured CLS 0.046 on a
 * search, 0.075 on a deep page) and the columns jumped from one page of the list to the next.
 * With a fixed layout the widths come from these shares alone; each cell cuts what does not fit
 * with an ellipsis (names, areas and reasons are already truncated inside their cells). Below
 * 1,000 px the table keeps that width and scrolls sideways in Polaris's own scroll container
 * (with the order column sticky); phones get the condensed list, which is not a table.
 */
const COLUMNS = [
  "2.5rem", // selection checkbox
  "11%", // order
  "17%", // customer
  "14%", // area
  "11%", // cash on delivery
  "20%", // state and its reason
  "12%", // courier number
  "auto", // created
];

const CSS = [
  ".delivery-list-table table.Polaris-IndexTable__Table { table-layout: fixed; min-width: 1000px; }",
  ".delivery-list-table .Polaris-IndexTable__TableCell { overflow: hidden; text-overflow: ellipsis; }",
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
