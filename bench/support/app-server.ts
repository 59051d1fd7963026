import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { ROOT, sleep } from "./scratch";

/** The built app (`npm run build`) started as `npm start` runs it, for load from this process. */

const BUILD_ENTRY = path.join(ROOT, "build", "server", "index.js");
const BUILD_INPUTS = ["app", "public", "vite.config.ts", "tsconfig.json"];

function newestChange(target: string): number {
  const stat = fs.statSync(target, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target)) {
    newest = Math.max(newest, newestChange(path.join(target, entry)));
  }
  return newest;
}

export type BuildOutcome = { state: "up to date" | "built" } | { state: "stale"; reason: string };

/**
 * Builds when the server bundle is missing or older than a source. A failed build (a tree being
 * edited) would leave `build/` emptied, so the previous bundle is kept aside and put back, and the
 * benchmark runs on it, saying so.
 */
export function ensureBuilt(scratch: string): BuildOutcome {
  const built = fs.statSync(BUILD_ENTRY, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  const sources = Math.max(...BUILD_INPUTS.map((p) => newestChange(path.join(ROOT, p))));
  if (built >= sources) return { state: "up to date" };
  const buildDir = path.join(ROOT, "build");
  const backup = path.join(scratch, "previous-build");
  if (built > 0) fs.cpSync(buildDir, backup, { recursive: true, preserveTimestamps: true });
  try {
    execFileSync(path.join(ROOT, "node_modules", ".bin", "remix"), ["vite:build"], {
      cwd: ROOT,
      stdio: "pipe",
    });
    return { state: "built" };
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: Buffer; stderr?: Buffer };
    const output = `${stdout ?? ""}${stderr ?? ""}` || String(error);
    const reason = output
      .split("\n")
      .filter((line) => line.trim() !== "" && !/^\s*at /.test(line))
      .slice(-4)
      .join(" / ");
    if (built === 0) throw new Error(`The app does not build:\n${output}`);
    fs.rmSync(buildDir, { recursive: true, force: true });
    fs.cpSync(backup, buildDir, { recursive: true, preserveTimestamps: true });
    return { state: "stale", reason: reason || "the build failed" };
  }
}

export interface RunningServer {
  url: string;
  pid: number;
  /** CPU seconds the server process has used so far (user + system), from /proc. */
  cpuSeconds(): number | null;
  log(): string;
  stop(): Promise<void>;
}

export async function startBuiltServer(options: {
  /** Added to this process's environment; `undefined` removes a variable (e.g. NODE_ENV). */
  env: Record<string, string | undefined>;
  port: number;
  logFile: string;
  /** Extra Node flags, e.g. `--cpu-prof`. */
  nodeArgs?: string[];
  /** The tree whose server.js and build/ run (default this one). */
  root?: string;
  /** How long to wait for /healthz (default 30 s; a loaded machine may need more). */
  startTimeoutMs?: number;
}): Promise<RunningServer> {
  const root = options.root ?? ROOT;
  const url = `http://127.0.0.1:${options.port}`;
  // The request log goes to a file, so reading it costs this process nothing during the load.
  const out = fs.openSync(options.logFile, "w");
  const child = spawn(
    process.execPath,
    [...(options.nodeArgs ?? []), path.join(root, "server.js")],
    {
      cwd: root,
      env: Object.fromEntries(
        Object.entries<string | undefined>({
          ...process.env,
          ...options.env,
          PORT: String(options.port),
          HOST: "127.0.0.1",
        }).filter(([, value]) => value !== undefined),
      ) as NodeJS.ProcessEnv,
      stdio: ["ignore", out, out],
    },
  );
  fs.closeSync(out);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const log = () => fs.readFileSync(options.logFile, "utf8");
  const pid = child.pid ?? -1;

  const server: RunningServer = {
    url,
    pid,
    cpuSeconds() {
      try {
        const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
        // utime and stime, fields 14 and 15 of stat(5), in clock ticks (100 a second on Linux).
        return (Number(fields[11]) + Number(fields[12])) / 100;
      } catch {
        return null;
      }
    },
    log,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      const forced = setTimeout(() => child.kill("SIGKILL"), 12_000);
      await exited;
      clearTimeout(forced);
    },
  };

  const deadline = Date.now() + (options.startTimeoutMs ?? 30_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      if ((await fetch(`${url}/healthz`)).ok) return server;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  await server.stop();
  throw new Error(`The built server did not answer ${url}/healthz. Its output:\n${log()}`);
}
