// Remix refuses a POST (PUT, PATCH, DELETE) to a page, or to any route's `.data`, whose Origin
// names another host than the request's: a cross-site request forgery. It refuses by throwing, so
// the visitor got a bare 500 and the log a stack (issue 24). This applies Remix's own rule first
// and answers 403 instead; it accepts and refuses exactly what Remix does. Resource routes (the
// webhooks, the admin extensions' API, Flow, the courier's pushes) are called from other sites on
// purpose, each authenticated its own way: Remix does not check them, and neither does this.
import { matchRoutes } from "@remix-run/react";

const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** The route tree of a Remix build's manifest, as its server matches requests against it. */
function routeTree(manifest, parentId) {
  return Object.values(manifest)
    .filter((route) => route.parentId === parentId)
    .map((route) => ({
      id: route.id,
      path: route.path,
      index: route.index,
      caseSensitive: route.caseSensitive,
      children: routeTree(manifest, route.id),
    }));
}

/** Remix's test (`throwIfPotentialCSRFAttack`): an Origin whose host is not the forwarded or own host. */
export function isCrossSite(headers) {
  const origin = headers.origin;
  if (origin === undefined || origin === "") return false;
  let originHost;
  try {
    originHost = origin === "null" ? "null" : new URL(origin).host;
  } catch {
    return true;
  }
  const forwarded = headers["x-forwarded-host"]?.split(",")[0]?.trim();
  const host = forwarded || headers.host;
  return !host || originHost !== host;
}

/** Whether Remix checks a write to this URL: a `.data` request, else any route but a resource route. */
function checkedByRemix(build, routes, url) {
  if (url.searchParams.has("_data")) return false;
  if (url.pathname.endsWith(".data")) return true;
  const last = matchRoutes(routes, url.pathname)?.at(-1)?.route;
  const module = last ? build.routes[last.id]?.module : undefined;
  return !(module && module.default == null && module.ErrorBoundary == null);
}

export function crossSiteWritesRefused(build) {
  const routes = routeTree(build.routes, undefined);
  return (req, res, next) => {
    if (!WRITES.has(req.method) || !isCrossSite(req.headers)) return next();
    const url = new URL(req.originalUrl, "http://localhost");
    if (!checkedByRemix(build, routes, url)) return next();
    res.status(403).type("text/plain").end("Cross-site request refused.");
  };
}
