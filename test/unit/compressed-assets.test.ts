import fs from "node:fs";
import type http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { compressedAssets, precompressAssets } from "../../server/compressed-assets.js";

let server: http.Server | undefined;
afterEach(
  () => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())),
);

async function serve(dir: string): Promise<string> {
  const app = express();
  app.use("/assets", compressedAssets(dir));
  app.use("/assets", express.static(dir));
  server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server!.once("listening", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/assets`;
}

/** The raw body of a response, as the server sent it (Node's fetch would decode it). */
async function rawBody(url: string, encoding: string) {
  const { hostname, port, pathname } = new URL(url);
  const http = await import("node:http");
  return new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    http
      .get({ hostname, port, path: pathname, headers: { "Accept-Encoding": encoding } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on("error", reject);
  });
}

const CSS = `.Polaris-Page{padding:16px}\n`.repeat(2000);

function assetsDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "assets-"));
  fs.writeFileSync(path.join(dir, "styles-abc.css"), CSS);
  return dir;
}

describe("compressed assets (issue 14)", () => {
  it("sends the build's compressed copy, never compressing while the page waits", async () => {
    const dir = assetsDir();
    // A copy that is not the file compressed here: the one sent must be the build's.
    const built = "/* compressed by the build */" + CSS;
    fs.writeFileSync(path.join(dir, "styles-abc.css.br"), zlib.brotliCompressSync(built));
    fs.writeFileSync(path.join(dir, "styles-abc.css.gz"), zlib.gzipSync(built));
    const url = `${await serve(dir)}/styles-abc.css`;

    const br = await rawBody(url, "gzip, deflate, br");
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers["content-type"]).toBe("text/css; charset=utf-8");
    expect(zlib.brotliDecompressSync(br.body).toString()).toBe(built);
    const gz = await rawBody(url, "gzip");
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(zlib.gunzipSync(gz.body).toString()).toBe(built);
  });

  it("writes the copies the server sends, and compresses a file without one itself", async () => {
    const dir = assetsDir();
    expect(await precompressAssets(dir)).toBe(1);
    expect(
      zlib.brotliDecompressSync(fs.readFileSync(path.join(dir, "styles-abc.css.br"))).toString(),
    ).toBe(CSS);
    expect(zlib.gunzipSync(fs.readFileSync(path.join(dir, "styles-abc.css.gz"))).toString()).toBe(
      CSS,
    );
    // Up to date: nothing to do again.
    expect(await precompressAssets(dir)).toBe(0);

    fs.writeFileSync(path.join(dir, "entry-def.js"), "console.log(1);\n".repeat(500));
    const base = await serve(dir);
    const js = await rawBody(`${base}/entry-def.js`, "br");
    expect(js.headers["content-encoding"]).toBe("br");
    expect(zlib.brotliDecompressSync(js.body).toString()).toBe("console.log(1);\n".repeat(500));
    const plain = await rawBody(`${base}/entry-def.js`, "identity");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.toString()).toBe("console.log(1);\n".repeat(500));
  });
});
