import iconv from "iconv-lite";
import { describe, expect, it } from "vitest";
import writeXlsxFile from "write-excel-file/node";
import {
  detectEncoding,
  guessColumns,
  prepareStatement,
  readStatementFile,
  readStatementLines,
  StatementFileError,
  type StatementColumns,
} from "../../../app/domain/settlements";

const ARABIC_CSV =
  "كشف حساب المندوب\r\nرقم الطلب,المبلغ,التاريخ\r\nCO-1001,36.500,24/11/2026\r\nCO-1002,٤٫٢٥٠,25/11/2026\r\n";
const utf8 = (text: string) => new TextEncoder().encode(text);

async function arabicLines(bytes: Uint8Array) {
  const prepared = await prepareStatement(bytes, "statement.csv", null);
  if (!prepared.ready) throw new Error("columns not recognised");
  return prepared.lines.map((l) => [l.courierOrderNumber, l.amount, l.day]);
}
const EXPECTED = [
  ["CO-1001", 36_500, "2026-11-24"],
  ["CO-1002", 4_250, "2026-11-25"],
];

describe("reading a statement file", () => {
  it("reads UTF-8 with a byte order mark", async () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...utf8(ARABIC_CSV)]);
    expect(detectEncoding(bytes).encoding).toBe("utf-8");
    expect(await arabicLines(bytes)).toEqual(EXPECTED);
  });

  it("reads UTF-8 without a byte order mark", async () => {
    expect(await arabicLines(utf8(ARABIC_CSV))).toEqual(EXPECTED);
  });

  it("reads UTF-16 little endian, as Excel's Unicode text saves it", async () => {
    const bytes = new Uint8Array(
      iconv.encode(ARABIC_CSV.replace(/,/g, "\t"), "utf-16le", { addBOM: true }),
    );
    expect(detectEncoding(bytes).encoding).toBe("utf-16le");
    expect(await arabicLines(bytes)).toEqual(EXPECTED);
  });

  it("reads UTF-16 big endian without a mark", async () => {
    const bytes = new Uint8Array(iconv.encode("Order No;Amount\r\nA1;1.000\r\n", "utf-16be"));
    expect(detectEncoding(bytes).encoding).toBe("utf-16be");
    const prepared = await prepareStatement(bytes, "s.csv", null);
    expect(prepared.ready && prepared.lines.map((l) => l.amount)).toEqual([1_000]);
  });

  it("reads Arabic Windows (Windows-1256) files", async () => {
    // Windows-1256 has no Arabic-Indic digits: such files carry Western ones.
    const bytes = new Uint8Array(iconv.encode(ARABIC_CSV.replace("٤٫٢٥٠", "4.250"), "win1256"));
    expect(detectEncoding(bytes).encoding).toBe("windows-1256");
    expect(await arabicLines(bytes)).toEqual(EXPECTED);
  });

  it("reads semicolon-separated files with quoted amounts", async () => {
    const text = 'Order number;Amount;Date\r\n"CO-1";"1,250.500";2026-11-24\r\n';
    const prepared = await prepareStatement(utf8(text), "s.csv", null);
    expect(prepared.ready && prepared.lines[0]?.amount).toBe(1_250_500);
  });

  it("reads an Excel workbook, amounts exact as the cells show them", async () => {
    const file = await writeXlsxFile([
      [{ value: "Courier statement November" }],
      [],
      [{ value: "Order No" }, { value: "COD Amount" }, { value: "Delivery date" }],
      [
        { value: "CO-7" },
        { value: 36.5 },
        { value: new Date(Date.UTC(2026, 10, 24)), format: "dd/mm/yyyy" },
      ],
      [{ value: "CO-8" }, { value: 0.1 }, { value: "25/11/2026" }],
    ]).toBuffer();
    const prepared = await prepareStatement(new Uint8Array(file), "statement.xlsx", null);
    if (!prepared.ready) throw new Error("columns not recognised");
    expect(prepared.table.format).toBe("xlsx");
    expect(prepared.table.headerLine).toBe(3);
    expect(prepared.lines.map((l) => [l.line, l.courierOrderNumber, l.amount, l.day])).toEqual([
      [4, "CO-7", 36_500, "2026-11-24"],
      [5, "CO-8", 100, "2026-11-25"],
    ]);
  });

  it("numbers a CSV's rows as the file does, below a title and a blank line", async () => {
    const text =
      "كشف حساب المندوب\r\n\r\nرقم الطلب,المبلغ,التاريخ\r\nCO-1,1.000,24/11/2026\r\nCO-2,2.000,25/11/2026,extra\r\n";
    const prepared = await prepareStatement(utf8(text), "statement.csv", null);
    if (!prepared.ready) throw new Error("columns not recognised");
    expect(prepared.table.headerLine).toBe(3);
    expect(prepared.lines.map((l) => [l.line, l.courierOrderNumber])).toEqual([
      [4, "CO-1"],
      [5, "CO-2"],
    ]);
  });

  it("says how to fix an old .xls file", async () => {
    await expect(
      readStatementFile(new Uint8Array([0xd0, 0xcf, 0x11, 0xe0]), "a.xls"),
    ).rejects.toThrow(/save it as \.xlsx or CSV/);
  });

  it("refuses an empty file", async () => {
    await expect(readStatementFile(new Uint8Array(), "a.csv")).rejects.toBeInstanceOf(
      StatementFileError,
    );
  });
});

