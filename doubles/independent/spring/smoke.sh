#!/usr/bin/env bash
# Exercises every endpoint with curl against a running service.
#   ./smoke.sh http://127.0.0.1:PORT/v1        (keys from WF_KEY_A / WF_KEY_B or the defaults)
set -u
B="${1:?base url, e.g. http://127.0.0.1:8080/v1}"
A="Authorization: Bearer ${WF_KEY_A:-wf-key-tenant-a}"
BB="Authorization: Bearer ${WF_KEY_B:-wf-key-tenant-b}"
J="Content-Type: application/json"
py() { python3 -c "import json,sys; d=json.load(sys.stdin); print($1)"; }
show() { echo; echo "### $1"; shift; curl -s -w '\n[HTTP %{http_code}]\n' "$@" | cut -c1-700; }

show "401 without key" "$B/openapi/workflows"
show "401 wrong key" -H "Authorization: Bearer wrong" "$B/openapi/workflows"
show "search tenant A (default page)" -H "$A" "$B/openapi/workflows"
echo "tenant A total: $(curl -s -H "$A" "$B/openapi/workflows?pageSize=100" | py 'len(d["data"])')"
show "search keyword=report order=title_asc" -H "$A" "$B/openapi/workflows?keyword=report&order=title_asc"
show "search page=2 pageSize=5" -H "$A" "$B/openapi/workflows?page=2&pageSize=5"
show "search tenant B" -H "$BB" "$B/openapi/workflows"
show "detail (A)" -H "$A" "$B/openapi/workflows/c-3oc7fphcexcja0kj"
show "detail of A's workflow with B's key -> 404" -H "$BB" "$B/openapi/workflows/c-3oc7fphcexcja0kj"

show "run: disabled workflow API -> 403" -X POST -H "$A" "$B/openapi/workflow/c-la29yw3qdlrz3iq1/run"
show "run: unknown canvas -> 404" -X POST -H "$A" "$B/openapi/workflow/c-doesnotexist00/run"
show "run: missing required string variable -> 400" -X POST -H "$A" -H "$J" -d '{"variables":{}}' "$B/openapi/workflow/c-l2ts66obex4wt6gh/run"
show "run: option not allowed -> 400" -X POST -H "$A" -H "$J" -d '{"variables":{"platform":"TikTok"}}' "$B/openapi/workflow/c-ekeqbqrmjusyvvqg/run"
show "run: option ok" -X POST -H "$A" -H "$J" -d '{"variables":{"platform":"LinkedIn","tone":"Friendly"}}' "$B/openapi/workflow/c-ekeqbqrmjusyvvqg/run"
show "run: legacy top-level variables" -X POST -H "$A" -H "$J" -d '{"customer_name":"Jane Doe"}' "$B/openapi/workflow/c-l2ts66obex4wt6gh/run"

echo; echo "### lifecycle: run -> status (polling) -> output -> abort (slow workflow)"
R=$(curl -s -X POST -H "$A" -H "$J" -d '{}' "$B/openapi/workflow/c-6ma94f9qspvynghy/run"); echo "$R"
E=$(echo "$R" | py 'd["data"]["executionId"]')
for i in 1 2 3; do sleep 0.7; curl -s -H "$A" "$B/openapi/workflow/$E/status" | py '(d["data"]["status"], [n["status"] for n in d["data"]["nodeExecutions"]])'; done
show "output while executing (partial content)" -H "$A" "$B/openapi/workflow/$E/output"
show "abort" -X POST -H "$A" "$B/openapi/workflow/$E/abort"
show "status after abort" -H "$A" "$B/openapi/workflow/$E/status"
show "abort again (already ended) -> 200 no-op" -X POST -H "$A" "$B/openapi/workflow/$E/abort"
show "status with B's key -> 404" -H "$BB" "$B/openapi/workflow/$E/status"
show "abort unknown -> 404" -X POST -H "$A" "$B/openapi/workflow/we-unknown/abort"
show "output unknown -> 404" -H "$A" "$B/openapi/workflow/we-unknown/output"

