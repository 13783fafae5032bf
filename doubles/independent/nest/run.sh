#!/usr/bin/env bash
# Installs (when node_modules is absent), builds (when dist is absent) and
# starts the service. Arguments are passed through: --port N (0 = any free
# port), --speed F (multiplies execution durations), --db FILE (optional).
# Install/build output goes to stderr: stdout carries only the
# "listening http://127.0.0.1:PORT/v1" line.
set -euo pipefail
cd "$(dirname "$0")"

# better-sqlite3 compiles from source here: point node-gyp at the local Node headers.
export npm_config_nodedir="${npm_config_nodedir:-$(dirname "$(dirname "$(command -v node)")")}"

if [ ! -d node_modules ]; then
  npm ci --no-audit --no-fund 1>&2
fi
if [ ! -f dist/main.js ]; then
  npm run --silent build 1>&2
fi
exec node dist/main.js "$@"
