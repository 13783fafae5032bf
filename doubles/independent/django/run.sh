#!/usr/bin/env bash
# Build (virtualenv + pinned dependencies) if needed, migrate and seed, then serve with gunicorn.
# Usage: ./run.sh [--port N] [--speed F]     (--port 0 = any free port)
# Env:   WF_KEY_A, WF_KEY_B (API keys), WF_KEEP_DATA=1 (keep the database of the previous run),
#        WF_DATA_DIR (default ./var), WF_WORKERS (default 3), WF_THREADS (default 4)
set -euo pipefail
cd "$(dirname "$0")"

PORT=8080
SPEED=1
while [ $# -gt 0 ]; do
  case "$1" in
    --port) PORT="${2:?--port needs a value}"; shift 2 ;;
    --port=*) PORT="${1#*=}"; shift ;;
    --speed) SPEED="${2:?--speed needs a value}"; shift 2 ;;
    --speed=*) SPEED="${1#*=}"; shift ;;
    *) echo "run.sh: unknown argument: $1" >&2; exit 2 ;;
  esac
done
[[ "$PORT" =~ ^[0-9]+$ ]] && [ "$PORT" -le 65535 ] || { echo "run.sh: bad --port '$PORT'" >&2; exit 2; }
[[ "$SPEED" =~ ^([0-9]+([.][0-9]*)?|[.][0-9]+)([eE][-+]?[0-9]+)?$ ]] || { echo "run.sh: bad --speed '$SPEED'" >&2; exit 2; }

PY=$(command -v python3.11 || command -v python3)
if [ ! -x .venv/bin/gunicorn ]; then
  echo "run.sh: creating .venv and installing requirements.txt" >&2
  "$PY" -m venv .venv
  .venv/bin/pip install --disable-pip-version-check -q -r requirements.txt >&2
fi

export DJANGO_SETTINGS_MODULE=wfservice.settings
export WF_SPEED="$SPEED"
export WF_DATA_DIR="${WF_DATA_DIR:-$PWD/var}"
export DJANGO_SECRET_KEY="${DJANGO_SECRET_KEY:-$(.venv/bin/python -c 'import secrets; print(secrets.token_urlsafe(40))')}"
if [ "${WF_KEEP_DATA:-0}" != "1" ]; then
  rm -rf "$WF_DATA_DIR/workflows.sqlite3" "$WF_DATA_DIR/workflows.sqlite3-wal" \
         "$WF_DATA_DIR/workflows.sqlite3-shm" "$WF_DATA_DIR/media"
fi
.venv/bin/python manage.py migrate --noinput -v0 >&2
.venv/bin/python manage.py seed >&2

GPID=""
stop() {
  if [ -n "$GPID" ]; then kill -TERM "$GPID" 2>/dev/null || true; wait "$GPID" 2>/dev/null || true; fi
  exit 0
}
trap stop TERM INT HUP

for attempt in 1 2 3; do
  REAL_PORT="$PORT"
  if [ "$PORT" = "0" ]; then REAL_PORT=$(.venv/bin/python scripts/free_port.py); fi
  WF_BIND="127.0.0.1:$REAL_PORT" .venv/bin/gunicorn -c gunicorn.conf.py >&2 &
  GPID=$!
  # waited on in the background so that a SIGTERM is handled at once
  .venv/bin/python scripts/wait_ready.py "$REAL_PORT" "$GPID" 60 &
  if wait $!; then
    echo "listening http://127.0.0.1:$REAL_PORT/v1"
    wait "$GPID" || true
    exit 0
  fi
  kill -TERM "$GPID" 2>/dev/null || true; wait "$GPID" 2>/dev/null || true; GPID=""
  # a fixed port that failed will not get better; a random one may have been taken meanwhile
  [ "$PORT" = "0" ] || break
done
echo "run.sh: gunicorn did not start" >&2
exit 1
