import fs from "node:fs";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import {
  createCourierClient,
  CourierValidationError,
  ENDPOINTS,
  fetchMasterData,
  isCourierError,
  type CourierClient,
  type CourierLanguage,
} from "../app/courier";

const USAGE = `Usage: npm run courier -- [options] <command> [arguments]

Commands:
  ping                         count the governances the key can read (and time it)
  master-data                  governances and areas counts, as "Test connection" does
  governances                  list governances
  areas <governanceId>         list the areas of a governance
  statuses                     list order statuses
  vehicle-types                list vehicle types
  get <orderId>                show one order
  track <orderId>              show an order's tracking
  cancel <orderId>             cancel an order (never retried) [--reason TEXT]
  history                      order history [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--search TEXT]
                               [--status CODE] [--page N] [--page-size N]
  price --file body.json       calculate a price
  create --file body.json      create one order from a wire-format body (validated first; never retried)
  bulk --file orders.json      create several orders from a JSON array (never retried)
  exceptions                   the customer's exceptions [--from] [--to] [--order-id ID]
  report                       the corporate orders report [--from] [--to]

Options:
  --base-url URL   courier base URL (default COURIER_BASE_URL, else COURIER_SANDBOX_URL, else
                   http://127.0.0.1:4010)
  --key KEY        API key (default COURIER_API_KEY; prefer the variable: arguments show in ps)
  --lang ar|en     language of master data (default ar)
  --timeout MS     time limit per attempt (default 15000)
  --verbose        print each attempt and error details on stderr

The result is printed as JSON on stdout. Exit codes: 0 success, 1 the courier call failed,
2 usage error, 3 the outcome is unknown (a create or cancel may have happened: check history).`;

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Record<string, string | undefined>;
  fetch?: typeof fetch;
}

class UsageError extends Error {}

const OPTIONS = {
  "base-url": { type: "string" },
  key: { type: "string" },
  lang: { type: "string" },
  timeout: { type: "string" },
  verbose: { type: "boolean" },
  help: { type: "boolean", short: "h" },
  file: { type: "string" },
  reason: { type: "string" },
  from: { type: "string" },
  to: { type: "string" },
  search: { type: "string" },
  status: { type: "string" },
  page: { type: "string" },
  "page-size": { type: "string" },
  "order-id": { type: "string" },
} as const;

type Values = ReturnType<
  typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>
>["values"];

function wholeNumber(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`${name} must be a whole number, not "${value}"`);
  return Number(value);
}

