import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/** An access token the stand-in issued (or was told to accept). */
export interface IssuedAccessToken {
  token: string;
  kind: "offline" | "online";
  scopes: string[];
  /** Milliseconds since the epoch, or null for a token that never expires. */
  expiresAt: number | null;
}

/** One call to `/admin/oauth/access_token`, for tests to inspect. Holds no secret. */
export interface TokenRequestRecord {
  at: string;
  grantType: string;
  requestedTokenType: string | null;
  expiring: boolean;
  status: number;
  error: string | null;
}

export interface TokenReply {
  status: number;
  body: Record<string, unknown>;
}

export interface StandInAuthOptions {
  shop: string;
  apiKey: string;
  apiSecret: string;
  scopes: string[];
  clock: () => number;
  /** Lifetime of expiring offline tokens (default 3600 s, as Shopify's). */
  accessTokenTtlSeconds?: number;
  /** Lifetime of refresh tokens (default 90 days). */
  refreshTokenTtlSeconds?: number;
}

const TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";
const ID_TOKEN = "urn:ietf:params:oauth:token-type:id_token";
const OFFLINE = "urn:shopify:params:oauth:token-type:offline-access-token";
const ONLINE = "urn:shopify:params:oauth:token-type:online-access-token";
const CLOCK_TOLERANCE_SECONDS = 10;
const ONLINE_TTL_SECONDS = 86_399;
const DEMO_USER_ID = 12345;

/**
 * Shopify's OAuth endpoint for embedded apps: token exchange (a session token from App Bridge for an
 * access token) and the refresh grant for expiring offline tokens; and the check of the
 * `X-Shopify-Access-Token` header on Admin API calls.
 */
export class StandInAuth {
  readonly requests: TokenRequestRecord[] = [];
  private readonly accessTokens = new Map<string, IssuedAccessToken>();
  private readonly refreshTokens = new Map<string, { expiresAt: number; used: boolean }>();

  constructor(private readonly options: StandInAuthOptions) {}

  /** Answers a POST to `/admin/oauth/access_token` (JSON or form body). */
  handleTokenRequest(body: Record<string, unknown>): TokenReply {
    const grantType = String(body.grant_type ?? "");
    const record: TokenRequestRecord = {
      at: new Date(this.options.clock()).toISOString(),
      grantType,
      requestedTokenType:
        typeof body.requested_token_type === "string" ? body.requested_token_type : null,
      expiring: body.expiring === "1" || body.expiring === 1 || body.expiring === true,
      status: 200,
      error: null,
    };
    this.requests.push(record);
    const reply = this.answer(body, record);
    record.status = reply.status;
    record.error = typeof reply.body.error === "string" ? reply.body.error : null;
    return reply;
  }

  /** The token's record when it is known and not expired, else null. */
  verifyAccessToken(token: string | undefined): IssuedAccessToken | null {
    if (!token) return null;
    const issued = this.accessTokens.get(token);
    if (!issued) return null;
    return issued.expiresAt !== null && issued.expiresAt <= this.options.clock() ? null : issued;
  }

  /**
   * Issues (or, with `token`, accepts) an access token without a token exchange, e.g. for a session
   * a test stored directly. `expiresInSeconds: null` (default) never expires.
   */
  issueAccessToken(
    options: { token?: string; expiresInSeconds?: number | null; scopes?: string[] } = {},
  ): IssuedAccessToken {
    const issued: IssuedAccessToken = {
      token: options.token ?? `shpat_${randomBytes(16).toString("hex")}`,
      kind: "offline",
      scopes: options.scopes ?? this.options.scopes,
      expiresAt:
        options.expiresInSeconds === undefined || options.expiresInSeconds === null
          ? null
          : this.options.clock() + options.expiresInSeconds * 1000,
    };
    this.accessTokens.set(issued.token, issued);
    return issued;
  }

  revokeAccessToken(token: string): void {
    this.accessTokens.delete(token);
  }

  /** A session token (`id_token`) as App Bridge would hand the app, signed with the app secret. */
  sessionToken({ userId = DEMO_USER_ID, expiresInSeconds = 60 } = {}): string {
    const now = Math.floor(this.options.clock() / 1000);
    return signSessionToken(
      {
        iss: `https://${this.options.shop}/admin`,
        dest: `https://${this.options.shop}`,
        aud: this.options.apiKey,
        sub: String(userId),
        exp: now + expiresInSeconds,
        nbf: now - 5,
        iat: now,
        jti: randomBytes(8).toString("hex"),
        sid: randomBytes(8).toString("hex"),
      },
      this.options.apiSecret,
    );
  }

