import { PassThrough } from "node:stream";
import {
  createReadableStreamFromReadable,
  type EntryContext,
  type HandleErrorFunction,
} from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { startCheckoutRatesLoop } from "./checkout/runner.server";
import { startDeliveryWorker, WEB_PROCESS_LEASES_PER_PASS } from "./pipeline/runner.server";
import { startTrackingSync } from "./pipeline/tracking/runner.server";
import { createI18n } from "./i18n/instance";
import { languageFromMatches } from "./i18n/language";
import { sealStoredSessions } from "./models/sessions.server";
import { startCourierRecords } from "./pipeline/records/runner.server";
import { startShopperLoop } from "./shopper/runner.server";
import { applyDocumentFramePolicy } from "./security/frame-policy";

export const streamTimeout = 5000;

// The server module loads once per process: the delivery worker starts with it (ADR 0003), in
// short passes so requests are not kept waiting behind one (ADR 0042).
startDeliveryWorker({ leasesPerPass: WEB_PROCESS_LEASES_PER_PASS });
startTrackingSync();
startCourierRecords();
startShopperLoop();
startCheckoutRatesLoop();
// Tokens written in plaintext by an earlier version, or under a retired key, are sealed now.
sealStoredSessions().catch((error: unknown) => {
  console.error("Sealing the stored Shopify tokens failed:", error);
});

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
) {
  // Embedded pages carry the verified shop's frame-ancestors (app/routes/app.tsx); the rest none.
  applyDocumentFramePolicy(responseHeaders);
  const callbackName = isbot(request.headers.get("user-agent") ?? "")
    ? "onAllReady"
    : "onShellReady";

  // The page's language, as its loaders decided it (the layout's staff choice, the tracking
  // page's shopper, the root's browser guess): the same one <html lang> and the client use.
  const { matches, loaderData } = remixContext.staticHandlerContext;
  const i18n = createI18n(
    languageFromMatches(matches.map((match) => ({ data: loaderData[match.route.id] }))),
  );

  return new Promise<Response>((resolve, reject) => {
    const { pipe, abort } = renderToPipeableStream(
      <I18nextProvider i18n={i18n}>
        <RemixServer context={remixContext} url={request.url} />
      </I18nextProvider>,
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

/**
 * Errors Remix caught. A page or link that does not exist, a thrown 4xx and a request the client
 * abandoned are the visitor's business, not the operator's: nothing is logged for them. Anything
 * else is logged once, whole.
 */
export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error) && error.status < 500) return;
  if (error instanceof Response && error.status < 500) return;
  console.error(error);
};
