import http from "node:http";

/**
 * Load at a fixed rate, open loop: request i is due at start + i / rate whatever the earlier ones
 * are doing, and its latency runs from that due time, so time spent queued (in this process, on
 * a socket, in the server) counts. autocannon's `overallRate` paces its connections and times a
 * request from when a connection was free to send it: a slow server then receives fewer requests
 * and its queueing is not measured (coordinated omission). Keep-alive sockets, as many as the
 * requests in flight need.
 */

export interface OpenLoopRequest {
  path: string;
  headers: Record<string, string>;
  body: string;
}

export interface OpenLoopFigures {
  /** Requests due (rate × seconds). */
  sent: number;
  /** Latency of each answered request, from its due time, in ms. */
  latenciesMs: number[];
  /** No answer: refused connection, reset, or no answer within the timeout. */
  transportErrors: number;
  /** The transport errors by code ("ECONNRESET", "timeout", …). */
  transportProblems: Map<string, number>;
  maxInFlight: number;
  /** How late this process sent a request at worst (its own event loop's delay). */
  maxSendDelayMs: number;
}

export async function openLoop(options: {
  url: string;
  rate: number;
  seconds: number;
  request: (i: number) => OpenLoopRequest;
  onAnswer?: (i: number, status: number, body: string) => void;
  timeoutMs?: number;
}): Promise<OpenLoopFigures> {
  const target = new URL(options.url);
  // Idle sockets closed here before the server's keep-alive timeout (5 s) closes them: a request
  // sent on a socket the server is closing fails without the server ever seeing it.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1_024, timeout: 4_000 });
  const total = Math.round(options.rate * options.seconds);
  const interval = 1_000 / options.rate;
  const figures: OpenLoopFigures = {
    sent: total,
    latenciesMs: [],
    transportErrors: 0,
    transportProblems: new Map(),
    maxInFlight: 0,
    maxSendDelayMs: 0,
  };
  let inFlight = 0;
  const start = performance.now() + 10;
  await new Promise<void>((resolve) => {
    let settled = 0;
    let next = 0;
    const finish = () => {
      inFlight -= 1;
      settled += 1;
      if (settled === total) resolve();
    };
    const send = (i: number, due: number) => {
      const { path, headers, body } = options.request(i);
      let done = false;
      const fail = (error: NodeJS.ErrnoException) => {
        if (done) return;
        done = true;
        figures.transportErrors += 1;
        const code = error.code ?? error.message;
        figures.transportProblems.set(code, (figures.transportProblems.get(code) ?? 0) + 1);
        finish();
      };
      const req = http.request(
        {
          host: target.hostname,
          port: target.port,
          path,
          method: "POST",
          agent,
          headers: { ...headers, "Content-Length": String(Buffer.byteLength(body)) },
          timeout: options.timeoutMs ?? 10_000,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("error", fail);
          res.on("end", () => {
            if (done) return;
            done = true;
            figures.latenciesMs.push(performance.now() - due);
            options.onAnswer?.(i, res.statusCode ?? 0, Buffer.concat(chunks).toString("utf8"));
            finish();
          });
        },
      );
      req.on("timeout", () =>
        req.destroy(Object.assign(new Error("timeout"), { code: "timeout" })),
      );
      req.on("error", fail);
      req.end(body);
      inFlight += 1;
      figures.maxInFlight = Math.max(figures.maxInFlight, inFlight);
    };
    const tick = () => {
      const now = performance.now();
      while (next < total && start + next * interval <= now) {
        const due = start + next * interval;
        figures.maxSendDelayMs = Math.max(figures.maxSendDelayMs, now - due);
        send(next, due);
        next += 1;
      }
      if (next < total) setTimeout(tick, Math.max(0, start + next * interval - performance.now()));
    };
    if (total === 0) resolve();
    else setTimeout(tick, 10);
  });
  agent.destroy();
  return figures;
}
