// The production HTTP server (`npm start`): Remix behind Express, with a request log that never
// prints query strings (the admin's URLs carry session tokens) and a graceful stop on SIGTERM.
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
    console.log(`${req.method} ${req.path} ${res.statusCode} ${ms}ms`);
  });
  next();
});
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
