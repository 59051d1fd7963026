import { createHash, timingSafeEqual } from "node:crypto";
import http from "node:http";
import { BlockList, isIP, type AddressInfo } from "node:net";
import { FaultInjector, type FaultRule, type SandboxEndpoint } from "./faults";
import {
  loadMasterData,
  ORDER_STATUSES,
  STATUS_BY_CODE,
  VEHICLE_TYPES,
  type SandboxGovernance,
  type StatusCode,
} from "./master-data";
import {
  findArea,
  isRecorded,
  OrderBook,
  priceOf,
  round3,
  type SandboxException,
  type FailureKind,
  type SandboxOrder,
} from "./orders";
import { kuwaitLocal, parseKuwaitLocal, validateOrder, type FieldError } from "./validation";
import { WebhookSender, type WebhookConfig, type WebhookDelivery } from "./webhooks";

/** The key `npm run sandbox` accepts unless told otherwise. */
export const DEFAULT_SANDBOX_KEY = "sandbox-test-key";

export interface CourierSandboxOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  /** Keys accepted in `Authorization: ApiKey <key>` (default `[DEFAULT_SANDBOX_KEY]`). */
  acceptedKeys?: string[];
  /** Accept requests with no Authorization header at all (a wrong key is still refused). */
  allowMissingKey?: boolean;
  /** Added to every reply. */
  latencyMs?: number;
  /** Orders move one status forward every this many ms; 0 (default) moves them only on `advance`. */
  stepIntervalMs?: number;
  webhook?: WebhookConfig;
  /** Milliseconds since the epoch; for tests that need fixed times. */
  clock?: () => number;
  /** Seeds order ids and probabilistic faults. */
  seed?: number;
  gazetteerPath?: string;
  /** Receives one line per request (method, path, status, time, fault). */
  log?: (line: string) => void;
}

/** One request as the sandbox saw it. Holds no key and no body. */
export interface SandboxLogEntry {
  seq: number;
  at: string;
  method: string;
  path: string;
  query: string;
  endpoint: SandboxEndpoint | null;
  auth: "valid" | "missing" | "invalid";
  /** The status sent, or null when the connection was closed or the reply never went out. */
  status: number | null;
  durationMs: number | null;
  fault: FaultRule["kind"] | null;
}

export interface CourierSandbox {
  url: string;
  port: number;
  close(): Promise<void>;
  requestLog: SandboxLogEntry[];
  faults: FaultInjector;
  orders: ReadonlyMap<string, SandboxOrder>;
  exceptions: readonly SandboxException[];
  governances: SandboxGovernance[];
  /**
   * Moves an order (by id or number), or every unfinished order with `"all"`, one status forward,
   * or with `to` through the courier's own moves up to that one: a failure on its next time out
   * for delivery (`failure`: why, the exception raised), a return after two failed attempts, a
   * cancel before pickup or after a failed attempt. An order that cannot get there is not moved:
   * named, the call throws why; with `"all"` it is left out.
   */
  advance(
    target: string,
    to?: StatusCode,
    failure?: FailureKind,
  ): Array<{ orderId: string; status: StatusCode }>;
  /** Orders move by themselves every `ms` (0: only on `advance`), counted from now. */
  setStepInterval(ms: number): void;
  /** Paused, no order moves by itself; resumed, each waits a whole interval again. */
  setPaused(paused: boolean): void;
  readonly clock: { stepMs: number; paused: boolean };
  webhookDeliveries: readonly WebhookDelivery[];
  flushWebhooks(): Promise<void>;
  /** Points status webhooks somewhere else from now on (null: stop sending them). */
  configureWebhook(config: WebhookConfig | null): void;
  /** Forgets orders, exceptions, faults and the request log. */
  reset(): void;
}

interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

interface HandlerContext {
  params: string[];
  query: URLSearchParams;
  body: unknown;
  customer: string;
  now: number;
  /** When orders created by this request are recorded (the `commitLate` fault); now if absent. */
  recordedAt?: number;
}

interface Route {
  method: "GET" | "POST";
  pattern: RegExp;
  endpoint: SandboxEndpoint;
  handle: (ctx: HandlerContext) => Reply;
}

const BODY_LIMIT = 1024 * 1024;
const ANONYMOUS = "anonymous";

