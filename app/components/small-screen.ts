import { useRouteLoaderData } from "@remix-run/react";
import { useBreakpoints } from "@shopify/polaris";

/**
 * Whether a page request comes from a phone, from what every browser says of itself: Chrome's
 * `Sec-CH-UA-Mobile` hint, else the user agent's "Mobi" (Safari and WebViews on phones, Chrome
 * and Firefox on Android phones; tablets say neither). Only a first guess for the server's
 * render, so a phone's first paint already has its layout (see useSmallScreen).
 */
export function requestFromPhone(headers: Headers): boolean {
  const hint = headers.get("sec-ch-ua-mobile");
  if (hint === "?1") return true;
  if (hint === "?0") return false;
  return /Mobi/i.test(headers.get("user-agent") ?? "");
}

/**
 * Polaris's `smDown` (narrower than 768 px), with the server's guess for the first render.
 * Polaris assumes a wide screen until the browser has measured it, so a phone got the wide
 * table first and the condensed list only after hydration: the whole page moved while it
 * loaded. The guess comes from the app's layout route (app.tsx's loader, `phone`).
 */
export function useSmallScreen(): boolean {
  const app = useRouteLoaderData<{ phone?: boolean }>("routes/app");
  return useBreakpoints({ defaults: { smDown: app?.phone === true } }).smDown;
}
