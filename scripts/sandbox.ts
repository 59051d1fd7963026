import { parseArgs } from "node:util";
import { DEFAULT_SANDBOX_KEY, startCourierSandbox } from "../sandbox/courier";

/**
 * `npm run sandbox -- [--port 4010] [--key KEY ...] [--allow-missing-key] [--step-ms 20000]
 * [--latency-ms 0] [--webhook-url URL --webhook-secret SECRET] [--quiet]`
 * Environment: SANDBOX_PORT, SANDBOX_API_KEYS (comma separated), SANDBOX_STEP_MS,
 * SANDBOX_WEBHOOK_URL, SANDBOX_WEBHOOK_SECRET.
 */
const { values } = parseArgs({
  options: {
    port: { type: "string" },
    host: { type: "string" },
    key: { type: "string", multiple: true },
    "allow-missing-key": { type: "boolean" },
    "step-ms": { type: "string" },
    "latency-ms": { type: "string" },
    "webhook-url": { type: "string" },
    "webhook-secret": { type: "string" },
    quiet: { type: "boolean" },
  },
});

function number(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === "") return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) {
    console.error(`${name} must be a whole number, not "${value}"`);
    process.exit(2);
  }
  return n;
}

const keys =
  values.key ??
  (process.env.SANDBOX_API_KEYS ?? DEFAULT_SANDBOX_KEY)
    .split(",")
    .map((k) => k.trim())
    .filter(Boolean);
const webhookUrl = values["webhook-url"] ?? process.env.SANDBOX_WEBHOOK_URL;
const webhookSecret = values["webhook-secret"] ?? process.env.SANDBOX_WEBHOOK_SECRET;
if (webhookUrl && !webhookSecret) {
  console.error(
    "A webhook URL needs a secret to sign with: --webhook-secret or SANDBOX_WEBHOOK_SECRET",
  );
  process.exit(2);
}

const sandbox = await startCourierSandbox({
  port: number(values.port ?? process.env.SANDBOX_PORT, 4010, "port"),
  host: values.host ?? "127.0.0.1",
  acceptedKeys: keys,
  allowMissingKey: values["allow-missing-key"] ?? false,
  stepIntervalMs: number(values["step-ms"] ?? process.env.SANDBOX_STEP_MS, 20_000, "step-ms"),
  latencyMs: number(values["latency-ms"], 0, "latency-ms"),
  webhook: webhookUrl && webhookSecret ? { url: webhookUrl, secret: webhookSecret } : undefined,
  log: values.quiet ? undefined : (line) => console.log(line),
});

// The first line is read by tools that start the sandbox on port 0 (the benchmark).
console.log(`Courier sandbox listening on ${sandbox.url}`);
console.log(
  `  ${keys.length} accepted key(s)${values["allow-missing-key"] ? ", requests without a key accepted" : ""}; control API at ${sandbox.url}/__sandbox/ (see sandbox/README.md)`,
);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void sandbox.close().then(() => process.exit(0));
  });
}