const ok = (results: unknown, headers?: Record<string, string>): Reply => ({
  status: 200,
  body: { responseCode: 200, message: "Success", results },
  headers,
});
const fail = (status: number, message: string, results: unknown = null): Reply => ({
  status,
  body: { responseCode: status, message, results },
});
const invalid = (errors: FieldError[]): Reply =>
  fail(400, `Validation failed: ${errors.map((e) => `${e.field} ${e.message}`).join("; ")}`, {
    errors,
  });

class BadRequest extends Error {}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

// 127.0.0.0/8 and ::1; BlockList also matches the IPv4-mapped forms (::ffff:127.0.0.1).
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet("127.0.0.0", 8, "ipv4");
LOOPBACK.addAddress("::1", "ipv6");

/** Whether a peer address is this machine's loopback: the only peers the control API answers. */
export function isLoopbackAddress(address: string | undefined): boolean {
  const family = address ? isIP(address) : 0;
  if (!address || family === 0) return false;
  return LOOPBACK.check(address, family === 6 ? "ipv6" : "ipv4");
}

/** Starts the courier sandbox: a real HTTP server implementing the whole interface. */
export async function startCourierSandbox(
  options: CourierSandboxOptions = {},
): Promise<CourierSandbox> {
  const clock = options.clock ?? Date.now;
  const governances = loadMasterData(options.gazetteerPath);
  const acceptedKeys = (options.acceptedKeys ?? [DEFAULT_SANDBOX_KEY]).map((k) => Buffer.from(k));
  const faults = new FaultInjector(options.seed ?? 42);
  let webhooks = options.webhook ? new WebhookSender(options.webhook) : undefined;
  const book = new OrderBook(governances, String(options.seed ?? 42), (order, previous) => {
    webhooks?.send({
      orderId: order.orderId,
      orderNumber: order.orderNumber,
      status: order.status,
      previousStatus: previous,
      at: kuwaitLocal(order.updatedAt),
    });
  });
  const requestLog: SandboxLogEntry[] = [];
  const hanging = new Set<() => void>();
  let seq = 0;

  const routes = buildRoutes(governances, book);

  function authenticate(
    header: string | undefined,
  ): { customer: string; auth: SandboxLogEntry["auth"] } | null {
    if (header === undefined)
      return options.allowMissingKey ? { customer: ANONYMOUS, auth: "missing" } : null;
    const match = /^ApiKey (\S+)$/.exec(header);
    if (!match?.[1]) return null;
    const given = Buffer.from(match[1]);
    const known = acceptedKeys.some((k) => k.length === given.length && timingSafeEqual(k, given));
    if (!known) return null;
    return {
      customer: `customer-${createHash("sha256").update(given).digest("hex").slice(0, 12)}`,
      auth: "valid",
    };
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const started = performance.now();
    const url = new URL(req.url ?? "/", "http://sandbox");
    if (url.pathname.startsWith("/__sandbox/")) {
      // Unauthenticated, so never for other machines, even when started with another --host.
      if (!isLoopbackAddress(req.socket.remoteAddress)) {
        req.resume();
        res.writeHead(403, { "content-type": "application/json; charset=utf-8" });
        res.end(JSON.stringify({ error: "The sandbox's control API answers loopback only." }));
        return;
      }
      await control(req, res, url);
      return;
    }
    const header = req.headers.authorization;
    const entry: SandboxLogEntry = {
      seq: ++seq,
      at: new Date(clock()).toISOString(),
      method: req.method ?? "",
      path: url.pathname,
      query: url.search,
      endpoint: null,
      auth: header === undefined ? "missing" : authenticate(header) ? "valid" : "invalid",
      status: null,
      durationMs: null,
      fault: null,
    };
    requestLog.push(entry);
    const finish = (status: number | null) => {
      entry.status = status;
      entry.durationMs = Math.round((performance.now() - started) * 100) / 100;
      options.log?.(
        `${entry.method} ${entry.path} ${status ?? "(closed)"} ${Math.round(entry.durationMs)}ms${entry.fault ? ` [${entry.fault}]` : ""}`,
      );
    };
    const send = (reply: Reply) => {
      if (res.destroyed || res.writableEnded) return;
      const text = JSON.stringify(reply.body);
      res.writeHead(reply.status, {
        "content-type": "application/json; charset=utf-8",
        "content-length": Buffer.byteLength(text),
        ...reply.headers,
      });
      res.end(text);
      finish(reply.status);
    };
    const destroy = () => {
      req.socket.destroy();
      finish(null);
    };

    const matching = routes.filter((r) => r.pattern.test(url.pathname));
    const route = matching.find((r) => r.method === req.method);
    const raw = await readBody(req);
    if (!route) {
      send(
        matching.length > 0
          ? fail(
              405,
              `${req.method} is not allowed here; use ${matching.map((r) => r.method).join(" or ")}`,
            )
          : fail(404, `No endpoint ${req.method} ${url.pathname}`),
      );
      return;
    }
    entry.endpoint = route.endpoint;

    const { latencyMs, fault } = faults.draw(route.endpoint);
    entry.fault = fault?.kind ?? (latencyMs > 0 ? "latency" : null);
    const wait = (options.latencyMs ?? 0) + latencyMs;
    if (wait > 0) await sleep(wait);

    switch (fault?.kind) {
      case "error":
        send(
          fail(
            fault.status ?? 503,
            "The service is temporarily unavailable. Please try again later.",
          ),
        );
        return;
      case "rateLimit":
        send({
          ...fail(429, "Too many requests. Please slow down."),
          headers: { "retry-after": String(fault.retryAfter ?? 1) },
        });
        return;
      case "rejectKey":
        send(fail(401, "The API key is not valid or has been revoked."));
        return;
      case "closeConnection":
        if (!fault.afterCommit) {
          destroy();
          return;
        }
    }

    const who = authenticate(header);
    if (!who) {
      send(
        fail(
          401,
          header === undefined
            ? "Authorization is required: send the header Authorization: ApiKey <your key>."
            : "The API key is missing or not valid. Send Authorization: ApiKey <your key>.",
        ),
      );
      return;
    }

    let reply: Reply;
    if (raw === null) {
      reply = fail(413, `The body is larger than ${BODY_LIMIT} bytes.`);
    } else {
      let body: unknown;
      let parsed = true;
      if (route.method === "POST" && raw.trim() !== "") {
        try {
          body = JSON.parse(raw);
        } catch {
          parsed = false;
        }
      }
      if (!parsed) {
        reply = fail(400, "The body is not valid JSON.");
      } else {
        const params = (route.pattern.exec(url.pathname) ?? []).slice(1);
        const query = new URLSearchParams(url.searchParams);
        if (fault?.kind === "ignorePaging") query.delete("page");
        const now = clock();
        try {
          reply = route.handle({
            params: params.map((p) => decodeURIComponent(p)),
            query,
            body,
            customer: who.customer,
            now,
            ...(fault?.kind === "commitLate"
              ? { recordedAt: now + (fault.commitAfterMs ?? 20_000) }
              : {}),
          });
        } catch (error) {
          if (!(error instanceof BadRequest) && !(error instanceof URIError)) throw error;
          reply = fail(400, error.message);
        }
      }
    }

    switch (fault?.kind) {
      case "ignorePaging": {
        // The first page, as if `page` were not there, and nothing that says how many exist.
        const { "x-total-count": _total, "x-page": _page, ...headers } = reply.headers ?? {};
        send({ ...reply, headers });
        return;
      }
      case "commitLate": {
        // Accepted, recorded later: a gateway's error now, or no answer until the client gives up.
        if (fault.status !== undefined) {
          send(fail(fault.status, "The service did not answer in time. Please try again later."));
          return;
        }
        await hold(res, fault.hangMs);
        if (res.destroyed) finish(null);
        else send(reply);
        return;
      }
      case "commitThenHang": {
        // The work is done; the reply is held back until the client has given up.
        await hold(res, fault.hangMs);
        if (res.destroyed) finish(null);
        else send(reply);
        return;
      }
      case "stallBody": {
        // The work is done; the status, headers and half the body go out, the rest is held back.
        const bytes = Buffer.from(JSON.stringify(reply.body));
        const half = Math.ceil(bytes.length / 2);
        res.writeHead(reply.status, {
          "content-type": "application/json; charset=utf-8",
          "content-length": bytes.length,
          ...reply.headers,
        });
        res.write(bytes.subarray(0, half));
        await hold(res, fault.hangMs);
        if (!res.destroyed) res.end(bytes.subarray(half));
        finish(reply.status);
        return;
      }
      case "malformedJson": {
        const text = JSON.stringify(reply.body).slice(0, 40);
        res.writeHead(200, { "content-type": "application/json; charset=utf-8" });
        res.end(`${text}<!-- upstream error -->`);
        finish(200);
        return;
      }
      case "closeConnection":
        destroy();
        return;
    }
    send(reply);
  }

  // Until the client closes the connection, `hangMs` passes, or the sandbox closes.
  function hold(res: http.ServerResponse, hangMs: number | undefined): Promise<void> {
    return new Promise<void>((resolve) => {
      const release = () => {
        hanging.delete(release);
        resolve();
      };
      hanging.add(release);
      res.on("close", release);
      if (hangMs !== undefined) setTimeout(release, hangMs).unref();
    });
  }

  async function control(req: http.IncomingMessage, res: http.ServerResponse, url: URL) {
    const raw = (await readBody(req)) ?? "";
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
      res.end(JSON.stringify(value));
    };
    try {
      const body = raw.trim() ? (JSON.parse(raw) as unknown) : {};
      const route = `${req.method} ${url.pathname}`;
      switch (route) {
        case "GET /__sandbox/log":
          return json(200, requestLog);
        case "GET /__sandbox/orders":
          return json(
            200,
            [...book.orders.values()].map((o) => book.view(o)),
          );
        case "GET /__sandbox/faults":
          return json(200, faults.list());
        case "POST /__sandbox/faults": {
          const rules = (Array.isArray(body) ? body : [body]) as FaultRule[];
          return json(200, { ids: rules.map((r) => faults.add(r)) });
        }
        case "DELETE /__sandbox/faults":
          faults.clear();
          return json(200, { cleared: true });
        case "POST /__sandbox/advance": {
          const {
            target = "all",
            to,
            failure,
          } = body as { target?: string; to?: StatusCode; failure?: FailureKind };
          if (failure !== undefined && failure !== "no_answer" && failure !== "address_problem")
            return json(400, { error: "failure is no_answer or address_problem." });
          return json(200, advance(target, to, failure));
        }
        case "GET /__sandbox/clock":
          return json(200, clockState());
        case "POST /__sandbox/clock": {
          const { stepMs, paused } = body as { stepMs?: unknown; paused?: unknown };
          if (stepMs !== undefined && !(Number.isInteger(stepMs) && (stepMs as number) >= 0))
            return json(400, {
              error: "stepMs is a whole number of milliseconds (0: only on advance).",
            });
          if (paused !== undefined && typeof paused !== "boolean")
            return json(400, { error: "paused is true or false." });
          if (stepMs !== undefined) setStepInterval(stepMs as number);
          if (paused !== undefined) setPaused(paused);
          return json(200, clockState());
        }
        case "GET /__sandbox/webhooks":
          return json(200, webhooks?.deliveries ?? []);
        case "POST /__sandbox/webhook": {
          const { url, secret } = body as { url?: unknown; secret?: unknown };
          if (url === null) {
            webhooks = undefined;
            return json(200, { webhook: null });
          }
          if (typeof url !== "string" || typeof secret !== "string" || !secret)
            return json(400, { error: "Send { url, secret } (or { url: null } to stop)." });
          webhooks = new WebhookSender({ url, secret });
          return json(200, { webhook: { url } });
        }
        case "POST /__sandbox/reset":
          reset();
          return json(200, { reset: true });
        default:
          return json(404, { error: `No control endpoint ${route}` });
      }
    } catch (error) {
      return json(400, { error: error instanceof Error ? error.message : String(error) });
    }
  }

  function advance(target: string, to?: StatusCode, failure?: FailureKind) {
    const now = clock();
    if (to !== undefined && !STATUS_BY_CODE.has(to)) throw new Error(`Unknown status ${to}`);
    const chosen =
      target === "all"
        ? [...book.orders.values()].filter((o) => !STATUS_BY_CODE.get(o.status)?.terminal)
        : [...book.orders.values()].filter((o) => o.orderId === target || o.orderNumber === target);
    if (target !== "all" && chosen.length === 0) throw new Error(`No sandbox order ${target}`);
    if (to === undefined) {
      return chosen.map((order) => {
        book.advance(order, now);
        return { orderId: order.orderId, status: order.status };
      });
    }
    // Each order on the course that gets it there by the courier's own moves, judged before any
    // moves: one that cannot get there is left as it was (named: refused, with why).
    const courses = chosen.map((order) => ({ order, plan: book.courseTo(order, to, failure) }));
    const refused = courses.find((c) => !c.plan.ok);
    if (target !== "all" && refused && !refused.plan.ok) throw new Error(refused.plan.why);
    const moved: Array<{ orderId: string; status: StatusCode }> = [];
    for (const { order, plan } of courses) {
      if (!plan.ok) continue;
      order.scenario = plan.course.scenario;
      if (plan.course.nextFailure) order.nextFailure = plan.course.nextFailure;
      else delete order.nextFailure;
      if (to === "cancelled" && order.status !== "cancelled") {
        book.setStatus(order, "cancelled", now, "Cancelled by the courier");
      }
      while (order.status !== to && book.advance(order, now) !== null);
      moved.push({ orderId: order.orderId, status: order.status });
    }
    return moved;
  }

  function reset() {
    book.orders.clear();
    book.exceptions.length = 0;
    requestLog.length = 0;
    faults.clear();
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      // A bug in the sandbox: answer 500 like a real server would, and say why.
      if (!res.headersSent && !res.destroyed) {
        const message = error instanceof Error ? error.message : String(error);
        res.writeHead(500, { "content-type": "application/json; charset=utf-8" });
        res.end(
          JSON.stringify({
            responseCode: 500,
            message: `Sandbox error: ${message}`,
            results: null,
          }),
        );
      }
    });
  });
  server.keepAliveTimeout = 5000;

  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  // Orders move by themselves every `interval` ms unless paused; each waits a whole interval from
  // its last move or from the last resume or change of speed, whichever is later.
  let stepper: NodeJS.Timeout | undefined;
  let interval = options.stepIntervalMs ?? 0;
  let paused = false;
  let waitFrom = 0;
  function schedule() {
    if (stepper) clearInterval(stepper);
    stepper = undefined;
    if (interval <= 0 || paused) return;
    stepper = setInterval(
      () => {
        const now = clock();
        for (const order of book.orders.values()) {
          if (now - Math.max(order.updatedAt, waitFrom) >= interval) book.advance(order, now);
        }
      },
      Math.max(20, Math.floor(interval / 4)),
    );
    stepper.unref();
  }
  function setStepInterval(ms: number) {
    interval = ms;
    waitFrom = clock();
    schedule();
  }
  function setPaused(value: boolean) {
    if (paused && !value) waitFrom = clock();
    paused = value;
    schedule();
  }
  const clockState = () => ({ stepMs: interval, paused });
  schedule();

  return {
    url: `http://${host}:${port}`,
    port,
    requestLog,
    faults,
    orders: book.orders,
    exceptions: book.exceptions,
    governances,
    advance,
    setStepInterval,
    setPaused,
    get clock() {
      return clockState();
    },
    get webhookDeliveries() {
      return webhooks?.deliveries ?? [];
    },
    flushWebhooks: () => webhooks?.flush() ?? Promise.resolve(),
    configureWebhook: (config) => {
      webhooks = config ? new WebhookSender(config) : undefined;
    },
    reset,
    close: async () => {
      if (stepper) clearInterval(stepper);
      for (const release of [...hanging]) release();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

// The body as text, or null when it is larger than the limit.
function readBody(req: http.IncomingMessage): Promise<string | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > BODY_LIMIT) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on("end", () => resolve(tooLarge ? null : Buffer.concat(chunks).toString("utf8")));
    req.on("error", () => resolve(null));
    req.on("close", () => resolve(tooLarge ? null : Buffer.concat(chunks).toString("utf8")));
  });
}

