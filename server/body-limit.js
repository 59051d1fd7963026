// Request bodies, read once for every route before any handler sees them (ADR 0012): each path
// has a limit, a body over it is refused with 413 as soon as it crosses it (chunked bodies carry
// no length to check first), and all the bodies being read at once share one budget, so the
// memory they hold stays bounded however many connections send them. Handlers get the bytes as
// `req.body` (a Buffer), never the socket.

const KiB = 1024;
const MiB = 1024 * KiB;

/**
 * The most a body may be, by path prefix; the longest matching prefix wins.
 *
 * Shopify sends orders and fulfillments whole (line items, addresses, discounts): "upwards of a
 * megabyte" for large orders, and its own EventBridge deliveries switch to an id-only body above
 * 1,000,000 bytes. 4 MiB leaves room above that; the other topics carry a shop, a scope list or
 * a list of order ids.
 */
export const BODY_LIMITS = Object.freeze([
  { prefix: "/webhooks/orders/", bytes: 4 * MiB },
  { prefix: "/webhooks/fulfillments/", bytes: 4 * MiB },
  { prefix: "/webhooks/customers/", bytes: 1 * MiB },
  { prefix: "/webhooks/", bytes: 256 * KiB },
  // The courier's status pushes (ADR 0008).
  { prefix: "/courier/webhooks/", bytes: 64 * KiB },
  // Meta's WhatsApp status callbacks and shoppers' replies.
  { prefix: "/whatsapp/webhooks/", bytes: 256 * KiB },
  // Shopify's rate requests at checkout: a cart's items, addresses and totals.
  { prefix: "/checkout/rates/", bytes: 1 * MiB },
  // The login form: one shop domain.
  { prefix: "/auth/", bytes: 16 * KiB },
  // Courier statements imported on the cash page (CSV or Excel, tens of thousands of lines).
  { prefix: "/app/cash", bytes: 16 * MiB },
  // The admin's forms: settings, pickup locations, address review, up to 250 orders to send.
  { prefix: "/app/", bytes: 1 * MiB },
  { prefix: "/", bytes: 64 * KiB },
]);

/** All the bodies being read at once hold at most this much. */
export const BODY_BUDGET_BYTES = 32 * MiB;

/** The limit that applies to a path. */
export function bodyLimitFor(path, limits = BODY_LIMITS) {
  let best = { prefix: "", bytes: 0 };
  for (const limit of limits) {
    if (path.startsWith(limit.prefix) && limit.prefix.length > best.prefix.length) best = limit;
  }
  return best.bytes;
}

/** Bytes held by the bodies being read or handled right now, shared by every request. */
export class BodyBudget {
  constructor(bytes) {
    this.bytes = bytes;
    this.held = 0;
  }

  take(bytes) {
    if (this.held + bytes > this.bytes) return false;
    this.held += bytes;
    return true;
  }

  give(bytes) {
    this.held = Math.max(0, this.held - bytes);
  }
}

function hasBody(req) {
  return (
    req.headers["transfer-encoding"] !== undefined ||
    (req.headers["content-length"] !== undefined && req.headers["content-length"] !== "0")
  );
}

/** How long a refused client has to read the answer before its connection is closed. */
const GRACE_MS = 1000;

/**
 * Answers, then hangs up: the rest of the body is never read. The request stays paused (what the
 * client still sends waits in the kernel's buffers, not in this process) for a moment, so that the
 * client reads the answer before the connection closes under it.
 */
function refuse(req, res, status, message, extraHeaders = {}) {
  req.pause();
  const hangUp = () => setTimeout(() => req.socket.destroy(), GRACE_MS).unref();
  if (res.headersSent) return hangUp();
  res.once("finish", hangUp);
  // Node would close at once (the body is unfinished), often before the client read the answer.
  res.shouldKeepAlive = true;
  res.status(status);
  res.set({ "Content-Type": "text/plain; charset=utf-8", ...extraHeaders });
  res.end(message);
}

/**
 * Express middleware: reads the body into `req.body` within the path's limit and the shared
 * budget, or answers 413 (too large), 503 (too many bodies at once; try again), 415 (compressed)
 * or 400 (the client stopped halfway).
 */
export function readBodies({
  limits = BODY_LIMITS,
  budget = new BodyBudget(BODY_BUDGET_BYTES),
} = {}) {
  return (req, res, next) => {
    if (!hasBody(req)) return next();
    const limit = bodyLimitFor(req.path, limits);
    const encoding = (req.headers["content-encoding"] ?? "identity").toLowerCase();
    if (encoding !== "identity") {
      return refuse(req, res, 415, "Compressed request bodies are not accepted.");
    }
    const declared = Number(req.headers["content-length"] ?? NaN);
    if (declared > limit) {
      return refuse(req, res, 413, `The request body is over ${limit} bytes.`);
    }

    const chunks = [];
    let size = 0;
    let held = 0;
    let done = false;
    res.once("close", () => budget.give(held));
    const stop = () => {
      done = true;
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      req.off("aborted", onAborted);
    };
    const onData = (chunk) => {
      if (done) return;
      size += chunk.length;
      if (size > limit) {
        stop();
        chunks.length = 0;
        return refuse(req, res, 413, `The request body is over ${limit} bytes.`);
      }
      if (!budget.take(chunk.length)) {
        stop();
        chunks.length = 0;
        return refuse(req, res, 503, "The server is busy receiving other requests; try again.", {
          "Retry-After": "5",
        });
      }
      held += chunk.length;
      chunks.push(chunk);
    };
    const onEnd = () => {
      if (done) return;
      stop();
      req.body = Buffer.concat(chunks, size);
      next();
    };
    const onAborted = () => {
      if (done) return;
      stop();
      chunks.length = 0;
    };
    const onError = () => {
      if (done) return;
      stop();
      chunks.length = 0;
      refuse(req, res, 400, "The request body could not be read.");
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
    req.on("aborted", onAborted);
  };
}
