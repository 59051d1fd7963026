#!/usr/bin/env bash
# Starts the built server (what `npm start` runs) on a scratch database and expects 200 from /healthz.
set -euo pipefail
dir=$(mktemp -d)
port=${SMOKE_PORT:-39517}
export NODE_ENV=production PORT=$port HOST=127.0.0.1 \
  SHOPIFY_API_KEY=smoke SHOPIFY_API_SECRET=smoke SHOPIFY_APP_URL="http://127.0.0.1:$port" \
  SCOPES=read_orders DATABASE_URL="file:$dir/smoke.sqlite" \
  ENCRYPTION_KEYS="smoke:$(node -e 'process.stdout.write(require("crypto").randomBytes(32).toString("base64"))')"
npx prisma migrate deploy >/dev/null
node server.js >"$dir/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$dir"' EXIT
for _ in $(seq 1 100); do
  if body=$(curl -fsS "http://127.0.0.1:$port/healthz" 2>/dev/null); then
    echo "healthz: $body"
    [ "$body" = '{"status":"ok"}' ] && exit 0
  fi
  sleep 0.2
done
echo "The built server did not answer /healthz. Its log:" >&2
cat "$dir/server.log" >&2
exit 1
