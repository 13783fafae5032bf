#!/usr/bin/env bash
# Builds the service if needed and starts it.
#   ./run.sh [--port N] [--speed F] [extra Spring Boot arguments...]
#   --port 0 picks a free port; --speed multiplies every execution duration (1 = nominal).
# API keys: WF_KEY_A (tenant A), WF_KEY_B (tenant B); defaults wf-key-tenant-a / wf-key-tenant-b.
set -euo pipefail
cd "$(dirname "$0")"

JAR=target/workflow-service.jar
if [ ! -f "$JAR" ]; then
  echo "building $JAR ..." >&2
  mvn -q -Dmaven.repo.local="${WF_MAVEN_REPO:-$PWD/.m2}" package -DskipTests >&2
fi

PORT=8080
SPEED=1
EXTRA=()
while [ $# -gt 0 ]; do
  case "$1" in
    --port) PORT="$2"; shift 2 ;;
    --port=*) PORT="${1#*=}"; shift ;;
    --speed) SPEED="$2"; shift 2 ;;
    --speed=*) SPEED="${1#*=}"; shift ;;
    *) EXTRA+=("$1"); shift ;;
  esac
done

exec java ${JAVA_OPTS:-} -jar "$JAR" --server.port="$PORT" --wf.speed="$SPEED" ${EXTRA[@]+"${EXTRA[@]}"}
