// The production HTTP server (`npm start`): Remix behind Express, with a request log that never
// prints query strings (the admin's URLs carry session tokens) nor the token in a shop's courier
// webhook URL, and a graceful stop on SIGTERM.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createRequestHandler } from "@remix-run/express";
import express from "express";

const root = process.cwd();
const buildDir = path.resolve(root, "build");
const build = await import(pathToFileURL(path.join(buildDir, "server", "index.js")).href);

const app = express();
app.disable("x-powered-by");
app.use(
  "/assets",
  express.static(path.join(buildDir, "client", "assets"), { immutable: true, maxAge: "1y" }),
);
app.use(express.static(path.join(buildDir, "client"), { maxAge: "1h" }));
app.use((req, res, next) => {
  const started = performance.now();
  res.on("finish", () => {
    const ms = (performance.now() - started).toFixed(1);
    const where = req.path.replace(/^\/courier\/webhooks\/[^/]+/, "/courier/webhooks/[token]");
    console.log(`${req.method} ${where} ${res.statusCode} ${ms}ms`);
  });
  next();
});

// Fast path (ADR 0007): Shopify's fulfillments/create webhooks, the one route that must take a
// burst of a thousand a second, go straight to that route's own action: the same code, without
// Remix's routing and response handling around it. The action does everything (signature,
// parsing, intake); this only turns the Node request into the web Request it takes, and back.
function fastPath(routePath, action) {
  app.post(routePath, express.raw({ type: () => true, limit: "5mb" }), async (req, res, next) => {
    try {
      const headers = new Headers();
      for (let i = 0; i < req.rawHeaders.length; i += 2) {
        headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
      }
      const request = new Request(`http://${req.headers.host ?? "localhost"}${req.originalUrl}`, {
        method: "POST",
        headers,
        // express.raw leaves `{}` when there is no body.
        body: Buffer.isBuffer(req.body) ? req.body : undefined,
      });
      let response;
      try {
        response = await action({ request, params: {}, context: {} });
      } catch (thrown) {
        // A thrown Response is the answer, as Remix treats it; anything else is a server error.
        if (!(thrown instanceof Response)) throw thrown;
        response = thrown;
      }
      res.status(response.status);
      response.headers.forEach((value, name) => res.setHeader(name, value));
      res.end(Buffer.from(await response.arrayBuffer()));
    } catch (error) {
      next(error);
    }
  });
}

const FULFILLMENTS_CREATE = "routes/webhooks.fulfillments.create";
const fulfillmentsCreate = build.routes[FULFILLMENTS_CREATE];
if (!fulfillmentsCreate?.module.action) throw new Error(`${FULFILLMENTS_CREATE} has no action`);
fastPath(`/${fulfillmentsCreate.path}`, fulfillmentsCreate.module.action);

// bench:webhooks only (BENCH_BARE_ROUTE=1): the same fast path with an action that only answers
// 200, so the benchmark measures what this server does for a webhook-sized POST and nothing else.
if (process.env.BENCH_BARE_ROUTE === "1") {
  fastPath("/webhooks/bare", async () => new Response(null, { status: 200 }));
}

app.all("*", createRequestHandler({ build, mode: build.mode }));

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
