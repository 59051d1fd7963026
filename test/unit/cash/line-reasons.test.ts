import { describe, expect, it } from "vitest";
import { readStatementLines } from "../../../app/domain/settlements";

describe("a statement line that cannot be read", () => {
  it("says each reason as a code with the cell it names, for the page's language", () => {
    const { problems } = readStatementLines(
      {
        headers: ["Order", "COD"],
        rows: [
          { line: 2, cells: ["KW100001", "12.5.0"] },
          { line: 3, cells: ["", "4.000"] },
          { line: 4, cells: ["KW100002", "1.0001"] },
        ],
        problems: [],
      },
      { orderNumber: "Order", amount: "COD", date: null },
    );
    expect(problems.map((p) => p.reasons)).toEqual([
      [{ code: "amount_not_amount", column: "COD", value: "12.5.0" }],
      [{ code: "order_empty", column: "Order" }],
      [{ code: "amount_decimals", column: "COD", value: "1.0001" }],
    ]);
  });
});
