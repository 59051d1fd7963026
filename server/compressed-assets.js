// The built stylesheets and scripts under /assets, compressed (brotli or gzip, as the browser
// accepts): Polaris's stylesheet is 434 kB as built, about 45 kB compressed. The build writes the
// compressed copies beside each file (`precompressAssets`, run by vite.config.ts), so no request
// ever waits for compression: compressing on a page's first visit (brotli, about 1.5 MB of
// scripts and styles) held the one server thread for seconds, and the page's stylesheet with it
// (issue 14). Files are immutable (their names carry a hash), so a compressed copy never goes
// stale. A build without the copies (an older one) still works: each file is then compressed
// once, off the event loop, and kept in memory.
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";

const TYPES = { ".css": "text/css; charset=utf-8", ".js": "text/javascript; charset=utf-8" };
const SUFFIX = { br: ".br", gzip: ".gz" };
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

function compress(raw, encoding) {
  return encoding === "br"
    ? brotli(raw, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
        },
      })
    : gzip(raw, { level: 9 });
}

/**
 * Writes `name.br` and `name.gz` beside every stylesheet and script in `dir` (the build's
 * client/assets) that has none newer than itself, as the server sends them. Returns how many
 * files it compressed.
 */
export async function precompressAssets(dir) {
  const mtime = (file) => fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? -1;
  const files = fs
    .readdirSync(dir)
    .filter((name) => TYPES[path.extname(name)])
    .map((name) => path.join(dir, name))
    .filter((file) => Object.values(SUFFIX).some((s) => mtime(file + s) < mtime(file)));
  await Promise.all(
    files.map(async (file) => {
      const raw = await fs.promises.readFile(file);
      for (const encoding of ["br", "gzip"]) {
        await fs.promises.writeFile(file + SUFFIX[encoding], await compress(raw, encoding));
      }
    }),
  );
  return files.length;
}

/** Express middleware for `dir` (build/client/assets) mounted at /assets. */
export function compressedAssets(dir) {
  // `${encoding}:${file}` -> a promise of the compressed body, read from the build's copy when
  // there is one, else compressed here once.
  const cache = new Map();
  const compressed = (file, encoding) => {
    const key = `${encoding}:${file}`;
    let body = cache.get(key);
    if (body === undefined) {
      const copy = file + SUFFIX[encoding];
      body = fs.existsSync(copy)
        ? fs.promises.readFile(copy)
        : fs.promises.readFile(file).then((raw) => compress(raw, encoding));
      // A failure is not kept: the next request tries again.
      body.catch(() => cache.delete(key));
      cache.set(key, body);
    }
    return body;
  };
  return (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const type = TYPES[path.extname(req.path)];
    if (!type || req.path.includes("..")) return next();
    const accepted = String(req.headers["accept-encoding"] ?? "");
    const encoding = /\bbr\b/.test(accepted) ? "br" : /\bgzip\b/.test(accepted) ? "gzip" : null;
    if (!encoding) return next();
    const file = path.join(dir, req.path);
    if (!file.startsWith(dir + path.sep) || !fs.existsSync(file)) return next();
    compressed(file, encoding).then((body) => {
      res.setHeader("Content-Type", type);
      res.setHeader("Content-Encoding", encoding);
      res.setHeader("Vary", "Accept-Encoding");
      res.setHeader("Cache-Control", "public, max-age=31536000, immutable");
      res.setHeader("Content-Length", String(body.length));
      res.end(req.method === "HEAD" ? undefined : body);
    }, next);
  };
}
