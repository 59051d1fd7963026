/**
 * Matches Kuwaiti addresses, one JSON object per line, for tools and support.
 *
 *   npm run --silent match-addresses < addresses.jsonl > matches.jsonl
 *
 * Each input line: {"provinceCode":"KW-HA","city":"Salmiya","address1":"Block 10, Street 5","address2":"","zip":""}
 * (every field optional, a string or null; countryCode is read too; other fields are ignored).
 *
 * Each output line, in input order:
 *   {"governorate","area","confidence","confident","parts":{block,street,avenue,house,building,floor,apartment,paci},"reasons"}
 * with governorate and area as the gazetteer's English names, or null when unresolved.
 *
 * Every input line gets exactly one output line, so output line n answers input line n. A line that
 * is blank or not a JSON object with those field types gives {"error": "...", "line": n} and the
 * run goes on (a final newline does not make an extra line). Exit code 0 once all input is read,
 * even if some lines had errors.
 */
import { once } from "node:events";
import readline from "node:readline";
import { z } from "zod";
import { matchAddress } from "../app/addresses";

const Field = z.string().nullable().optional();
const InputLine = z.object({
  provinceCode: Field,
  city: Field,
  address1: Field,
  address2: Field,
  zip: Field,
  countryCode: Field,
});

const USAGE = `Usage: npm run --silent match-addresses < addresses.jsonl
Reads one JSON object per line: {"provinceCode","city","address1","address2","zip"} (strings or null).
Writes one JSON line per input line, in order: {"governorate","area","confidence","confident","parts","reasons"}.
Blank and malformed lines give {"error","line"}.`;

const FLUSH_AT = 64 * 1024;

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/** The output line for one input line. */
function answerLine(line: string, lineNumber: number): string {
  if (line.trim() === "") {
    return JSON.stringify({
      error: `line ${lineNumber} is blank; send one JSON object per line`,
      line: lineNumber,
    });
  }
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return JSON.stringify({
      error: `line ${lineNumber} is not valid JSON (${detail}); send one JSON object per line, like {"city":"Salmiya","address1":"Block 10, Street 5"}`,
      line: lineNumber,
    });
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return JSON.stringify({
      error: `line ${lineNumber} is ${describe(value)}, not a JSON object; send {"provinceCode","city","address1","address2","zip"}`,
      line: lineNumber,
    });
  }
  const parsed = InputLine.safeParse(value);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const field = issue.path.join(".");
      const got = describe((value as Record<string, unknown>)[field]);
      return `${field} must be a string or null, got ${got}`;
    });
    return JSON.stringify({
      error: `line ${lineNumber}: ${problems.join("; ")}`,
      line: lineNumber,
    });
  }
  const match = matchAddress(parsed.data);
  return JSON.stringify({
    governorate: match.governorate?.nameEn ?? null,
    area: match.area?.nameEn ?? null,
    confidence: match.confidence,
    confident: match.confident,
    parts: match.parts,
    reasons: match.reasons,
  });
}

async function main(): Promise<void> {
  if (process.argv.includes("--help") || process.argv.includes("-h")) {
    console.log(USAGE);
    return;
  }
  // A reader that stops early (`| head`) is not an error.
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(0);
    throw error;
  });
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  let buffer = "";
  let lineNumber = 0;
  const flush = async (): Promise<void> => {
    if (buffer === "") return;
    const chunk = buffer;
    buffer = "";
    // Respect backpressure: wait for the pipe to drain before producing more.
    if (!process.stdout.write(chunk)) await once(process.stdout, "drain");
  };
  for await (const line of lines) {
    lineNumber++;
    // Files saved by some Windows editors start with a byte-order mark.
    const answer = answerLine(lineNumber === 1 ? line.replace(/^\uFEFF/, "") : line, lineNumber);
    buffer += `${answer}\n`;
    if (buffer.length >= FLUSH_AT) await flush();
  }
  await flush();
}

await main();