function readJsonFile(path: string | undefined): unknown {
  if (!path) throw new UsageError("this command needs --file <body.json>");
  let text: string;
  try {
    text = fs.readFileSync(path, "utf8");
  } catch {
    throw new UsageError(`cannot read ${path}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new UsageError(`${path} is not valid JSON`);
  }
}

function argument(args: string[], name: string): string {
  const value = args[0];
  if (value === undefined) throw new UsageError(`this command needs <${name}>`);
  if (args.length > 1) throw new UsageError(`unexpected arguments: ${args.slice(1).join(" ")}`);
  return value;
}

async function runCommand(
  client: CourierClient,
  command: string,
  args: string[],
  v: Values,
): Promise<unknown> {
  const lang = (v.lang ?? "ar") as CourierLanguage;
  const noArgs = () => {
    if (args.length > 0) throw new UsageError(`unexpected arguments: ${args.join(" ")}`);
  };
  switch (command) {
    case "ping": {
      noArgs();
      const started = performance.now();
      const governances = await client.governances(lang);
      return {
        ok: true,
        governances: governances.length,
        ms: Math.round(performance.now() - started),
      };
    }
    case "master-data": {
      noArgs();
      const data = await fetchMasterData(client, { lang });
      return { governances: data.governances.length, areas: data.areas.length };
    }
    case "governances":
      noArgs();
      return client.governances(lang);
    case "areas": {
      const id = argument(args, "governanceId");
      if (!/^\d+$/.test(id))
        throw new UsageError(`governanceId must be a whole number, not "${id}"`);
      return client.areas(Number(id), lang);
    }
    case "statuses":
      noArgs();
      return client.orderStatuses(lang);
    case "vehicle-types":
      noArgs();
      return client.vehicleTypes(lang);
    case "get":
      return client.getOrder(argument(args, "orderId"));
    case "track":
      return client.track(argument(args, "orderId"));
    case "cancel":
      return client.cancel(argument(args, "orderId"), v.reason ? { reason: v.reason } : undefined);
    case "history":
      noArgs();
      return client.history({
        from: v.from,
        to: v.to,
        search: v.search,
        status: v.status,
        page: wholeNumber(v.page, "--page"),
        pageSize: wholeNumber(v["page-size"], "--page-size"),
      });
    case "price":
      noArgs();
      return client.calculatePrice(readJsonFile(v.file) as never);
    case "create":
      noArgs();
      return client.createOrder(readJsonFile(v.file) as never);
    case "bulk": {
      noArgs();
      const orders = readJsonFile(v.file);
      if (!Array.isArray(orders))
        throw new UsageError("the bulk file must hold a JSON array of orders");
      return client.createBulk(orders as never);
    }
    case "exceptions":
      noArgs();
      return client.exceptions({ from: v.from, to: v.to, orderId: v["order-id"] });
    case "report":
      noArgs();
      return client.corporateOrdersReport({ from: v.from, to: v.to });
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

/** Runs the command line; returns the exit code. */
export async function runCourierCli(argv: string[], io: CliIo): Promise<number> {
  let client: CourierClient;
  let command: string;
  let args: string[];
  let values: Values;
  try {
    const parsed = parseArgs({
      args: argv,
      options: OPTIONS,
      allowPositionals: true,
      strict: true,
    });
    values = parsed.values;
    if (values.help) {
      io.stdout(USAGE);
      return 0;
    }
    const [first, ...rest] = parsed.positionals;
    if (!first) throw new UsageError("no command given");
    command = first;
    args = rest;
    if (values.lang !== undefined && values.lang !== "ar" && values.lang !== "en") {
      throw new UsageError(`--lang must be ar or en, not "${values.lang}"`);
    }
    const baseUrl =
      values["base-url"] ??
      io.env.COURIER_BASE_URL ??
      io.env.COURIER_SANDBOX_URL ??
      "http://127.0.0.1:4010";
    const apiKey = values.key ?? io.env.COURIER_API_KEY ?? "";
    if (!apiKey) io.stderr("No API key (COURIER_API_KEY or --key): sending requests without one.");
    try {
      client = createCourierClient({
        baseUrl,
        apiKey,
        timeoutMs: wholeNumber(values.timeout, "--timeout"),
        fetch: io.fetch,
        onEvent: values.verbose
          ? (e) =>
              io.stderr(
                `${e.method} ${e.path} attempt ${e.attempt}: ${e.status ?? "-"} ${e.result}${e.error ? ` (${e.error})` : ""} ${e.durationMs} ms${e.retryInMs !== undefined ? `, retry in ${e.retryInMs} ms` : ""}`,
              )
          : undefined,
      });
    } catch (error) {
      throw new UsageError(error instanceof Error ? error.message : String(error));
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    io.stderr(`${message}\n\n${USAGE}`);
    return 2;
  }

  try {
    const result = await runCommand(client, command, args, values);
    io.stdout(JSON.stringify(result, null, 2));
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`${error.message}\n\n${USAGE}`);
      return 2;
    }
    if (!isCourierError(error)) throw error;
    io.stderr(error.message);
    if (error instanceof CourierValidationError && error.fieldErrors.length > 3) {
      for (const fe of error.fieldErrors) io.stderr(`  ${fe.field}: ${fe.message}`);
    }
    if (values.verbose) io.stderr(JSON.stringify(error.toJSON(), null, 2));
    return error.outcome === "unknown" && ENDPOINTS[error.endpoint].sideEffects ? 3 : 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const code = await runCourierCli(process.argv.slice(2), {
    stdout: (text) => console.log(text),
    stderr: (text) => console.error(text),
    env: process.env,
  });
  process.exitCode = code;
}
