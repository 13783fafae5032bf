#!/usr/bin/env bash
# End-to-end smoke test with curl: starts the service (via run.sh) on a free
# port, exercises every endpoint for both tenants, and stops it with SIGTERM.
# Usage: scripts/smoke.sh [speed]   (default speed 1)
set -uo pipefail
cd "$(dirname "$0")/.."
SPEED="${1:-1}"
KA="${WF_KEY_A:-wfk-northwind-4f7c2a9e81d35b60}"
KB="${WF_KEY_B:-wfk-harbordental-9b1e6d3c07a2f458}"
OUT=$(mktemp); ERR=$(mktemp)
PASS=0; FAIL=0

T0=$(date +%s.%N)
./run.sh --port 0 --speed "$SPEED" >"$OUT" 2>"$ERR" &
PID=$!
for _ in $(seq 1 600); do grep -q '^listening ' "$OUT" && break; sleep 0.1; done
T1=$(date +%s.%N)
B=$(sed -n 's/^listening //p' "$OUT")
[ -n "$B" ] || { echo "service did not start"; cat "$ERR"; exit 1; }
printf 'started in %.2fs at %s\n' "$(echo "$T1 - $T0" | bc)" "$B"

HA=(-H "Authorization: Bearer $KA"); HB=(-H "Authorization: Bearer $KB")
# req METHOD PATH [curl args...] -> sets CODE and BODY
req() { local m=$1 p=$2; shift 2; local r; r=$(curl -s -w $'\n%{http_code}' -X "$m" "$B$p" "$@"); CODE=${r##*$'\n'}; BODY=${r%$'\n'*}; }
check() { # check NAME EXPECTED_CODE [jq-expression that must be true]
  local ok=1
  [ "$CODE" = "$2" ] || ok=0
  if [ $ok = 1 ] && [ -n "${3:-}" ]; then echo "$BODY" | jq -e "$3" >/dev/null 2>&1 || ok=0; fi
  if [ $ok = 1 ]; then PASS=$((PASS+1)); echo "ok   $1 ($CODE)"; else FAIL=$((FAIL+1)); echo "FAIL $1: got $CODE $BODY"; fi
}
cid() { echo "$ALL" | jq -r --arg t "$1" '.data[] | select(.title==$t) | .canvasId'; }
wait_end() { # wait_end EXECUTION_ID HEADERS... -> BODY is the final status
  local e=$1; shift
  for _ in $(seq 1 400); do req GET "/openapi/workflow/$e/status" "$@"; echo "$BODY" | jq -e '.data.status=="finish" or .data.status=="failed"' >/dev/null && return; sleep 0.1; done
}

echo "== authentication"
req GET /openapi/workflows; check "no key -> 401" 401 '.success==false and .errCode=="UNAUTHORIZED"'
req GET /openapi/workflows -H "Authorization: Bearer nope"; check "wrong key -> 401" 401
req GET /openapi/workflows -H "Authorization: Basic $KA"; check "wrong scheme -> 401" 401

echo "== search (4.5)"
req GET "/openapi/workflows?pageSize=100" "${HA[@]}"; ALL=$BODY
check "tenant A lists 25" 200 '.success==true and (.data|length)==25'
req GET "/openapi/workflows" "${HB[@]}"; check "tenant B lists its own 4" 200 '(.data|length)==4'
req GET "/openapi/workflows?keyword=report" "${HA[@]}"; check "keyword search" 200 '(.data|length)>=2 and all(.data[]; .title|test("report";"i"))'
req GET "/openapi/workflows?order=titleAsc&page=2&pageSize=5" "${HA[@]}"; check "order + paging" 200 '(.data|length)==5'
req GET "/openapi/workflows?page=0" "${HA[@]}"; check "page=0 -> 400" 400 '.errCode=="INVALID_REQUEST_PARAMS"'
req GET "/openapi/workflows?keyword=report" "${HB[@]}"; check "tenant B does not see A" 200 '(.data|length)==0'

BOARD=$(cid "Quarterly Board Report"); CONTRACT=$(cid "Supplier Contract Clause Review")
SOCIAL=$(cid "Social Media Content Calendar"); PRICING=$(cid "Competitor Pricing Snapshot")
CRM=$(cid "CRM Lead Enrichment"); ERP=$(cid "Legacy ERP Data Migration"); PAYROLL=$(cid "Payroll Variance Check")
BCID=$(curl -s "$B/openapi/workflows" "${HB[@]}" | jq -r '.data[0].canvasId')

echo "== detail (4.6)"
req GET "/openapi/workflows/$BOARD" "${HA[@]}"; check "plan with dependencies" 200 '(.data.tasks|length)==6 and (.data.tasks[3].dependentTasks==["task-1","task-2"])'
req GET "/openapi/workflows/$SOCIAL" "${HA[@]}"; check "option variable" 200 '.data.variables[0].variableType=="option" and (.data.variables[0].options|length)==4'
req GET "/openapi/workflows/$BCID" "${HA[@]}"; check "other tenant's canvas -> 404" 404 '.errCode=="CANVAS_NOT_FOUND"'
req GET "/openapi/workflows/$BCID" "${HB[@]}"; check "tenant B reads its own" 200

echo "== run -> status -> output (4.1, 4.4, 4.3)"
req POST "/openapi/workflow/$BOARD/run" "${HA[@]}"; check "run without body" 200 '.data.status=="init" and (.data.executionId|startswith("we-"))'
E=$(echo "$BODY" | jq -r .data.executionId)
sleep "$(echo "0.9 * $SPEED" | bc)"
req GET "/openapi/workflow/$E/status" "${HA[@]}"; check "status while running" 200 '.data.status=="executing" and any(.data.nodeExecutions[]; .status=="executing")'
req GET "/openapi/workflow/$E/output" "${HA[@]}"; check "files only from finished nodes" 200 '[.data.output[]|select(.status=="finish")|.nodeId] as $done | all(.data.files[]; .nodeId as $n | $done|index($n))'
req GET "/openapi/workflow/$E/status" "${HB[@]}"; check "other tenant's execution -> 404" 404 '.errCode=="E1021"'
wait_end "$E" "${HA[@]}"; check "finishes" 200 '.data.status=="finish" and all(.data.nodeExecutions[]; .status=="finish")'
req GET "/openapi/workflow/$E/output" "${HA[@]}"; check "output messages and files" 200 '(.data.output|length)==6 and (.data.files|length)==2 and (.data.files[0].url|startswith("http"))'
URL=$(echo "$BODY" | jq -r '.data.files[0].url')
CODE=$(curl -s -o /dev/null -w '%{http_code}' "$URL" "${HA[@]}"); BODY=''; check "output file download" 200

echo "== variables"
req POST "/openapi/workflow/$PRICING/run" "${HA[@]}" -H 'Content-Type: application/json' -d '{}'; check "missing required string -> 400" 400 '.errCode=="INVALID_REQUEST_BODY"'
req POST "/openapi/workflow/$PRICING/run" "${HA[@]}" -H 'Content-Type: application/json' -d '{"variables":{"competitor":"Summit Gear Co","product_category":"Tents"}}'; check "run with variables" 200
E2=$(echo "$BODY" | jq -r .data.executionId)
req POST "/openapi/workflow/$PRICING/run" "${HA[@]}" -H 'Content-Type: application/json' -d '{"competitor":"Summit Gear Co"}'; check "legacy top-level variables" 200
req POST "/openapi/workflow/$SOCIAL/run" "${HA[@]}" -H 'Content-Type: application/json' -d '{"variables":{"channel":"TikTok"}}'; check "option outside list -> 400" 400
req POST "/openapi/workflow/$SOCIAL/run" "${HA[@]}" -H 'Content-Type: application/json' -d '{"variables":{"channel":"Instagram"}}'; check "option in list" 200
req POST "/openapi/workflow/$CONTRACT/run" "${HA[@]}" -H 'Content-Type: application/json' -d '{"variables":{}}'; check "missing file variable -> 400" 400
req POST "/openapi/workflow/$CONTRACT/run" "${HA[@]}" -H 'Content-Type: application/json' -d '{"variables":{"contract":"uf-doesnotexist"}}'; check "unknown fileKey -> 400" 400 '.errCode=="E1012"'
wait_end "$E2" "${HA[@]}"
req GET "/openapi/workflow/$E2/output" "${HA[@]}"; check "variables appear in output" 200 '[.data.output[].messages[].content]|join(" ")|test("Summit Gear Co")'

echo "== upload (4.7) and run with the file key"
TMP=$(mktemp -d); printf 'MASTER SUPPLY AGREEMENT\nPayment terms: net 60.\n' >"$TMP/summit-supply-agreement.txt"
req POST /openapi/files/upload "${HA[@]}" -F "files=@$TMP/summit-supply-agreement.txt;type=text/plain"; check "upload" 200 '.data.files[0].fileName=="summit-supply-agreement.txt" and (.data.files[0].fileKey|startswith("uf-"))'
FK=$(echo "$BODY" | jq -r '.data.files[0].fileKey')
req POST /openapi/files/upload "${HA[@]}"; check "upload without files -> 400" 400
req POST /openapi/files/upload -F "files=@$TMP/summit-supply-agreement.txt"; check "upload without key -> 401" 401
req POST "/openapi/workflow/$CONTRACT/run" "${HB[@]}" -H 'Content-Type: application/json' -d "{\"variables\":{\"contract\":\"$FK\"}}"; check "tenant B cannot run A's canvas -> 404" 404
req POST "/openapi/workflow/$CONTRACT/run" "${HA[@]}" -H 'Content-Type: application/json' -d "{\"variables\":{\"contract\":\"$FK\"}}"; check "run with file key" 200
E3=$(echo "$BODY" | jq -r .data.executionId)
wait_end "$E3" "${HA[@]}"; check "file workflow finishes" 200 '.data.status=="finish"'
req GET "/openapi/workflow/$E3/output" "${HA[@]}"; check "file name used in output" 200 '[.data.output[].messages[].content]|join(" ")|test("summit-supply-agreement.txt")'

echo "== failing workflow"
req POST "/openapi/workflow/$CRM/run" "${HA[@]}"; E4=$(echo "$BODY" | jq -r .data.executionId)
wait_end "$E4" "${HA[@]}"; check "ends failed with node error" 200 '.data.status=="failed" and any(.data.nodeExecutions[]; .status=="failed" and (.errorMessage|test("503")))'
req GET "/openapi/workflow/$E4/output" "${HA[@]}"; check "partial content of failed node" 200 'any(.data.output[]; .status=="failed" and (.messages|length)>0)'

echo "== abort (4.2)"
req POST "/openapi/workflow/$ERP/run" "${HA[@]}"; E5=$(echo "$BODY" | jq -r .data.executionId)
sleep "$(echo "1.5 * $SPEED" | bc)"
req GET "/openapi/workflow/$E5/status" "${HA[@]}"; check "long workflow executing" 200 '.data.status=="executing"'
req POST "/openapi/workflow/$E5/abort" "${HB[@]}"; check "abort by other tenant -> 404" 404
req POST "/openapi/workflow/$E5/abort" "${HA[@]}"; check "abort accepted" 200 '.success==true and (has("data")|not)'
req GET "/openapi/workflow/$E5/status" "${HA[@]}"; check "aborted execution is failed" 200 '.data.status=="failed" and all(.data.nodeExecutions[]; .status=="finish" or .status=="failed")'
req POST "/openapi/workflow/$E5/abort" "${HA[@]}"; check "abort again (already ended) -> 200" 200
req POST "/openapi/workflow/we-unknown/abort" "${HA[@]}"; check "abort unknown -> 404" 404

echo "== run errors"
req POST "/openapi/workflow/$PAYROLL/run" "${HA[@]}"; check "API disabled -> 403" 403 '.errCode=="WORKFLOW_API_DISABLED"'
req POST "/openapi/workflow/c-unknown/run" "${HA[@]}"; check "unknown canvas -> 404" 404 '.errCode=="CANVAS_NOT_FOUND"'
req POST "/openapi/workflow/$BOARD/run" "${HA[@]}" -H 'Content-Type: application/json' -d '{"variables":'; check "malformed JSON -> 400" 400
req POST "/openapi/workflow/$BOARD/run" "${HA[@]}" -H 'Content-Type: application/json' -d '{"variables":"x"}'; check "variables not an object -> 400" 400
req POST "/openapi/workflow/$BOARD/run" "${HA[@]}" -H 'Content-Type: text/plain' -d 'hello'; check "non-JSON body -> 400" 400
BIG=$(head -c 120000 /dev/zero | tr '\0' 'a')
req POST "/openapi/workflow/$PRICING/run" "${HA[@]}" -H 'Content-Type: application/json' -d "{\"variables\":{\"competitor\":\"$BIG\"}}"; check "payload over 100KB -> 413" 413 '.errCode=="E2005"'

echo "== generate (4.8)"
req POST /openapi/copilot/workflow/generate "${HB[@]}" -H 'Content-Type: application/json' -d '{"query":"Search for new dental hygiene research, then summarize the findings in a report and email it to the clinic managers","locale":"en"}'
check "generate new workflow" 200 '(.data.canvasId|startswith("c-")) and (.data.workflowPlan.tasks|length)==3'
GCID=$(echo "$BODY" | jq -r .data.canvasId)
req GET "/openapi/workflows/$GCID" "${HB[@]}"; check "generated workflow stored" 200
req POST "/openapi/workflow/$GCID/run" "${HB[@]}"; E6=$(echo "$BODY" | jq -r .data.executionId); check "generated workflow runs" 200
wait_end "$E6" "${HB[@]}"; check "generated workflow finishes" 200 '.data.status=="finish"'
req POST /openapi/copilot/workflow/generate "${HB[@]}" -H 'Content-Type: application/json' -d "{\"query\":\"1. Export the week's no-shows\n2. Draft a friendly rebooking message for each patient\",\"canvasId\":\"$GCID\"}"
check "overwrite existing canvas" 200 ".data.canvasId==\"$GCID\" and (.data.workflowPlan.tasks|length)==2"
req POST /openapi/copilot/workflow/generate "${HA[@]}" -H 'Content-Type: application/json' -d "{\"query\":\"Draft a memo\",\"canvasId\":\"$GCID\"}"; check "overwrite other tenant's canvas -> 404" 404
req POST /openapi/copilot/workflow/generate "${HB[@]}" -H 'Content-Type: application/json' -d '{"query":"!!! ???"}'; check "generation failed -> 400" 400 '.statusCode==400 and (.message|type)=="string" and .error=="Bad Request" and has("modelResponse")'
req POST /openapi/copilot/workflow/generate "${HB[@]}" -H 'Content-Type: application/json' -d '{"query":"Write a report","locale":"xx"}'; check "bad locale -> 400" 400
req POST /openapi/copilot/workflow/generate "${HB[@]}" -H 'Content-Type: application/json' -d '{}'; check "missing query -> 400" 400 '.statusCode==400 and (.message|type)=="string"'

echo "== framework edges"
req GET "/openapi/workflows/" "${HA[@]}"; check "trailing slash" 200
req PUT "/openapi/workflows" "${HA[@]}"; check "wrong method -> 404" 404
req GET "/openapi/workflows/%E0%A4%A" "${HA[@]}"; check "malformed path encoding -> 400" 400
req GET "/nothing-here" "${HA[@]}"; check "unknown route -> 404" 404

echo "== tenant B lifecycle"
req POST "/openapi/workflow/$BCID/run" "${HB[@]}"; E7=$(echo "$BODY" | jq -r .data.executionId); check "tenant B run" 200
wait_end "$E7" "${HB[@]}"; check "tenant B finishes" 200 '.data.status=="finish"'
req GET "/openapi/workflow/$E7/output" "${HB[@]}"; check "tenant B output" 200 '(.data.output|length)>=1'

T2=$(date +%s.%N)
kill -TERM "$PID"; wait "$PID" 2>/dev/null
T3=$(date +%s.%N)
printf 'stopped in %.2fs\n' "$(echo "$T3 - $T2" | bc)"
echo "stdout of the service:"; cat "$OUT"
rm -rf "$TMP" "$OUT" "$ERR"
echo "$PASS passed, $FAIL failed"
[ "$FAIL" = 0 ]
