import { defineConfig } from "vitest/config";

// Two projects: `node` (unit and integration, a fresh migrated SQLite file per test file) and
// `browser` (real pages in Debian's headless Chromium against a running app server).
export default defineConfig({
  test: {
    reporters: ["default", "./test/support/summary-reporter.ts"],
    projects: [
      {
        test: {
          name: "node",
          include: ["test/**/*.test.{ts,tsx}", "app/**/*.test.{ts,tsx}", "sandbox/**/*.test.ts"],
          exclude: ["test/browser/**", "node_modules/**"],
          environment: "node",
          globalSetup: ["test/setup/global-db.ts"],
          setupFiles: ["test/setup/node.ts"],
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: "browser",
          include: ["test/browser/**/*.test.ts"],
          environment: "node",
          globalSetup: ["test/setup/global-db.ts", "test/browser/global-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
