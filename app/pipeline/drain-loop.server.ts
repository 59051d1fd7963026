/**
 * The loop that runs the delivery worker and the tracking sync in a process (ADR 0003): a pass
 * every few seconds, one at once when kicked, and more passes back to back while they find work,
 * so a burst drains without waiting for the timer. A kick during a pass asks for one more after
 * it. Stopping lets the pass under way finish the rows it leased (never left half-sent).
 */
export type LoopName = "delivery worker" | "tracking sync" | "shopper asks" | "checkout rates";

interface DrainLoop {
  timer: NodeJS.Timeout;
  running: boolean;
  again: boolean;
  stopping: boolean;
  /** Settles when the pass under way ends. */
  current: Promise<void> | null;
  /** One pass; returns how many rows it handled (0: nothing was due). */
  runPass: () => Promise<number>;
  beforeDrain?: (stopping: () => boolean) => Promise<void>;
}

declare global {
  var __drainLoops: Partial<Record<LoopName, DrainLoop>> | undefined;
}

const loops = () => (globalThis.__drainLoops ??= {});

/** Whether the loop runs in this process already. */
export function isLooping(name: LoopName): boolean {
  return loops()[name] !== undefined;
}

/** Starts the named loop, unless it runs already. */
export function startLoop(
  name: LoopName,
  runPass: () => Promise<number>,
  intervalMs: number,
  /** Run once at the start of each drain, before its passes (the worker's fulfillment check). */
  { beforeDrain }: { beforeDrain?: (stopping: () => boolean) => Promise<void> } = {},
) {
  if (isLooping(name)) return;
  const loop: DrainLoop = {
    timer: setInterval(() => void pass(name, loop), intervalMs),
    running: false,
    again: false,
    stopping: false,
    current: null,
    runPass,
    beforeDrain,
  };
  loop.timer.unref();
  loops()[name] = loop;
}

function pass(name: LoopName, loop: DrainLoop): Promise<void> {
  if (loop.stopping) return Promise.resolve();
  if (loop.running) {
    loop.again = true;
    return loop.current ?? Promise.resolve();
  }
  loop.current = drain(name, loop);
  return loop.current;
}

async function drain(name: LoopName, loop: DrainLoop) {
  loop.running = true;
  try {
    await loop.beforeDrain?.(() => loop.stopping);
    do {
      loop.again = false;
      // Each pass ends with a turn of the event loop: SQLite answers through promises that settle
      // without one, so back-to-back passes would otherwise keep HTTP requests from being served.
      while (!loop.stopping && (await loop.runPass()) > 0) {
        loop.again = false;
        await new Promise((resolve) => setImmediate(resolve));
      }
    } while (loop.again && !loop.stopping);
  } catch (error) {
    const what = {
      "delivery worker": "Delivery worker",
      "tracking sync": "Tracking sync",
      "shopper asks": "Shopper asks",
      "checkout rates": "Checkout rates",
    }[name];
    console.error(`${what} pass failed:`, error instanceof Error ? error.message : "unknown error");
  } finally {
    loop.running = false;
    loop.current = null;
  }
}

/** A pass right away (new work was recorded, or a push asked for a look sooner). */
export function kickLoop(name: LoopName): void {
  const loop = loops()[name];
  if (loop) setImmediate(() => void pass(name, loop));
}

/** Stops the loop: no new pass starts; settles when the pass under way has ended. */
export async function stopLoop(name: LoopName): Promise<void> {
  const loop = loops()[name];
  delete loops()[name];
  if (!loop) return;
  clearInterval(loop.timer);
  loop.stopping = true;
  await loop.current;
}

/** New work for the delivery worker: a pass at once, if it runs in this process. */
export const kickDeliveryWorker = () => kickLoop("delivery worker");

/** A push asked for a look sooner: a tracking sync pass at once, if it runs in this process. */
export const kickTrackingSync = () => kickLoop("tracking sync");
