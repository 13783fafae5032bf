#!/usr/bin/env bash
# Exercise every endpoint with curl against a running server.
# Usage: scripts/demo.sh http://127.0.0.1:PORT/v1   (keys from WF_KEY_A / WF_KEY_B or the defaults)
set -uo pipefail
B="${1:?base url, e.g. http://127.0.0.1:8080/v1}"
KA="${WF_KEY_A:-wfk_live_larkspur_3f9c2e7a81d44b6c}"
KB="${WF_KEY_B:-wfk_live_brightside_8a2d5f0c9e174e3b}"
AA="Authorization: Bearer $KA"
AB="Authorization: Bearer $KB"
JSON="Content-Type: application/json"

show() {  # show TITLE curl-args...
  local title="$1"; shift
  echo
  echo "### $title"
  echo "\$ curl $*" | sed -e "s/$KA/\$WF_KEY_A/g" -e "s/$KB/\$WF_KEY_B/g"
  curl -s -w '\n[HTTP %{http_code}]\n' "$@" | cut -c1-1500
}
field() { python3 -c "import sys,json; d=json.load(sys.stdin); print(eval('d'+sys.argv[1]))" "$1"; }
brief_status() {
  curl -s "$B/openapi/workflow/$1/status" -H "$AA" | python3 -c '
import sys, json
d = json.load(sys.stdin)["data"]
print(d["status"], " ".join("%s=%s" % (n["nodeId"], n["status"]) for n in d["nodeExecutions"]))'
}

echo "# Workflow Automation Service — curl walkthrough against $B"

show "401 without a key" "$B/openapi/workflows"
show "401 with a wrong key" "$B/openapi/workflows" -H "Authorization: Bearer not-a-key"
show "Search, tenant A (page 1, default order updationDesc)" "$B/openapi/workflows" -H "$AA"
show "Search, tenant A, keyword + order + paging" "$B/openapi/workflows?keyword=report&order=creationAsc&page=1&pageSize=5" -H "$AA"
show "Search, tenant B" "$B/openapi/workflows" -H "$AB"
show "Detail, tenant A (tasks with dependencies)" "$B/openapi/workflows/c-6t5nyrnrnuglckqka9ga" -H "$AA"
show "Detail of tenant A's workflow with tenant B's key -> 404" "$B/openapi/workflows/c-6t5nyrnrnuglckqka9ga" -H "$AB"
show "Detail, unknown canvas -> 404" "$B/openapi/workflows/c-doesnotexist" -H "$AA"

echo; echo "## Run -> status -> output lifecycle (Quarterly Board Report Pack)"
RUN=$(curl -s -X POST "$B/openapi/workflow/c-6t5nyrnrnuglckqka9ga/run" -H "$AA" -H "$JSON" -d '{"variables":{"quarter":"Q2"}}')
echo "run: $RUN"
EX=$(echo "$RUN" | field '["data"]["executionId"]')
for i in 0 1 2 3 4 5 6 7 8 9 10 11; do echo "t+${i}s: $(brief_status "$EX")"; [ "$(brief_status "$EX" | cut -d' ' -f1)" = finish ] && break; sleep 1; done
show "Status (final)" "$B/openapi/workflow/$EX/status" -H "$AA"
show "Output (final)" "$B/openapi/workflow/$EX/output" -H "$AA"
URL=$(curl -s "$B/openapi/workflow/$EX/output" -H "$AA" | field '["data"]["files"][0]["url"]')
show "Download the first output file via its url" "$URL" -H "$AA"

echo; echo "## Abort a running execution (Annual Compliance Audit, ~12 s at speed 1)"
EX2=$(curl -s -X POST "$B/openapi/workflow/c-0wyvp0tnbe7ok60jo706/run" -H "$AA" | field '["data"]["executionId"]')
sleep 4.7
echo "before abort: $(brief_status "$EX2")"
show "Output while executing (partial messages, no files yet)" "$B/openapi/workflow/$EX2/output" -H "$AA"
show "Abort" -X POST "$B/openapi/workflow/$EX2/abort" -H "$AA"
echo "after abort: $(brief_status "$EX2")"
sleep 1
echo "1 s later:   $(brief_status "$EX2")"
show "Abort again (already ended: accepted, no change)" -X POST "$B/openapi/workflow/$EX2/abort" -H "$AA"
show "Status of aborted execution" "$B/openapi/workflow/$EX2/status" -H "$AA"

echo; echo "## A workflow that fails at one of its nodes (CRM Contact Enrichment)"
EX3=$(curl -s -X POST "$B/openapi/workflow/c-qew0s59kfl4qn5u85i24/run" -H "$AA" | field '["data"]["executionId"]')
for i in 1 2 3 4 5 6; do sleep 1; S=$(brief_status "$EX3"); echo "t+${i}s: $S"; [ "${S%% *}" = failed ] && break; done
show "Output of the failed execution" "$B/openapi/workflow/$EX3/output" -H "$AA"

