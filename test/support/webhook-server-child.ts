/**
 * The app's webhook intake and health check in a node process of its own, served as server.js
 * serves them (Express, the request body read first, the route's own action), for faults that
 * must hit a real process: a database dropping its connections, a locked SQLite file. Prints
 * "ready <port>" once it listens. The environment (DATABASE_URL, secrets) comes from the parent.
 */
import express from "express";
import { readBodies } from "../../server/body-limit.js";
import {
  answerOf,
  databaseBusyResponse,
  databaseWasBusy,
  requestScope,
} from "../../server/database-busy.js";
import { sendWebResponse, webRequest } from "../../server/web-request.js";

const { action: fulfillmentsCreate } =
  await import("../../app/routes/webhooks.fulfillments.create");
const { loader: healthz } = await import("../../app/routes/healthz");

type Handler = (args: { request: Request; params: object; context: object }) => Promise<Response>;

function route(handler: Handler): express.RequestHandler {
  return async (req, res, next) => {
    try {
      let response: Response;
      try {
        response = await handler({ request: webRequest(req, res), params: {}, context: {} });
      } catch (thrown) {
        if (!(thrown instanceof Response)) throw thrown;
        response = thrown;
      }
      await sendWebResponse(res, answerOf(req, response));
    } catch (error) {
      next(error);
    }
  };
}

const app = express();
app.use(readBodies());
app.use(requestScope());
app.post("/webhooks/fulfillments/create", route(fulfillmentsCreate as Handler));
app.get("/healthz", route(healthz as Handler));
// As server.js: an error is a 500 without details.
app.use(
  (error: unknown, req: express.Request, res: express.Response, _next: express.NextFunction) => {
    if (databaseWasBusy(error)) {
      void sendWebResponse(res, databaseBusyResponse(req));
      return;
    }
    console.error(error instanceof Error ? error.message : error);
    res.status(500).end();
  },
);
// WITH_WORKER=1: the delivery worker and the tracking sync run in this process too, as in the
// web process of a SQLite install, on short timers.
if (process.env.WITH_WORKER === "1") {
  const { startDeliveryWorker } = await import("../../app/pipeline/runner.server");
  const { startTrackingSync } = await import("../../app/pipeline/tracking/runner.server");
  startDeliveryWorker({ intervalMs: 200 });
  startTrackingSync(200);
}
const server = app.listen(0, "127.0.0.1", () => {
  const address = server.address();
  console.log(`ready ${typeof address === "object" && address ? address.port : 0}`);
});