echo; echo "### failing workflow"
E=$(curl -s -X POST -H "$A" "$B/openapi/workflow/c-7zcx73qbule5bubt/run" | py 'd["data"]["executionId"]')
for i in $(seq 1 40); do S=$(curl -s -H "$A" "$B/openapi/workflow/$E/status" | py 'd["data"]["status"]'); [ "$S" = finish ] || [ "$S" = failed ] && break; sleep 0.25; done
show "status of failed execution" -H "$A" "$B/openapi/workflow/$E/status"

echo; echo "### upload + run with the file key"
printf 'SUPPLY AGREEMENT\nPayment terms: net 60\n' > /tmp/smoke-contract.txt
show "upload" -H "$A" -F "files=@/tmp/smoke-contract.txt;type=text/plain" "$B/openapi/files/upload"
K=$(curl -s -H "$A" -F "files=@/tmp/smoke-contract.txt;type=text/plain" "$B/openapi/files/upload" | py 'd["data"]["files"][0]["fileKey"]')
show "upload without files -> 400" -H "$A" -F "note=x" "$B/openapi/files/upload"
show "run with missing file variable -> 400" -X POST -H "$A" -H "$J" -d '{}' "$B/openapi/workflow/c-3oc7fphcexcja0kj/run"
show "run with unknown fileKey -> 400" -X POST -H "$A" -H "$J" -d '{"variables":{"contract_file":"fk-unknown"}}' "$B/openapi/workflow/c-3oc7fphcexcja0kj/run"
show "B cannot use A's fileKey -> 400" -X POST -H "$BB" -H "$J" -d "{\"variables\":{\"claim_documents\":\"$K\"}}" "$B/openapi/workflow/c-hkt7rwpex0pdt3ru/run"
R=$(curl -s -X POST -H "$A" -H "$J" -d "{\"variables\":{\"contract_file\":\"$K\",\"jurisdiction\":\"European Union\"}}" "$B/openapi/workflow/c-3oc7fphcexcja0kj/run"); echo "### run with fileKey $K"; echo "$R"
E=$(echo "$R" | py 'd["data"]["executionId"]')
for i in $(seq 1 40); do S=$(curl -s -H "$A" "$B/openapi/workflow/$E/status" | py 'd["data"]["status"]'); [ "$S" = finish ] || [ "$S" = failed ] && break; sleep 0.25; done
show "output after finish (files)" -H "$A" "$B/openapi/workflow/$E/output"
U=$(curl -s -H "$A" "$B/openapi/workflow/$E/output" | py 'd["data"]["files"][0]["url"]')
show "download output file" -H "$A" "$U"

echo; echo "### generate"
show "generate (new workflow)" -H "$A" -H "$J" -d '{"query":"Search the web for new trail-running shoe launches, then compare prices with our range and write a short report for {{buyer_name}}.","locale":"en"}' "$B/openapi/copilot/workflow/generate"
C=$(curl -s -H "$A" -H "$J" -d '{"query":"Collect last week returns. Analyse the return reasons. Write a memo."}' "$B/openapi/copilot/workflow/generate" | py 'd["data"]["canvasId"]')
show "generate overwriting $C" -H "$A" -H "$J" -d "{\"query\":\"1. Load open support tickets\\n2. Categorise them\\n3. Draft replies\",\"canvasId\":\"$C\"}" "$B/openapi/copilot/workflow/generate"
show "run the generated workflow" -X POST -H "$A" "$B/openapi/workflow/$C/run"
show "generate: missing query -> 400" -H "$A" -H "$J" -d '{}' "$B/openapi/copilot/workflow/generate"
show "generate: bad locale -> 400" -H "$A" -H "$J" -d '{"query":"write a report","locale":"xx"}' "$B/openapi/copilot/workflow/generate"
show "generate: nothing actionable -> 400" -H "$A" -H "$J" -d '{"query":"??? 123"}' "$B/openapi/copilot/workflow/generate"
show "generate: unknown canvas -> 404" -H "$A" -H "$J" -d '{"query":"write a report","canvasId":"c-doesnotexist00"}' "$B/openapi/copilot/workflow/generate"
show "tenant B search still 5" -H "$BB" "$B/openapi/workflows"
