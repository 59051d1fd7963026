import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const SCRIPT = path.join(ROOT, "scripts", "match-addresses.ts");

interface Run {
  code: number | null;
  lines: string[];
  stderr: string;
}

/** Runs the CLI like `npm run --silent match-addresses`, optionally reading its output slowly. */
function run(stdin: string, { slowReader = false } = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", SCRIPT], {
      cwd: ROOT,
      stdio: "pipe",
    });
    const chunks: Buffer[] = [];
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
      if (slowReader && chunks.length % 4 === 0) {
        child.stdout.pause();
        setTimeout(() => child.stdout.resume(), 20);
      }
    });
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      const text = Buffer.concat(chunks).toString("utf8");
      resolve({ code, lines: text.split("\n").filter((line) => line !== ""), stderr });
    });
    child.stdin.end(stdin);
  });
}

const areas = ["Salmiya", "السالمية", "Jabrya", "Mangaf", "Kuwait", "خيطان"];

function inputLine(i: number): string {
  return JSON.stringify({
    provinceCode: i % 3 === 0 ? "KW-HA" : null,
    city: areas[i % areas.length],
    address1: `Block ${(i % 12) + 1}, Street ${i}, House ${i % 40}`,
    address2: "",
    zip: "",
  });
}

describe("the match-addresses command", () => {
  it("answers 10,000 lines in order, one line each, with errors for malformed lines", async () => {
    const lines: string[] = [];
    for (let i = 0; i < 10_000; i++) {
      if (i === 17) lines.push("{not json");
      else if (i === 18) lines.push("[1, 2, 3]");
      else if (i === 19) lines.push(JSON.stringify({ city: "Salmiya", zip: 12345 }));
      else lines.push(inputLine(i));
    }
    const result = await run(`${lines.join("\n")}\n`);
    expect(result.stderr).not.toMatch(/Error/);
    expect(result.code).toBe(0);
    expect(result.lines).toHaveLength(10_000);
    const answers = result.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(answers[17]).toMatchObject({ line: 18 });
    expect(String(answers[17]?.error)).toContain("not valid JSON");
    expect(String(answers[18]?.error)).toContain("not a JSON object");
    expect(String(answers[19]?.error)).toContain("zip must be a string or null");
    for (const i of [0, 1, 2, 3, 5, 9_999]) {
      expect(answers[i]).toMatchObject({ parts: { street: String(i) } });
    }
    expect(answers[0]).toMatchObject({ governorate: "Hawalli", area: "Salmiya", confident: true });
    expect(answers[4]).toMatchObject({ area: null, confident: false });
    expect(Object.keys(answers[0] ?? {})).toEqual([
      "governorate",
      "area",
      "confidence",
      "confident",
      "parts",
      "reasons",
    ]);
  }, 60_000);

  it("answers every line, blank ones too, so output line n answers input line n", async () => {
    const result = await run(`\uFEFF\n${inputLine(0)}\r\n   \nnull\n${inputLine(1)}\n`);
    expect(result.lines).toHaveLength(5);
    const answers = result.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(answers[0]).toMatchObject({ line: 1 });
    expect(String(answers[0]?.error)).toContain("blank");
    expect(answers[1]).toMatchObject({ area: "Salmiya" });
    expect(answers[2]).toMatchObject({ line: 3 });
    expect(String(answers[2]?.error)).toContain("blank");
    expect(answers[3]).toMatchObject({ line: 4 });
    expect(answers[4]).toMatchObject({ area: "Salmiya" });
  });

  it("waits for a slow reader instead of losing or reordering output", async () => {
    const lines = Array.from({ length: 3_000 }, (_, i) => inputLine(i));
    const result = await run(lines.join("\n"), { slowReader: true });
    expect(result.lines).toHaveLength(3_000);
    expect(JSON.parse(result.lines[2_999] ?? "{}")).toMatchObject({ parts: { street: "2999" } });
  }, 60_000);
});
