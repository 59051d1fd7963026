// Headers every response carries unless its route says otherwise (ADR 0012). A page may be
// framed only when the route that rendered it verified the shop from a session token and said so
// with its own Content-Security-Policy (app/security/frame-policy.ts); everything else — the
// login page, the public tracking page, errors, 404s, files, JSON, refusals — may not be framed
// at all.

/**
 * The default policy: no framing, no `<base>` pointing elsewhere, no plugins. The same as
 * NOT_FRAMEABLE_CSP in app/security/frame-policy.ts (a test keeps them equal).
 */
export const NOT_FRAMEABLE_CSP = "frame-ancestors 'none'; base-uri 'self'; object-src 'none'";

export function securityHeaders() {
  return (_req, res, next) => {
    res.setHeader("Content-Security-Policy", NOT_FRAMEABLE_CSP);
    res.setHeader("X-Frame-Options", "DENY");
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
    next();
  };
}
