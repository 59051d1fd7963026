import type {
  ApiError,
  CancelResponse,
  OrderDeliveriesResponse,
  QuoteResponse,
  SendResponse,
  SendStatusResponse,
} from "../../app/api-contract";

/**
 * The app's API as the extensions call it (docs/api-contract.md). Types only come from the app's
 * contract, so no validation library reaches the bundles; the app validates every request.
 * Relative URLs resolve against the app's URL in the admin; the session token goes in the
 * Authorization header, which the app's `authenticate.admin` checks.
 */
export interface ExtensionHost {
  auth: { idToken: () => Promise<string | null> };
}

export type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

/**
 * A request the app did not carry out. `status` is 0 when the app could not be reached at all;
 * `fromApp` says the message is the app's own words (its `{ error }` answer), which the
 * extensions show as they are; otherwise they say it in the merchant's language (`errorText`).
 */
export class AppApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fromApp = false,
  ) {
    super(message);
    this.name = "AppApiError";
  }
}

/** "gid://shopify/Order/7001" → "7001". */
export function numericId(gid: string): string {
  return gid.slice(gid.lastIndexOf("/") + 1);
}

export function createAppApi(host: ExtensionHost, fetchImpl: Fetch = (i, o) => fetch(i, o)) {
  async function request(path: string, init: RequestInit = {}): Promise<Response> {
    const token = await host.auth.idToken();
    const headers: Record<string, string> = { Accept: "application/json" };
    if (token) headers.Authorization = `Bearer ${token}`;
    if (init.body) headers["Content-Type"] = "application/json";
    try {
      return await fetchImpl(path, { ...init, headers });
    } catch (error) {
      // Offline, or the app's server is down: nothing answered.
      throw new AppApiError(0, error instanceof Error ? error.message : String(error));
    }
  }
  function failure(response: Response, body: unknown): AppApiError {
    const fromApp = body !== null && typeof (body as ApiError).error === "string";
    const message = fromApp ? (body as ApiError).error : `The app answered ${response.status}.`;
    return new AppApiError(response.status, message, fromApp);
  }
  async function call<T>(path: string, init: RequestInit = {}): Promise<T> {
    const response = await request(path, init);
    const body = (await response.json().catch(() => null)) as T | ApiError | null;
    if (!response.ok && !(response.status === 409 && body && "ok" in (body as object))) {
      throw failure(response, body);
    }
    return body as T;
  }
  return {
    orderDeliveries: (orderGid: string) =>
      call<OrderDeliveriesResponse>(`/api/orders/${numericId(orderGid)}`),
    quote: (orderGid: string) => call<QuoteResponse>(`/api/orders/${numericId(orderGid)}/quote`),
    send: (orderIds: readonly string[]) =>
      call<SendResponse>("/api/send", { method: "POST", body: JSON.stringify({ orderIds }) }),
    sendStatus: (deliveryIds: readonly string[]) =>
      call<SendStatusResponse>(`/api/send/status?ids=${deliveryIds.join(",")}`),
    cancel: (deliveryId: string) =>
      call<CancelResponse>(`/api/deliveries/${deliveryId}/cancel`, { method: "POST" }),
    /**
     * Whether the app serves this document (the labels the print preview will load): resolves
     * when it does, throws the app's reason when it does not. The document itself is not read.
     */
    checkDocument: async (path: string): Promise<void> => {
      const response = await request(path);
      if (response.ok) {
        await response.body?.cancel().catch(() => {});
        return;
      }
      throw failure(response, await response.json().catch(() => null));
    },
  };
}

export type AppApi = ReturnType<typeof createAppApi>;

export type LabelSize = "A6" | "4x6";

/** The print actions' document: the labels of these orders' created deliveries. */
export function labelsSrc(orderGids: readonly string[], size: LabelSize): string | undefined {
  if (orderGids.length === 0) return undefined;
  const params = new URLSearchParams({ orderIds: orderGids.join(","), size });
  return `/api/labels?${params.toString()}`;
}

/** The app's page for a path of the app (the admin opens it inside the app). */
export function appPage(path: string): string {
  return `app:${path}`;
}
