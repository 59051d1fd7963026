// A request answered while the SQLite file stayed locked by another process (ADR 0053): the app's
// database layer gives up after a few seconds and marks the request (app/db/database-busy.ts,
// through the AsyncLocalStorage below, shared under a global symbol with the app's bundle). Such a
// request is answered 503 with Retry-After, whatever the route made of the error: Shopify sends a
// webhook again, and a merchant's page says the database is busy and reloads itself.
import { AsyncLocalStorage } from "node:async_hooks";

const REQUEST_SCOPE = Symbol.for("kuwait-courier.request-scope");
const scope = (globalThis[REQUEST_SCOPE] ??= new AsyncLocalStorage());

export const RETRY_AFTER_SECONDS = 5;

/** Express middleware: every request runs in a scope of its own. */
export function requestScope() {
  return (req, res, next) => scope.run({ databaseBusy: false }, next);
}

/** Whether the database stayed locked during this request, or `error` says so. */
export function databaseWasBusy(error) {
  return error?.name === "DatabaseBusyError" || scope.getStore()?.databaseBusy === true;
}

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="refresh" content="${RETRY_AFTER_SECONDS}"><title>Busy for a moment</title>
<style>body{font:16px/1.5 system-ui,sans-serif;margin:0;padding:24px;color:#303030;background:#f1f1f1}
main{max-width:560px;margin:40px auto;background:#fff;border-radius:12px;padding:20px 24px}
p[dir=rtl]{font-family:"Noto Sans Arabic",system-ui,sans-serif}</style></head>
<body><main>
<p><strong>The app's database is busy for a moment.</strong> Nothing was lost. This page loads again by itself in ${RETRY_AFTER_SECONDS} seconds.</p>
<p dir="rtl" lang="ar"><strong>قاعدة بيانات التطبيق مشغولة للحظة.</strong> لم يضع شيء. ستُحمَّل هذه الصفحة من جديد تلقائيًا خلال ${RETRY_AFTER_SECONDS} ثوانٍ.</p>
</main></body></html>`;

/** The answer to an Express request the database could not serve: 503, in both languages. */
export function databaseBusyResponse(req) {
  const headers = {
    "Retry-After": String(RETRY_AFTER_SECONDS),
    "Cache-Control": "no-store",
  };
  if (req.method === "GET" && (req.get("accept") ?? "").includes("text/html")) {
    return new Response(PAGE, {
      status: 503,
      headers: { ...headers, "Content-Type": "text/html; charset=utf-8" },
    });
  }
  return Response.json(
    {
      error: "database_busy",
      message: `The app's database is busy for a moment; nothing was written. Try again in ${RETRY_AFTER_SECONDS} seconds.`,
    },
    { status: 503, headers },
  );
}

/**
 * The route's answer, unless the database stayed locked meanwhile: then 503 with Retry-After,
 * whatever the route made of it (a webhook route's 500, a page's error boundary).
 */
export function answerOf(req, response) {
  return response.status >= 500 && databaseWasBusy() ? databaseBusyResponse(req) : response;
}
