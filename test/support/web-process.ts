import { spawn, type ChildProcess } from "node:child_process";
import { afterEach } from "vitest";
import { until } from "./child-worker";
import { ROOT } from "./paths";

/**
 * The webhook intake in a real node process of its own (webhook-server-child.ts), for faults that
 * must hit a process: a database ending its connections, a locked SQLite file. Killed after each
 * test of the file that uses it.
 */
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
});

export function startWebProcess(env: Record<string, string>) {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "test/support/webhook-server-child.ts"],
    { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] },
  );
  children.push(child);
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return {
    child,
    output: () => output,
    /** The port it listens on, once it printed "ready <port>". */
    port: async () => {
      await until(
        () => /ready \d+/.test(output) || child.exitCode !== null,
        "the web process",
        60_000,
        () => output,
      );
      const port = /ready (\d+)/.exec(output)?.[1];
      if (!port) throw new Error(`The web process did not start: ${output}`);
      return Number(port);
    },
  };
}
