// The production HTTP server (`npm start`): Remix behind Express. Before any route: security
// headers on every response, a request log without query strings (the admin's URLs carry session
// tokens) nor the token in a shop's courier webhook URL, a per-client limit on tracking look-ups
// and on the shopper's blocks' questions, cross-site writes to pages refused with 403, and every
// request body read within its route's limit (ADR 0012). A graceful stop on SIGTERM.
import "./server/production-defaults.js";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createRequestHandler } from "@remix-run/node";
import express from "express";
import { readBodies } from "./server/body-limit.js";
import { compressedAssets } from "./server/compressed-assets.js";
import {
  answerOf,
  databaseBusyResponse,
  databaseWasBusy,
  requestScope,
} from "./server/database-busy.js";
import { crossSiteWritesRefused } from "./server/same-origin.js";
import { securityHeaders } from "./server/security-headers.js";
import {
  checkoutRatesRateLimit,
  trackingRateLimit,
  whatsAppCallbackRateLimit,
} from "./server/tracking-limit.js";
import { sendWebResponse, webRequest } from "./server/web-request.js";

const root = process.cwd();
const buildDir = path.resolve(root, "build");
const build = await import(pathToFileURL(path.join(buildDir, "server", "index.js")).href);

const app = express();
app.disable("x-powered-by");
// Nothing here reads req.query (Remix parses the URL itself): no qs parsing of every query string.
app.set("query parser", false);
// Behind a load balancer or proxy, TRUST_PROXY (hops, or addresses) makes the client's address
// the one it forwards, so the tracking limit counts clients, not the proxy.
const trustProxy = process.env.TRUST_PROXY?.trim();
if (trustProxy) app.set("trust proxy", /^\d+$/.test(trustProxy) ? Number(trustProxy) : trustProxy);

app.use(securityHeaders());
app.use((req, res, next) => {
  const started = performance.now();
  res.on("finish", () => {
    const ms = (performance.now() - started).toFixed(1);
    const where = req.path
      .replace(/^\/courier\/webhooks\/[^/]+/, "/courier/webhooks/[token]")
      .replace(/^\/whatsapp\/webhooks\/[^/]+/, "/whatsapp/webhooks/[token]")
      .replace(/^\/checkout\/rates\/[^/]+/, "/checkout/rates/[token]")
      .replace(/^\/tracking\/[^/]+/, "/tracking/[token]");
    console.log(`${req.method} ${where} ${res.statusCode} ${ms}ms`);
  });
  next();
});
app.use("/assets", compressedAssets(path.join(buildDir, "client", "assets")));
app.use(
  "/assets",
  express.static(path.join(buildDir, "client", "assets"), { immutable: true, maxAge: "1y" }),
);
app.use(express.static(path.join(buildDir, "client"), { maxAge: "1h" }));
app.use("/tracking/", trackingRateLimit());
// The shopper's blocks in Shopify's pages answer any shopper's session token: the same limit,
// counted apart (a thank-you page asks a few times while the app checks the new order).
app.use("/api/shopper/", trackingRateLimit());
app.use("/whatsapp/webhooks/", whatsAppCallbackRateLimit());
app.use("/checkout/rates/", checkoutRatesRateLimit());
app.use(crossSiteWritesRefused(build));
app.use(readBodies());
// After the body is read (its stream's events run outside any request's async context).
app.use(requestScope());

// Fast path (ADR 0007): Shopify's fulfillments/create webhooks, the one route that must take a
// burst of a thousand a second, go straight to that route's own action: the same code, without
// Remix's routing and response handling around it. The action does everything (signature,
// parsing, intake); this only hands it the web Request and writes back its Response.
function fastPath(routePath, action) {
  app.post(routePath, async (req, res, next) => {
    try {
      let response;
      try {
        const params = { ...req.params };
        response = await action({ request: webRequest(req, res), params, context: {} });
      } catch (thrown) {
        // A thrown Response is the answer, as Remix treats it; anything else is a server error.
        if (!(thrown instanceof Response)) throw thrown;
        response = thrown;
      }
      await sendWebResponse(res, answerOf(req, response));
    } catch (error) {
      next(error);
    }
  });
}

const FULFILLMENTS_CREATE = "routes/webhooks.fulfillments.create";
const fulfillmentsCreate = build.routes[FULFILLMENTS_CREATE];
if (!fulfillmentsCreate?.module.action) throw new Error(`${FULFILLMENTS_CREATE} has no action`);
fastPath(`/${fulfillmentsCreate.path}`, fulfillmentsCreate.module.action);

// Shopify's rate requests at checkout (ADR 0062): Shopify waits at most 10 s, 3 s under load,
// and asks on every checkout update; the same action as the route's, without Remix around it.
const CHECKOUT_RATES = "routes/checkout.rates.$token";
const checkoutRates = build.routes[CHECKOUT_RATES];
if (!checkoutRates?.module.action) throw new Error(`${CHECKOUT_RATES} has no action`);
fastPath("/checkout/rates/:token", checkoutRates.module.action);

// bench:webhooks only (BENCH_BARE_ROUTE=1): the same fast path with an action that only answers
// 200, so the benchmark measures what this server does for a webhook-sized POST and nothing else.
if (process.env.BENCH_BARE_ROUTE === "1") {
  fastPath("/webhooks/bare", async () => new Response(null, { status: 200 }));
  // bench:rates: a bare route answering a rates-sized JSON body, for the same comparison.
  fastPath("/checkout/bare", async () =>
    Response.json({ rates: [] }, { headers: { "Cache-Control": "no-store" } }),
  );
}

const handleRemixRequest = createRequestHandler(build, build.mode);
app.all("*", async (req, res, next) => {
  try {
    await sendWebResponse(res, answerOf(req, await handleRemixRequest(webRequest(req, res))));
  } catch (error) {
    next(error);
  }
});

// Whatever reached here is answered without details: no stack, no path on this disk. A client's
// mistake (a path that does not decode) is a 4xx and one log line; anything else is logged whole.
// Express knows an error handler by its four parameters.
// eslint-disable-next-line @typescript-eslint/no-unused-vars
app.use((error, req, res, _next) => {
  if (databaseWasBusy(error) && !res.headersSent) {
    console.warn(`${req.method} answered 503: the database file stayed locked`);
    sendWebResponse(res, databaseBusyResponse(req)).catch(() => req.socket.destroy());
    return;
  }
  const status = error?.status >= 400 && error.status < 500 ? error.status : 500;
  if (status === 500) console.error(error);
  else console.warn(`${req.method} refused with ${status}: ${error?.name ?? "Error"}`);
  if (res.headersSent) return req.socket.destroy();
  res.status(status).type("text/plain");
  res.end(status === 500 ? "Something went wrong on our side." : "Bad request.");
});

const port = Number(process.env.PORT || 3000);
const host = process.env.HOST || "0.0.0.0";
const server = app.listen(port, host, () => {
  console.log(`App listening on http://${host === "0.0.0.0" ? "localhost" : host}:${port}`);
});

for (const signal of ["SIGTERM", "SIGINT"]) {
  process.once(signal, () => {
    server.close(() => process.exit(0));
    // Keep-alive connections may hold the server open; do not wait for them forever.
    setTimeout(() => process.exit(0), 10_000).unref();
  });
}
