import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable, type EntryContext } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { startDeliveryWorker } from "./deliveries/runner.server";
import { startTrackingSync } from "./deliveries/sync-runner.server";
import { addDocumentResponseHeaders } from "./shopify.server";

export const streamTimeout = 5000;

// The server module loads once per process: the delivery worker starts with it (ADR 0003).
startDeliveryWorker();
startTrackingSync();

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
) {
  // Content-Security-Policy frame-ancestors for the shop's admin, so Shopify may frame the app.
  addDocumentResponseHeaders(request, responseHeaders);
  const callbackName = isbot(request.headers.get("user-agent") ?? "")
    ? "onAllReady"
    : "onShellReady";

  return new Promise<Response>((resolve, reject) => {
    const { pipe, abort } = renderToPipeableStream(
      <RemixServer context={remixContext} url={request.url} />,
      {
        [callbackName]: () => {
          const body = new PassThrough();
          const stream = createReadableStreamFromReadable(body);
          responseHeaders.set("Content-Type", "text/html");
          resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
          pipe(body);
        },
        onShellError(error) {
          reject(error);
        },
        onError() {
          responseStatusCode = 500;
        },
      },
    );
    setTimeout(abort, streamTimeout + 1000);
  });
}
