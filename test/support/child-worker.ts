import { spawn } from "node:child_process";
import fs from "node:fs";
import { ROOT } from "./paths";

/**
 * test/support/delivery-worker-child.ts in a process of its own, started as `node --import tsx`:
 * the pid is the node process running the worker itself (the `tsx` command would put a wrapper
 * in between, and a signal sent to the wrapper would leave the worker running).
 */
export function startChildWorker(owner: string, options: string[] = []) {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "test/support/delivery-worker-child.ts", owner, ...options],
    { cwd: ROOT, env: process.env, stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.on("exit", (code, signal) => resolve(signal ?? code)),
  );
  const pid = child.pid!;
  return {
    pid,
    exited,
    output: () => output,
    signal: (signal: NodeJS.Signals) => process.kill(pid, signal),
    /** Waits until the child printed `text` (it prints "ready <pid>", "paused …", "done"). */
    printed: (text: string, timeoutMs = 60_000) =>
      until(
        () => output.includes(text),
        `the child worker to print "${text}"`,
        timeoutMs,
        () => output,
      ),
    /** Waits until the kernel shows the child stopped (state T in /proc/<pid>/stat). */
    stopped: () =>
      until(
        () => processState(pid) === "T",
        "the child worker to stop",
        20_000,
        () => output,
      ),
  };
}

/** The process's state letter from /proc (R, S, T…), or null when there is no such process. */
export function processState(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
  } catch {
    return null;
  }
}

/** Polls until `done`; fails with `what` and what the child printed after `timeoutMs`. */
export async function until(
  done: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 20_000,
  printed: () => string = () => "",
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline)
      throw new Error(`Timed out waiting for ${what}; the child printed: ${printed()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