describe("columns", () => {
  it("recognises Arabic and English titles", () => {
    expect(guessColumns(["التاريخ", "رقم الطلب", "المبلغ المحصل"])).toEqual({
      orderNumber: "رقم الطلب",
      amount: "المبلغ المحصل",
      date: "التاريخ",
    });
    expect(guessColumns(["AWB Number", "COD amount", "Notes"])).toEqual({
      orderNumber: "AWB Number",
      amount: "COD amount",
      date: null,
    });
  });

  it("asks for the mapping when it cannot tell, and uses the remembered one after", async () => {
    const text = "Ref,Value KD,Day\r\nCO-1,2.000,24/11/2026\r\n";
    const first = await prepareStatement(utf8(text), "s.csv", null);
    expect(first.ready).toBe(false);
    const remembered: StatementColumns = { orderNumber: "Ref", amount: "Value KD", date: "Day" };
    const second = await prepareStatement(utf8(text), "s.csv", remembered);
    expect(second.ready && second.rememberedColumns).toBe(true);
    expect(second.ready && second.lines[0]).toMatchObject({
      courierOrderNumber: "CO-1",
      amount: 2_000,
    });
  });
});

describe("bad rows", () => {
  it("are reported with their line and what to fix, and the good rows are kept", async () => {
    const text = [
      "Order number,Amount,Date",
      "CO-1,1.000,24/11/2026",
      ",2.000,24/11/2026",
      "CO-3,abc,24/11/2026",
      "CO-4,4.000,31/02/2026",
      "CO-1,1.000,24/11/2026",
      "CO-5,5.1234,24/11/2026",
      "CO-6,6.000,25/11/2026",
      "Total,7.000,",
    ].join("\r\n");
    const table = await readStatementFile(utf8(text), "s.csv");
    const { lines, problems } = readStatementLines(table, {
      orderNumber: "Order number",
      amount: "Amount",
      date: "Date",
    });
    expect(lines.map((l) => l.courierOrderNumber)).toEqual(["CO-1", "CO-6"]);
    expect(problems.map((p) => p.line)).toEqual([3, 4, 5, 6, 7]);
    expect(problems[0]!.problem).toMatch(
      /"Order number" cell is empty: add the courier order number/,
    );
    expect(problems[1]!.problem).toMatch(/"Amount" cell "abc" is not an amount/);
    expect(problems[2]!.problem).toMatch(/"31\/02\/2026" is not a date/);
    expect(problems[3]!.problem).toMatch(/also on line 2/);
    expect(problems[4]!.problem).toMatch(/more than three decimals/);
  });

  it("keeps every row after a broken quote", async () => {
    const text = 'Order number,Amount\r\nCO-1,1.000\r\nCO-2,"2.000\r\n';
    const table = await readStatementFile(utf8(text), "s.csv");
    const { lines, problems } = readStatementLines(table, {
      orderNumber: "Order number",
      amount: "Amount",
      date: null,
    });
    expect(lines.map((l) => l.courierOrderNumber)).toEqual(["CO-1"]);
    expect(problems).toHaveLength(1);
  });
});
