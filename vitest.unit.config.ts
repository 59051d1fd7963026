import { defineConfig } from "vitest/config";

// `npm run test:unit`: the inner loop. The pure modules' tests (test/unit/), without a database
// or a server: well under a minute. `npm test` runs them again within the `node` project.
export default defineConfig({
  test: {
    name: "unit",
    include: ["test/unit/**/*.test.ts"],
    // Starts the command-line tool as a child process (seconds each): left to `npm test`.
    exclude: ["test/unit/addresses/cli.test.ts"],
    environment: "node",
    // As the `node` project: property tests run for seconds on a loaded machine.
    testTimeout: 20_000,
  },
});
