import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";

/**
 * Versions pinned for advisories (package.json "overrides"; README, "Security"). npm audit cannot
 * reach the advisory service from these machines, so the installed versions are checked here.
 */
const require = createRequire(import.meta.url);
const installed = (name: string) =>
  (require(`${name}/package.json`) as { version: string }).version.split(".").map(Number);

function atLeast(version: number[], minimum: number[]): boolean {
  for (let i = 0; i < minimum.length; i++) {
    if ((version[i] ?? 0) !== minimum[i]) return (version[i] ?? 0) > minimum[i]!;
  }
  return true;
}

describe("dependencies with known advisories", () => {
  it.each([
    // GHSA-jjmj-jmhj-qwj2: open redirect leading to XSS, fixed in 6.30.6 (Remix 2.17.5 pins 6.30.4).
    ["react-router", [6, 30, 6]],
    ["react-router-dom", [6, 30, 6]],
    // GHSA-8g5g-mxqh-grgj: the dev server's server.fs.deny bypassed with queries, fixed in 6.4.5.
    ["vite", [6, 4, 5]],
  ] as const)("%s is at least the fixed version", (name, minimum) => {
    expect(atLeast(installed(name), [...minimum])).toBe(true);
  });
});
