import { defineConfig } from "vitest/config";

// `npm run test:unit`: the inner loop. The pure modules' tests, without a database, a server or
// a child process: test/unit/, the courier's wire formats, the labels, the admin extensions' logic
// and their components rendered in happy-dom, and any app/**/*.test.ts.
// Well under a minute. `npm test` runs them again within the `node` project.
export default defineConfig({
  test: {
    name: "unit",
    include: [
      "test/unit/**/*.test.ts",
      "test/courier/wire.test.ts",
      "test/courier/reply.property.test.ts",
      "test/whatsapp/webhook.test.ts",
      "test/labels/**/*.test.ts",
      "test/extensions/logic.test.ts",
      "test/extensions/render/**/*.test.ts",
      "app/**/*.test.{ts,tsx}",
    ],
    // Starts the command-line tool as a child process (seconds each): left to `npm test`.
    exclude: ["test/unit/addresses/cli.test.ts"],
    environment: "node",
    // As the `node` project: property tests run for seconds on a loaded machine.
    testTimeout: 20_000,
  },
});