function language(value: string | undefined): "ar" | "en" {
  const lang = value?.toLowerCase();
  if (lang !== "ar" && lang !== "en")
    throw new BadRequest(`Unsupported language "${value}"; use ar or en.`);
  return lang;
}

function intParam(
  query: URLSearchParams,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const raw = query.get(name);
  if (raw === null || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new BadRequest(`${name} must be a whole number from ${min} to ${max}.`);
  }
  return value;
}

// A `YYYY-MM-DD` query parameter as the instant its Kuwait day starts.
function dayParam(query: URLSearchParams, name: string): number | undefined {
  const raw = query.get(name);
  if (raw === null || raw === "") return undefined;
  const at = /^\d{4}-\d{2}-\d{2}$/.test(raw) ? parseKuwaitLocal(raw) : null;
  if (at === null) throw new BadRequest(`${name} must be a date written YYYY-MM-DD.`);
  return at;
}

const DAY = 24 * 3600_000;

function dateRange(query: URLSearchParams): {
  from: number | undefined;
  until: number | undefined;
} {
  const from = dayParam(query, "from");
  const to = dayParam(query, "to");
  if (from !== undefined && to !== undefined && from > to)
    throw new BadRequest("from must not be after to.");
  return { from, until: to === undefined ? undefined : to + DAY };
}

