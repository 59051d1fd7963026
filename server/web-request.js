// Between Express and the web Request/Response that Remix and the routes' actions take. The body
// is the one server/body-limit.js read within its limit: no handler ever reads the socket.
import { writeReadableStreamToWritable } from "@remix-run/node";

/** The web Request for an Express request whose body (if any) is already `req.body`. */
export function webRequest(req, res) {
  const controller = new AbortController();
  // Loaders and actions stop when the client goes away before the answer is written.
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  const url = new URL(req.originalUrl, `${req.protocol}://${req.get("host") ?? "localhost"}`);
  const init = {
    method: req.method,
    headers: headersOf(req),
    signal: controller.signal,
  };
  if (req.method !== "GET" && req.method !== "HEAD") {
    init.body = Buffer.isBuffer(req.body) ? req.body : undefined;
  }
  return new Request(url.href, init);
}

function headersOf(req) {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
  }
  return headers;
}

/**
 * Writes a web Response. A response that brings its own Content-Security-Policy (the embedded
 * pages, server/security-headers.js) replaces the default one rather than adding a second.
 */
export async function sendWebResponse(res, response) {
  res.statusMessage = response.statusText;
  res.status(response.status);
  if (response.headers.has("content-security-policy")) {
    res.removeHeader("Content-Security-Policy");
    res.removeHeader("X-Frame-Options");
  }
  for (const [name, value] of response.headers) {
    if (name === "set-cookie") continue;
    res.setHeader(name, value);
  }
  for (const cookie of response.headers.getSetCookie()) res.append("Set-Cookie", cookie);
  if (response.body) {
    await writeReadableStreamToWritable(response.body, res);
  } else {
    res.end();
  }
}
