import fs from "node:fs";
import path from "node:path";
import type { Reporter, TestModule } from "vitest/node";
import { ARTIFACTS_DIR } from "./paths";

/**
 * Ends the run with the plain line `N passed, N failed` and writes the same counts to
 * test-results/summary.json for .ci/run. Skipped tests are counted apart, never as passed.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>) {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const testModule of testModules) {
      const tests = [...testModule.children.allTests()];
      // A file that failed to load has no tests but is a failure all the same.
      if (tests.length === 0 && testModule.state() === "failed") failed += 1;
      for (const test of tests) {
        const state = test.result().state;
        if (state === "passed") passed += 1;
        else if (state === "failed") failed += 1;
        else skipped += 1;
      }
    }
    failed += unhandledErrors.length;
    fs.mkdirSync(ARTIFACTS_DIR, { recursive: true });
    fs.writeFileSync(
      path.join(ARTIFACTS_DIR, "summary.json"),
      JSON.stringify({ passed, failed, skipped }) + "\n",
    );
    if (skipped > 0) process.stdout.write(`\n${skipped} skipped (not counted as passed)`);
    process.stdout.write(`\n${passed} passed, ${failed} failed\n`);
  }
}
