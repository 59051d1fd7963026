import iconv from "iconv-lite";

/**
 * The text of a statement file, whatever wrote it: Excel's "CSV UTF-8" (with a byte order mark),
 * plain UTF-8, "Unicode text" (UTF-16 with a mark, little or big endian), or an Arabic Windows
 * export (Windows-1256, no mark). Bytes that are valid UTF-8 are read as UTF-8; otherwise, a file
 * whose every other byte is zero is UTF-16; anything else is read as Windows-1256, the code page
 * Arabic Windows and older Excel save CSV in.
 */
export type StatementEncoding = "utf-8" | "utf-16le" | "utf-16be" | "windows-1256";

export function detectEncoding(bytes: Uint8Array): { encoding: StatementEncoding; bom: number } {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    return { encoding: "utf-8", bom: 3 };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: "utf-16le", bom: 2 };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: "utf-16be", bom: 2 };
  const sample = bytes.subarray(0, Math.min(bytes.length, 4096));
  if (sample.length >= 4) {
    let evenZeros = 0;
    let oddZeros = 0;
    for (let i = 0; i < sample.length; i++) {
      if (sample[i] !== 0) continue;
      if (i % 2 === 0) evenZeros++;
      else oddZeros++;
    }
    const half = sample.length / 2;
    // ASCII text in UTF-16 has a zero in every character's high byte.
    if (oddZeros > half * 0.3 && evenZeros === 0) return { encoding: "utf-16le", bom: 0 };
    if (evenZeros > half * 0.3 && oddZeros === 0) return { encoding: "utf-16be", bom: 0 };
  }
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return { encoding: "utf-8", bom: 0 };
  } catch {
    return { encoding: "windows-1256", bom: 0 };
  }
}

export function decodeStatementText(bytes: Uint8Array): {
  text: string;
  encoding: StatementEncoding;
} {
  const { encoding, bom } = detectEncoding(bytes);
  const body = bytes.subarray(bom);
  if (encoding === "utf-8") return { text: new TextDecoder("utf-8").decode(body), encoding };
  if (encoding === "utf-16le") return { text: new TextDecoder("utf-16le").decode(body), encoding };
  return {
    text: iconv.decode(Buffer.from(body), encoding === "utf-16be" ? "utf-16be" : "win1256"),
    encoding,
  };
}
