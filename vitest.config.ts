import { defineConfig } from "vitest/config";

// Three projects: `node` (unit and integration, a fresh migrated SQLite file per test file),
// `postgres` (against the real PostgreSQL server, a fresh migrated database per test file; ADR
// 0009) and `browser` (real pages in Debian's headless Chromium against a running app server).
// test/both-databases/ is in `node` and `postgres` alike: each of its files runs on both.
export default defineConfig({
  test: {
    reporters: ["default", "./test/support/summary-reporter.ts"],
    // Vitest's default on this 2-core machine is one file at a time (cores - 1). The node and
    // postgres files mostly wait (databases, servers, sockets): two at a time halves their wall
    // time (each file has its own database, so they never share rows). The browser files stay
    // one at a time (`fileParallelism: false`): they share one app server and shop.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: "node",
          include: ["test/**/*.test.{ts,tsx}", "app/**/*.test.{ts,tsx}", "sandbox/**/*.test.ts"],
          exclude: ["test/browser/**", "test/security/**", "test/postgres/**", "node_modules/**"],
          environment: "node",
          globalSetup: ["test/setup/global-db.ts"],
          setupFiles: ["test/setup/node.ts"],
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: "postgres",
          include: ["test/postgres/**/*.test.ts", "test/both-databases/**/*.test.ts"],
          environment: "node",
          globalSetup: ["test/postgres/setup/global.ts"],
          setupFiles: ["test/postgres/setup/file.ts"],
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: "browser",
          // Both run against the built server that the global setup starts.
          include: ["test/browser/**/*.test.ts", "test/security/**/*.test.ts"],
          environment: "node",
          globalSetup: ["test/setup/global-db.ts", "test/browser/global-setup.ts"],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // A page waits on a real server, worker and courier sandbox: on a loaded 2-core machine
          // a second is not enough for a delivery to be created and shown (the default).
          expect: { poll: { timeout: 15_000 } },
          fileParallelism: false,
        },
      },
    ],
  },
});
