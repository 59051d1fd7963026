import { Agent, Dispatcher, getGlobalDispatcher, setGlobalDispatcher } from "undici";

export interface RouteShopifyOptions {
  /** Hostnames to reroute (default any `*.myshopify.com`). */
  shops?: RegExp;
  /**
   * Where every other request goes (default a plain `Agent`). Tests pass the dispatcher they had
   * (`getGlobalDispatcher()`), so their refusal of non-loopback hosts still holds.
   */
  fallback?: Dispatcher;
}

const MYSHOPIFY = /^[a-z0-9][a-z0-9-]*\.myshopify\.com$/i;

type DispatchHeaders = Dispatcher.DispatchOptions["headers"];

/**
 * Sends every request for `https://<shop>.myshopify.com` to the stand-in instead, keeping method,
 * path, headers and body, and the shop's name in the Host header (so one stand-in can refuse the
 * wrong shop). The Shopify library captures `fetch` when it is imported, so swapping the global
 * undici dispatcher, which that `fetch` consults on every call, is the one seam that reaches it.
 *
 * Returns the uninstall function, which puts back the dispatcher that was global before.
 */
export function routeShopifyToStandIn(
  standInUrl: string,
  options: RouteShopifyOptions = {},
): () => Promise<void> {
  const target = new URL(standInUrl);
  if (target.protocol !== "http:" && target.protocol !== "https:") {
    throw new Error(`The stand-in URL must be http(s), not ${standInUrl}`);
  }
  const shops = options.shops ?? MYSHOPIFY;
  const previous = getGlobalDispatcher();
  const forward = new Agent();
  const fallback = options.fallback ?? new Agent();

  class ShopifyRedirect extends Dispatcher {
    override dispatch(
      opts: Dispatcher.DispatchOptions,
      handler: Dispatcher.DispatchHandlers,
    ): boolean {
      const origin = opts.origin ? new URL(String(opts.origin)) : undefined;
      if (origin?.protocol === "https:" && shops.test(origin.hostname)) {
        return forward.dispatch(
          { ...opts, origin: target.origin, headers: withHost(opts.headers, origin.host) },
          handler,
        );
      }
      return fallback.dispatch(opts, handler);
    }
  }

  setGlobalDispatcher(new ShopifyRedirect());
  return async () => {
    setGlobalDispatcher(previous);
    await forward.close();
    if (!options.fallback) await fallback.close();
  };
}

// undici takes headers as an object, a flat [name, value, ...] array or an iterable of pairs.
function withHost(headers: DispatchHeaders, host: string): Record<string, string | string[]> {
  const result: Record<string, string | string[]> = {};
  const add = (name: string, value: unknown) => {
    if (name.toLowerCase() === "host" || value === undefined || value === null) return;
    result[name] = Array.isArray(value) ? value.map(String) : String(value);
  };
  if (Array.isArray(headers)) {
    for (let i = 0; i + 1 < headers.length; i += 2) add(String(headers[i]), headers[i + 1]);
  } else if (headers && typeof (headers as Iterable<unknown>)[Symbol.iterator] === "function") {
    for (const [name, value] of headers as Iterable<[string, unknown]>) add(name, value);
  } else if (headers) {
    for (const [name, value] of Object.entries(headers)) add(name, value);
  }
  result.host = host;
  return result;
}