  private answer(body: Record<string, unknown>, record: TokenRequestRecord): TokenReply {
    const error = (status: number, code: string, description: string): TokenReply => ({
      status,
      body: { error: code, error_description: description },
    });
    if (
      !safeEqual(String(body.client_id ?? ""), this.options.apiKey) ||
      !safeEqual(String(body.client_secret ?? ""), this.options.apiSecret)
    ) {
      return error(401, "invalid_client", "Client credentials are invalid.");
    }
    const now = this.options.clock();

    if (record.grantType === "refresh_token") {
      const refresh = this.refreshTokens.get(String(body.refresh_token ?? ""));
      if (!refresh || refresh.used || refresh.expiresAt <= now) {
        return error(
          400,
          "invalid_grant",
          "The refresh token is invalid, expired or was already used.",
        );
      }
      // Refresh tokens rotate: each one works once.
      refresh.used = true;
      return { status: 200, body: this.grantOffline(true) };
    }

    if (record.grantType !== TOKEN_EXCHANGE) {
      return error(
        400,
        "unsupported_grant_type",
        `Grant type "${record.grantType}" is not supported.`,
      );
    }
    if (body.subject_token_type !== ID_TOKEN) {
      return error(400, "invalid_request", `subject_token_type must be ${ID_TOKEN}.`);
    }
    const verified = verifySessionToken(String(body.subject_token ?? ""), {
      apiKey: this.options.apiKey,
      apiSecret: this.options.apiSecret,
      shop: this.options.shop,
      now,
    });
    if (!verified.ok) return error(400, "invalid_subject_token", verified.reason);

    if (record.requestedTokenType === ONLINE) {
      const token = `shpua_${randomBytes(16).toString("hex")}`;
      const scope = this.options.scopes.join(",");
      this.accessTokens.set(token, {
        token,
        kind: "online",
        scopes: this.options.scopes,
        expiresAt: now + ONLINE_TTL_SECONDS * 1000,
      });
      return {
        status: 200,
        body: {
          access_token: token,
          scope,
          expires_in: ONLINE_TTL_SECONDS,
          associated_user_scope: scope,
          associated_user: {
            id: Number(verified.payload.sub),
            first_name: "Demo",
            last_name: "Merchant",
            email: `merchant@${this.options.shop}`,
            account_owner: true,
            locale: "en",
            collaborator: false,
            email_verified: true,
          },
        },
      };
    }
    if (record.requestedTokenType !== OFFLINE) {
      return error(400, "invalid_request", `requested_token_type must be ${OFFLINE} or ${ONLINE}.`);
    }
    return { status: 200, body: this.grantOffline(record.expiring) };
  }

  private grantOffline(expiring: boolean): Record<string, unknown> {
    const ttl = this.options.accessTokenTtlSeconds ?? 3600;
    const issued = this.issueAccessToken({ expiresInSeconds: expiring ? ttl : null });
    const scope = this.options.scopes.join(",");
    if (!expiring) return { access_token: issued.token, scope };
    const refreshTtl = this.options.refreshTokenTtlSeconds ?? 7_776_000;
    const refreshToken = `shprt_${randomBytes(16).toString("hex")}`;
    this.refreshTokens.set(refreshToken, {
      expiresAt: this.options.clock() + refreshTtl * 1000,
      used: false,
    });
    return {
      access_token: issued.token,
      scope,
      expires_in: ttl,
      refresh_token: refreshToken,
      refresh_token_expires_in: refreshTtl,
    };
  }
}

export interface SessionTokenPayload {
  iss: string;
  dest: string;
  aud: string;
  sub: string;
  exp: number;
  nbf: number;
  iat: number;
  jti: string;
  sid: string;
}

function base64url(data: Buffer | string): string {
  return Buffer.from(data).toString("base64url");
}

/** Signs a session token: HS256 keyed with the app secret's UTF-8 bytes, as Shopify does. */
export function signSessionToken(payload: SessionTokenPayload, apiSecret: string): string {
  const head = `${base64url(JSON.stringify({ alg: "HS256", typ: "JWT" }))}.${base64url(JSON.stringify(payload))}`;
  return `${head}.${base64url(createHmac("sha256", apiSecret).update(head).digest())}`;
}

/**
 * Checks a session token the way Shopify's token endpoint does: HS256 signature with the app
 * secret, not expired or not yet valid (10 s of clock tolerance), issued for this app (`aud`) and
 * this shop (`dest`).
 */
export function verifySessionToken(
  token: string,
  expected: { apiKey: string; apiSecret: string; shop: string; now: number },
): { ok: true; payload: SessionTokenPayload } | { ok: false; reason: string } {
  const [head, body, signature, ...rest] = token.split(".");
  if (!head || !body || !signature || rest.length > 0)
    return { ok: false, reason: "The session token is not a JWT." };
  let header: { alg?: unknown };
  let payload: Partial<SessionTokenPayload>;
  try {
    header = JSON.parse(Buffer.from(head, "base64url").toString("utf8")) as { alg?: unknown };
    payload = JSON.parse(
      Buffer.from(body, "base64url").toString("utf8"),
    ) as Partial<SessionTokenPayload>;
  } catch {
    return { ok: false, reason: "The session token is not a JWT." };
  }
  if (header.alg !== "HS256")
    return { ok: false, reason: "The session token must be signed with HS256." };
  const expectedSignature = createHmac("sha256", expected.apiSecret)
    .update(`${head}.${body}`)
    .digest();
  const given = Buffer.from(signature, "base64url");
  if (given.length !== expectedSignature.length || !timingSafeEqual(given, expectedSignature)) {
    return { ok: false, reason: "The session token's signature is invalid." };
  }
  const now = expected.now / 1000;
  if (typeof payload.exp !== "number" || payload.exp + CLOCK_TOLERANCE_SECONDS < now) {
    return { ok: false, reason: "The session token has expired." };
  }
  if (typeof payload.nbf === "number" && payload.nbf - CLOCK_TOLERANCE_SECONDS > now) {
    return { ok: false, reason: "The session token is not valid yet." };
  }
  if (payload.aud !== expected.apiKey)
    return { ok: false, reason: "The session token was issued for another app." };
  if (payload.dest !== `https://${expected.shop}`) {
    return { ok: false, reason: "The session token was issued for another shop." };
  }
  return { ok: true, payload: payload as SessionTokenPayload };
}

function safeEqual(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
