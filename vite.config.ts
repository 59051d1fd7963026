import { vitePlugin as remix } from "@remix-run/dev";
import fs from "node:fs";
import path from "node:path";
import { defineConfig, type Plugin, type UserConfig } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";
import { precompressAssets } from "./server/compressed-assets.js";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

// The Shopify CLI passes HOST; the dev server must accept the tunnel's host name.
const host = new URL(process.env.SHOPIFY_APP_URL || "http://localhost").hostname;
const hmr =
  host === "localhost"
    ? { protocol: "ws", host: "localhost", port: 64999, clientPort: 64999 }
    : { protocol: "wss", host, port: Number(process.env.FRONTEND_PORT) || 8002, clientPort: 443 };

/**
 * The browser's stylesheets and scripts compressed beside them (.br, .gz), so the server never
 * compresses while a page waits for them (server/compressed-assets.js, issue 14). After each of
 * Remix's two builds: the server's writes the route manifest into the browser's assets.
 */
function precompress(): Plugin {
  let root = process.cwd();
  return {
    name: "precompress-assets",
    apply: "build",
    configResolved(config) {
      root = config.root;
    },
    closeBundle: {
      order: "post",
      async handler() {
        const assets = path.join(root, "build", "client", "assets");
        if (fs.existsSync(assets)) await precompressAssets(assets);
      },
    },
  };
}

export default defineConfig({
  server: {
    allowedHosts: [host],
    cors: { preflightContinue: true },
    port: Number(process.env.PORT || 3000),
    hmr,
    fs: { allow: ["app", "node_modules"] },
  },
  plugins: [
    remix({
      ignoredRouteFiles: ["**/.*", "**/*.test.*"],
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_lazyRouteDiscovery: true,
        v3_singleFetch: true,
        v3_routeConfig: false,
      },
    }),
    tsconfigPaths(),
    precompress(),
  ],
  build: { assetsInlineLimit: 0 },
  optimizeDeps: { include: ["@shopify/app-bridge-react", "@shopify/polaris"] },
}) satisfies UserConfig;
