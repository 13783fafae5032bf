from datetime import timedelta

from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import override_settings
from django.utils import timezone
from rest_framework.test import APITestCase

from . import engine
from .models import Execution
from .seed_data import TENANT_A, TENANT_B

KEY_A = "test-key-a"
KEY_B = "test-key-b"
BOARD_PACK = "c-6t5nyrnrnuglckqka9ga"
CRM_ENRICH = "c-qew0s59kfl4qn5u85i24"
AUDIT = "c-0wyvp0tnbe7ok60jo706"
INVOICES = "c-nj2xxukzt1fxcxrfusmo"
CONTRACT = "c-vy76f7pl9u9qapydybw0"
PRICING = "c-g32nstz059bte7yqujx5"
TRIAGE = "c-gmxijxxyirgz6am6iwqp"


@override_settings(WF_SPEED=1.0)
class ApiTests(APITestCase):
    @classmethod
    def setUpTestData(cls):
        import os

        os.environ["WF_KEY_A"], os.environ["WF_KEY_B"] = KEY_A, KEY_B
        call_command("seed", stderr=open(os.devnull, "w"))

    def auth(self, key=KEY_A):
        self.client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")

    def run_wf(self, canvas_id, body=None):
        return self.client.post(f"/v1/openapi/workflow/{canvas_id}/run", body or {}, format="json")

    def test_seed_counts_and_isolation(self):
        self.assertEqual(len(TENANT_A["workflows"]), 17)
        self.auth()
        data = self.client.get("/v1/openapi/workflows?pageSize=100").json()["data"]
        self.assertEqual(len(data), 17)
        self.auth(KEY_B)
        data = self.client.get("/v1/openapi/workflows").json()["data"]
        self.assertEqual(len(data), len(TENANT_B["workflows"]))
        self.assertEqual(self.client.get(f"/v1/openapi/workflows/{BOARD_PACK}").status_code, 404)

    def test_auth_required(self):
        response = self.client.get("/v1/openapi/workflows")
        self.assertEqual(response.status_code, 401)
        self.assertFalse(response.json()["success"])
        self.auth("wrong")
        self.assertEqual(self.client.get("/v1/openapi/workflows").status_code, 401)

    def test_search_paging_keyword_order(self):
        self.auth()
        page = self.client.get("/v1/openapi/workflows?pageSize=5&page=4").json()["data"]
        self.assertEqual(len(page), 2)
        hits = self.client.get("/v1/openapi/workflows?keyword=REPORT&order=creationAsc").json()["data"]
        self.assertEqual([h["title"] for h in hits], ["Quarterly Board Report Pack", "Customer Churn Risk Report"])

    def test_detail_plan(self):
        self.auth()
        plan = self.client.get(f"/v1/openapi/workflows/{BOARD_PACK}").json()["data"]
        self.assertEqual(plan["title"], "Quarterly Board Report Pack")
        self.assertEqual(plan["tasks"][3]["dependentTasks"], ["financials", "headcount", "customer-kpis"])
        self.assertEqual(plan["variables"][0]["options"], ["Q1", "Q2", "Q3", "Q4"])

    def test_run_errors(self):
        self.auth()
        self.assertEqual(self.run_wf("c-missing").status_code, 404)
        self.assertEqual(self.run_wf(INVOICES).status_code, 403)
        self.assertEqual(self.run_wf(PRICING).status_code, 400)
        self.assertEqual(self.run_wf(TRIAGE, {"variables": {"priorityLevel": "Nope"}}).status_code, 400)
        self.assertEqual(self.run_wf(CONTRACT, {"variables": {"contract": "file-unknown"}}).status_code, 400)
        self.assertEqual(self.run_wf(PRICING, {"competitor": "Hartwell"}).status_code, 200)  # legacy form

    def test_upload_and_run_with_file(self):
        self.auth()
        upload = self.client.post("/v1/openapi/files/upload",
                                  {"files": [SimpleUploadedFile("msa.txt", b"agreement")]}, format="multipart")
        self.assertEqual(upload.status_code, 200)
        key = upload.json()["data"]["files"][0]["fileKey"]
        response = self.run_wf(CONTRACT, {"variables": {"contract": key}})
        self.assertEqual(response.status_code, 200)
        self.assertEqual(response.json()["data"]["status"], "init")
        self.auth(KEY_B)  # another tenant cannot use the key (nor see the execution)
        execution_id = response.json()["data"]["executionId"]
        self.assertEqual(self.client.get(f"/v1/openapi/workflow/{execution_id}/status").status_code, 404)

    def test_lifecycle_in_time(self):
        self.auth()
        execution_id = self.run_wf(BOARD_PACK).json()["data"]["executionId"]
        execution = Execution.objects.get(execution_id=execution_id)
        nodes = list(execution.nodes.all())
        t0 = execution.created_at
        self.assertEqual(engine.evaluate(execution, nodes, t0).status, "init")
        mid = engine.evaluate(execution, nodes, t0 + timedelta(seconds=2.2))
        self.assertEqual(mid.status, "executing")
        self.assertEqual([n.status for n in mid.nodes], ["executing", "finish", "executing", "waiting", "waiting"])
        end = engine.evaluate(execution, nodes, t0 + timedelta(seconds=60))
        self.assertEqual(end.status, "finish")

    def test_failure_and_output(self):
        self.auth()
        execution_id = self.run_wf(CRM_ENRICH).json()["data"]["executionId"]
        Execution.objects.filter(execution_id=execution_id).update(created_at=timezone.now() - timedelta(minutes=5))
        execution = Execution.objects.get(execution_id=execution_id)
        state = engine.evaluate(execution, list(execution.nodes.all()), timezone.now() + timedelta(minutes=1))
        self.assertEqual(state.status, "failed")
        self.assertEqual([n.status for n in state.nodes], ["finish", "failed", "waiting"])

    def test_abort(self):
        self.auth()
        execution_id = self.run_wf(AUDIT).json()["data"]["executionId"]
        self.assertEqual(self.client.post(f"/v1/openapi/workflow/{execution_id}/abort").status_code, 200)
        status = self.client.get(f"/v1/openapi/workflow/{execution_id}/status").json()["data"]
        self.assertEqual(status["status"], "failed")
        output = self.client.get(f"/v1/openapi/workflow/{execution_id}/output").json()["data"]
        self.assertEqual(output["files"], [])
        self.assertEqual(self.client.post("/v1/openapi/workflow/we-missing/abort").status_code, 404)

    def test_generate(self):
        self.auth()
        response = self.client.post("/v1/openapi/copilot/workflow/generate",
                                    {"query": "Research {{topic}}. Then write a report.", "locale": "en"},
                                    format="json")
        self.assertEqual(response.status_code, 200)
        plan = response.json()["data"]["workflowPlan"]
        self.assertEqual(len(plan["tasks"]), 2)
        self.assertEqual(plan["variables"], [{"name": "topic", "variableType": "string", "required": True}])
        bad = self.client.post("/v1/openapi/copilot/workflow/generate", {"query": "x", "locale": "xx"}, format="json")
        self.assertEqual(bad.status_code, 400)
        self.assertEqual(bad.json()["statusCode"], 400)
        missing = self.client.post("/v1/openapi/copilot/workflow/generate", {"query": "x", "canvasId": "c-no"},
                                   format="json")
        self.assertEqual(missing.status_code, 404)
