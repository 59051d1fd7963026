// The built stylesheets and scripts under /assets, compressed once (brotli or gzip, as the
// browser accepts) and kept in memory: Polaris's stylesheet is 434 kB as built, about 60 kB
// compressed. Files are immutable (their names carry a hash), so a compressed copy never goes stale.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

const TYPES = { ".css": "text/css; charset=utf-8", ".js": "text/javascript; charset=utf-8" };

/** Express middleware for `dir` (build/client/assets) mounted at /assets. */
export function compressedAssets(dir) {
  const cache = new Map();
  const compressed = (file, encoding) => {
    const key = `${encoding}:${file}`;
    let body = cache.get(key);
    if (body === undefined) {
      const raw = fs.readFileSync(file);
      body =
        encoding === "br"
          ? zlib.brotliCompressSync(raw, {
              params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9 },
            })
          : zlib.gzipSync(raw, { level: 9 });
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
    const body = compressed(file, encoding);
    res.setHeader("Content-Type", type);
    res.setHeader("Content-Encoding", encoding);
    res.setHeader("Vary", "Accept-Encoding");
    res.setHeader("Cache-Control", "public, max-age=31536000, immutable");
    res.setHeader("Content-Length", String(body.length));
    res.end(req.method === "HEAD" ? undefined : body);
  };
}
