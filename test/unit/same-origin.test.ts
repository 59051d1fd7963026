import type http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { crossSiteWritesRefused, isCrossSite } from "../../server/same-origin.js";

let server: http.Server | undefined;
afterEach(
  () => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())),
);

const page = { default: () => null };
const resource = { action: () => null };
/** A build's route manifest as server.js hands it: a page, a resource route, the root. */
const build = {
  routes: {
    root: { id: "root", path: "", module: page },
    "routes/app": { id: "routes/app", parentId: "root", path: "app", module: page },
    "routes/app.settings": {
      id: "routes/app.settings",
      parentId: "routes/app",
      path: "settings",
      module: page,
    },
    "routes/api.send": {
      id: "routes/api.send",
      parentId: "root",
      path: "api/send",
      module: resource,
    },
  },
};

async function serve(): Promise<string> {
  const app = express();
  app.use(crossSiteWritesRefused(build));
  app.all("*", (_req, res) => res.status(200).end("handled"));
  server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server!.once("listening", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const post = (url: string, origin?: string) =>
  fetch(url, {
    method: "POST",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      ...(origin ? { Origin: origin } : {}),
    },
    body: "a=1",
  });

describe("cross-site writes to pages", () => {
  it("answers a form posted to a page from another site with 403", async () => {
    // Remix threw on it and the server answered 500 (issue 24).
    const url = await serve();
    const reply = await post(`${url}/app/settings`, "https://evil.example");
    expect(reply.status).toBe(403);
    expect(await reply.text()).toBe("Cross-site request refused.");
  });

  it("answers a write to a page's data from another site with 403", async () => {
    const url = await serve();
    expect((await post(`${url}/app/settings.data`, "https://evil.example")).status).toBe(403);
  });

  it("lets a page's own form through", async () => {
    const url = await serve();
    expect((await post(`${url}/app/settings`, url)).status).toBe(200);
  });

  it("lets through a write without an Origin, as a server's webhook is", async () => {
    const url = await serve();
    expect((await post(`${url}/app/settings`)).status).toBe(200);
  });

  it("lets another site call a resource route, as the admin extensions do", async () => {
    const url = await serve();
    const reply = await post(`${url}/api/send`, "https://extensions.shopifycdn.com");
    expect(reply.status).toBe(200);
  });

  it("reads the host as Remix does: the forwarded one first, an unreadable Origin as another site", () => {
    const headers = { origin: "https://app.example", host: "10.0.0.5:3000" };
    expect(isCrossSite(headers)).toBe(true);
    expect(isCrossSite({ ...headers, "x-forwarded-host": "app.example, proxy" })).toBe(false);
    expect(isCrossSite({ origin: "null", host: "app.example" })).toBe(true);
    expect(isCrossSite({ origin: "::", host: "app.example" })).toBe(true);
  });
});