function paginate<T>(items: T[], query: URLSearchParams): Reply {
  const page = intParam(query, "page", 1, 1, 100_000);
  const pageSize = intParam(query, "pageSize", 20, 1, 100);
  const slice = items.slice((page - 1) * pageSize, page * pageSize);
  return ok(slice, {
    "x-total-count": String(items.length),
    "x-page": String(page),
    "x-page-size": String(pageSize),
  });
}

function buildRoutes(governances: SandboxGovernance[], book: OrderBook): Route[] {
  const ownOrder = (ctx: HandlerContext): SandboxOrder | Reply => {
    const id = ctx.params[0] ?? "";
    const order = book.orders.get(id);
    // Another customer's order, or one not recorded yet, does not exist as far as this key can tell.
    if (!order || order.customer !== ctx.customer || !isRecorded(order, ctx.now))
      return fail(404, `Order ${id} was not found.`);
    return order;
  };
  const isReply = (v: SandboxOrder | Reply): v is Reply => "status" in v && "body" in v;

  const priceAddress = (body: Record<string, unknown>, field: string, errors: FieldError[]) => {
    const address = body[field];
    if (typeof address !== "object" || address === null) {
      errors.push({ field, message: "is required" });
      return undefined;
    }
    const { governanceId, areaId } = address as Record<string, unknown>;
    if (typeof governanceId !== "number" || typeof areaId !== "number") {
      errors.push({ field, message: "needs integer governanceId and areaId" });
      return undefined;
    }
    const area = findArea(governances, governanceId, areaId);
    if (!area)
      errors.push({
        field: `${field}.areaId`,
        message: `${areaId} is not an area of governance ${governanceId}`,
      });
    return area;
  };

  return [
    {
      method: "POST",
      pattern: /^\/api\/orders\/calculate-price-api$/i,
      endpoint: "calculatePrice",
      handle: ({ body }) => {
        if (typeof body !== "object" || body === null)
          return invalid([{ field: "body", message: "must be a JSON object" }]);
        const b = body as Record<string, unknown>;
        const errors: FieldError[] = [];
        const pickup = priceAddress(b, "pickupAddress", errors);
        const delivery = priceAddress(b, "deliveryAddress", errors);
        const pkg = b.packageDetails as Record<string, unknown> | undefined;
        const weight = pkg?.weight ?? 1;
        if (typeof weight !== "number" || !(weight > 0)) {
          errors.push({
            field: "packageDetails.weight",
            message: "must be a number of kilograms above 0",
          });
        }
        const vehicleTypeId = b.vehicleTypeId;
        const vehicle = VEHICLE_TYPES.find((v) => v.vehicleTypeId === vehicleTypeId);
        if (vehicleTypeId !== undefined && !vehicle) {
          errors.push({
            field: "vehicleTypeId",
            message: `${String(vehicleTypeId)} is not a vehicle type`,
          });
        } else if (vehicle && typeof weight === "number" && weight > vehicle.maxWeightKg) {
          errors.push({
            field: "packageDetails.weight",
            message: `is more than a ${vehicle.nameEn.toLowerCase()} carries (${vehicle.maxWeightKg} kg)`,
          });
        }
        if (errors.length > 0 || !pickup || !delivery) return invalid(errors);
        const { price, ...breakdown } = priceOf(
          pickup,
          delivery,
          Number(weight),
          vehicle?.vehicleTypeId,
        );
        return ok({ price, currency: "KWD", breakdown });
      },
    },
    {
      method: "POST",
      pattern: /^\/api\/orders\/create$/i,
      endpoint: "createOrder",
      handle: ({ body, customer, now, recordedAt }) => {
        const checked = validateOrder(body, governances, now);
        if (!checked.ok) return invalid(checked.errors);
        const order = book.create(checked.order, customer, now, recordedAt);
        return ok({
          orderId: order.orderId,
          orderNumber: order.orderNumber,
          status: order.status,
          createdAt: kuwaitLocal(order.createdAt),
        });
      },
    },
    {
      method: "POST",
      pattern: /^\/api\/orders\/create-bulk$/i,
      endpoint: "createBulk",
      handle: ({ body, customer, now, recordedAt }) => {
        const list = Array.isArray(body)
          ? body
          : (body as { orders?: unknown } | undefined)?.orders;
        if (!Array.isArray(list)) {
          return invalid([
            {
              field: "orders",
              message: "must be a list of orders (a JSON array, or { orders: [...] })",
            },
          ]);
        }
        if (list.length === 0 || list.length > 50) {
          return invalid([{ field: "orders", message: "must hold from 1 to 50 orders" }]);
        }
        return ok(
          list.map((item, index) => {
            const checked = validateOrder(item, governances, now);
            if (!checked.ok) {
              return {
                index,
                success: false,
                message: checked.errors.map((e) => `${e.field} ${e.message}`).join("; "),
                errors: checked.errors,
              };
            }
            const order = book.create(checked.order, customer, now, recordedAt);
            return {
              index,
              success: true,
              orderId: order.orderId,
              orderNumber: order.orderNumber,
              status: order.status,
              createdAt: kuwaitLocal(order.createdAt),
            };
          }),
        );
      },
    },
    {
      method: "GET",
      pattern: /^\/api\/orders\/customer\/history$/i,
      endpoint: "history",
      handle: ({ query, customer, now }) => {
        const { from, until } = dateRange(query);
        const statuses = query
          .get("status")
          ?.split(",")
          .map((s) => s.trim())
          .filter(Boolean);
        for (const status of statuses ?? []) {
          if (!STATUS_BY_CODE.has(status as StatusCode))
            throw new BadRequest(`Unknown status "${status}".`);
        }
        const search = query.get("search")?.trim().toLowerCase();
        const found = [...book.orders.values()]
          .filter((o) => o.customer === customer && isRecorded(o, now))
          .filter(
            (o) =>
              (from === undefined || o.createdAt >= from) &&
              (until === undefined || o.createdAt < until),
          )
          .filter((o) => !statuses || statuses.includes(o.status))
          .filter((o) => {
            if (!search) return true;
            const haystack = [
              o.request.notes,
              o.request.pickupAddress.notes,
              o.request.deliveryAddress.notes,
              o.orderNumber,
              o.orderId,
            ];
            return haystack.some((text) => text.toLowerCase().includes(search));
          })
          .sort((a, b) => b.createdAt - a.createdAt || b.orderNumber.localeCompare(a.orderNumber));
        return paginate(
          found.map((o) => book.view(o)),
          query,
        );
      },
    },
    {
      method: "GET",
      pattern: /^\/api\/orders\/([^/]+)\/track$/i,
      endpoint: "track",
      handle: (ctx) => {
        const order = ownOrder(ctx);
        return isReply(order) ? order : ok(book.tracking(order));
      },
    },
    {
      method: "POST",
      pattern: /^\/api\/orders\/([^/]+)\/cancel$/i,
      endpoint: "cancel",
      handle: (ctx) => {
        const order = ownOrder(ctx);
        if (isReply(order)) return order;
        const reason = (ctx.body as { reason?: unknown } | undefined)?.reason;
        const result = book.cancel(
          order,
          ctx.now,
          typeof reason === "string" ? reason.slice(0, 500) : undefined,
        );
        return result.ok ? ok(book.view(order)) : fail(409, result.message);
      },
    },
    {
      method: "GET",
      pattern: /^\/api\/orders\/([^/]+)$/i,
      endpoint: "getOrder",
      handle: (ctx) => {
        const order = ownOrder(ctx);
        return isReply(order) ? order : ok(book.view(order));
      },
    },
    {
      method: "GET",
      pattern: /^\/api\/master\/governances\/([^/]+)$/i,
      endpoint: "governances",
      handle: ({ params }) => {
        const lang = language(params[0]);
        return ok(
          governances.map((g) => ({
            governanceId: g.governanceId,
            governanceName: lang === "ar" ? g.nameAr : g.nameEn,
          })),
        );
      },
    },
    {
      method: "GET",
      pattern: /^\/api\/master\/areas\/([^/]+)\/([^/]+)$/i,
      endpoint: "areas",
      handle: ({ params }) => {
        const lang = language(params[1]);
        const id = Number(params[0]);
        const governance = governances.find((g) => g.governanceId === id);
        if (!Number.isInteger(id) || !governance)
          return fail(404, `Governance ${params[0]} was not found.`);
        return ok(
          governance.areas.map((a) => ({
            areaId: a.areaId,
            areaName: lang === "ar" ? a.nameAr : a.nameEn,
            governanceId: a.governanceId,
          })),
        );
      },
    },
    {
      method: "GET",
      pattern: /^\/api\/master\/vehicle-types\/([^/]+)$/i,
      endpoint: "vehicleTypes",
      handle: ({ params }) => {
        const lang = language(params[0]);
        return ok(
          VEHICLE_TYPES.map((v) => ({
            vehicleTypeId: v.vehicleTypeId,
            vehicleTypeName: lang === "ar" ? v.nameAr : v.nameEn,
            maxWeightKg: v.maxWeightKg,
          })),
        );
      },
    },
    {
      method: "GET",
      pattern: /^\/api\/master\/order-status\/([^/]+)$/i,
      endpoint: "orderStatuses",
      handle: ({ params }) => {
        const lang = language(params[0]);
        return ok(
          ORDER_STATUSES.map((s) => ({
            statusId: s.statusId,
            statusCode: s.statusCode,
            statusName: lang === "ar" ? s.nameAr : s.nameEn,
            isFinal: s.terminal,
          })),
        );
      },
    },
    {
      method: "GET",
      pattern: /^\/api\/exceptions\/customer$/i,
      endpoint: "exceptions",
      handle: ({ query, customer }) => {
        const { from, until } = dateRange(query);
        const orderId = query.get("orderId");
        const found = book.exceptions
          .filter((e) => e.customer === customer)
          .filter(
            (e) =>
              (from === undefined || e.createdAt >= from) &&
              (until === undefined || e.createdAt < until),
          )
          .filter((e) => !orderId || e.orderId === orderId || e.orderNumber === orderId)
          .sort((a, b) => b.createdAt - a.createdAt || b.exceptionId - a.exceptionId)
          .map(({ customer: _customer, createdAt, ...e }) => ({
            ...e,
            createdAt: kuwaitLocal(createdAt),
          }));
        return paginate(found, query);
      },
    },
    {
      method: "GET",
      pattern: /^\/api\/reports\/corporate-orders$/i,
      endpoint: "corporateOrdersReport",
      handle: ({ query, customer, now }) => {
        const range = dateRange(query);
        const until = range.until ?? (parseKuwaitLocal(kuwaitLocal(now).slice(0, 10)) ?? now) + DAY;
        const from = range.from ?? until - 30 * DAY;
        const orders = [...book.orders.values()].filter(
          (o) =>
            o.customer === customer &&
            isRecorded(o, now) &&
            o.createdAt >= from &&
            o.createdAt < until,
        );
        const byStatus = Object.fromEntries(
          ORDER_STATUSES.map((s) => [
            s.statusCode,
            orders.filter((o) => o.status === s.statusCode).length,
          ]),
        );
        const live = orders.filter((o) => o.status !== "cancelled");
        return ok({
          from: kuwaitLocal(from).slice(0, 10),
          to: kuwaitLocal(until - DAY).slice(0, 10),
          totalOrders: orders.length,
          byStatus,
          deliveredCount: byStatus.delivered ?? 0,
          cancelledCount: byStatus.cancelled ?? 0,
          totalDeliveryFees: round3(live.reduce((sum, o) => sum + o.price, 0)),
          totalCodAmount: round3(
            live
              .filter((o) => o.request.paymentMethod === "cod")
              .reduce((sum, o) => sum + o.request.packageDetails.value, 0),
          ),
          currency: "KWD",
        });
      },
    },
  ];
}
