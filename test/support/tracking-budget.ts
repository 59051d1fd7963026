/**
 * server.js lets one client open 30 tracking links a minute; the browser files share one client.
 * Waits for the next minute when fewer than `needed` are left (its RateLimit header says).
 */
export async function waitForTrackingBudget(appUrl: string, needed: number) {
  const response = await fetch(`${appUrl}/tracking/budget-check`);
  const header = response.headers.get("ratelimit") ?? "";
  const remaining = Number(/r=(\d+)/.exec(header)?.[1] ?? 30);
  const reset = Number(/t=(\d+)/.exec(header)?.[1] ?? 0);
  if (remaining < needed) await new Promise((r) => setTimeout(r, (reset + 1) * 1000));
}