echo; echo "## Upload a file and run the workflow with a file variable (Contract Clause Review)"
printf 'MASTER SERVICES AGREEMENT\nLarkspur Logistics Ltd and Apex Pallets Ltd\n9.2 Limitation of liability ...\n' > /tmp/msa-apex-pallets.txt
show "Upload" "$B/openapi/files/upload" -H "$AA" -F "files=@/tmp/msa-apex-pallets.txt;type=text/plain"
FK=$(curl -s "$B/openapi/files/upload" -H "$AA" -F "files=@/tmp/msa-apex-pallets.txt;type=text/plain" | field '["data"]["files"][0]["fileKey"]')
show "Run without the required file -> 400" -X POST "$B/openapi/workflow/c-vy76f7pl9u9qapydybw0/run" -H "$AA" -H "$JSON" -d '{}'
show "Run with an unknown file key -> 400" -X POST "$B/openapi/workflow/c-vy76f7pl9u9qapydybw0/run" -H "$AA" -H "$JSON" -d '{"variables":{"contract":"file-unknown"}}'
show "Run with the file key (+ option variable)" -X POST "$B/openapi/workflow/c-vy76f7pl9u9qapydybw0/run" -H "$AA" -H "$JSON" -d "{\"variables\":{\"contract\":\"$FK\",\"reviewDepth\":\"Detailed\"}}"
EX4=$(curl -s -X POST "$B/openapi/workflow/c-vy76f7pl9u9qapydybw0/run" -H "$AA" -H "$JSON" -d "{\"variables\":{\"contract\":[\"$FK\"]}}" | field '["data"]["executionId"]')
sleep 6.5
show "Output of the file-variable run" "$B/openapi/workflow/$EX4/output" -H "$AA"

echo; echo "## Variable validation"
show "Required string missing -> 400" -X POST "$B/openapi/workflow/c-g32nstz059bte7yqujx5/run" -H "$AA" -H "$JSON" -d '{}'
show "Required string in the legacy top-level form -> 200" -X POST "$B/openapi/workflow/c-g32nstz059bte7yqujx5/run" -H "$AA" -H "$JSON" -d '{"competitor":"Hartwell Freight"}'
show "Option outside its options -> 400" -X POST "$B/openapi/workflow/c-gmxijxxyirgz6am6iwqp/run" -H "$AA" -H "$JSON" -d '{"variables":{"priorityLevel":"Critical"}}'
show "Workflow API disabled -> 403" -X POST "$B/openapi/workflow/c-nj2xxukzt1fxcxrfusmo/run" -H "$AA"
show "Unknown workflow -> 404" -X POST "$B/openapi/workflow/c-doesnotexist/run" -H "$AA"
show "Malformed JSON -> 400" -X POST "$B/openapi/workflow/c-gmxijxxyirgz6am6iwqp/run" -H "$AA" -H "$JSON" -d '{"variables":'
show "Unknown execution -> 404" "$B/openapi/workflow/we-doesnotexist/status" -H "$AA"
show "Tenant B cannot see tenant A's execution -> 404" "$B/openapi/workflow/$EX/output" -H "$AB"

echo; echo "## Tenant B run"
EXB=$(curl -s -X POST "$B/openapi/workflow/c-ddbo846solw717yfji9d/run" -H "$AB" -H "$JSON" -d '{"variables":{"clinic":"Riverside"}}' | field '["data"]["executionId"]')
sleep 3.5
show "Tenant B output" "$B/openapi/workflow/$EXB/output" -H "$AB"

echo; echo "## Generate"
show "Generate a new workflow" -X POST "$B/openapi/copilot/workflow/generate" -H "$AA" -H "$JSON" -d '{"query":"Search the web for news about {{company}}, then summarize the top 5 stories in a report and email it to the sales team.","locale":"en"}'
show "Generate over an existing canvas (tenant B)" -X POST "$B/openapi/copilot/workflow/generate" -H "$AB" -H "$JSON" -d '{"query":"Find insurance claims open for more than 30 days. Draft a follow-up letter to each insurer. Email the letters to the billing team.","canvasId":"c-8qud4llr29dl8f8q93lw","locale":"en"}'
show "Generate: invalid locale -> 400" -X POST "$B/openapi/copilot/workflow/generate" -H "$AA" -H "$JSON" -d '{"query":"Plan a team offsite","locale":"xx"}'
show "Generate: nothing actionable -> 400" -X POST "$B/openapi/copilot/workflow/generate" -H "$AA" -H "$JSON" -d '{"query":"?!"}'
show "Generate: unknown canvas -> 404" -X POST "$B/openapi/copilot/workflow/generate" -H "$AA" -H "$JSON" -d '{"query":"Plan a team offsite","canvasId":"c-doesnotexist"}'

echo; echo "## Framework edges"
show "Wrong method -> 405" "$B/openapi/workflow/c-gmxijxxyirgz6am6iwqp/run" -H "$AA"
show "Trailing slash -> 404" "$B/openapi/workflows/" -H "$AA"
show "Unknown path -> 404" "$B/openapi/nothing" -H "$AA"
show "Unsupported media type -> 415" -X POST "$B/openapi/workflow/c-gmxijxxyirgz6am6iwqp/run" -H "$AA" -H "Content-Type: text/plain" -d 'hello'
head -c 110000 /dev/zero | tr '\0' 'x' > /tmp/wf-big.txt
show "Oversized body (>100KB) -> 413" "$B/openapi/files/upload" -H "$AA" -F "files=@/tmp/wf-big.txt"
