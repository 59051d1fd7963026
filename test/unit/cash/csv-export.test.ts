import { describe, expect, it } from "vitest";
import { csvCell, csvDocument, csvLine, csvStream, UTF8_BOM } from "../../../app/domain/csv";

async function text(stream: ReadableStream<Uint8Array>) {
  return new TextDecoder("utf-8", { ignoreBOM: true }).decode(
    await new Response(stream).arrayBuffer(),
  );
}

describe("CSV cells", () => {
  it.each([
    ['=HYPERLINK("http://x")', '"\'=HYPERLINK(""http://x"")"'],
    ["+971", "'+971"],
    ["-2+3", "'-2+3"],
    ["@SUM(A1)", "'@SUM(A1)"],
    ["\tcmd", "'\tcmd"],
  ])("neutralises %j", (value, expected) => {
    expect(csvCell(value)).toBe(expected);
  });

  it.each([
    ["a right-to-left override", "Ali\u202Efdp.exe", "Alifdp.exe"],
    ["an isolate", "\u2067Fatima\u2069", "Fatima"],
    ["an override before a formula", "\u202E=1+1", "'=1+1"],
  ])("removes %s from a cell", (_name, value, expected) => {
    // A customer's name with U+202E went into the export as typed (issue 24).
    expect(csvCell(value)).toBe(expected);
  });

  it("keeps Arabic and the marks that only set a direction", () => {
    expect(csvCell("فاطمة\u200F 12\u200E")).toBe("فاطمة\u200F 12\u200E");
  });

  it("leaves plain numbers, negative ones included, as numbers", () => {
    expect(csvCell("-1.250")).toBe("-1.250");
    expect(csvCell(-3)).toBe("-3");
  });

  it("quotes commas, quotes and line breaks as RFC 4180 says", () => {
    expect(csvLine(["a,b", 'say "hi"', "two\nlines", null, "سالمية"])).toBe(
      '"a,b","say ""hi""","two\nlines",,سالمية\r\n',
    );
  });

  it("starts the document with a byte order mark", () => {
    expect(csvDocument(["Order"], [["#1"]])).toBe(`${UTF8_BOM}Order\r\n#1\r\n`);
  });
});

describe("csvStream", () => {
  it("writes the header and every batch, BOM first", async () => {
    async function* batches() {
      yield [["1", "حولي"]];
      yield [];
      yield [["2", "=cmd"]];
    }
    const bytes = new Uint8Array(
      await new Response(csvStream(["n", "area"], batches())).arrayBuffer(),
    );
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(await text(csvStream(["n", "area"], batches()))).toBe(
      `${UTF8_BOM}n,area\r\n1,حولي\r\n2,'=cmd\r\n`,
    );
  });

  it("reads no further batch than the reader asks for", async () => {
    let produced = 0;
    async function* batches() {
      for (let i = 0; i < 1000; i++) {
        produced++;
        yield [[String(i)]];
      }
    }
    const reader = csvStream(["n"], batches()).getReader();
    await reader.read();
    await reader.read();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(produced).toBeLessThan(10);
    await reader.cancel();
  });
});
