import os
from datetime import timedelta

from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from workflows.models import Tenant, Workflow, WorkflowTask, WorkflowVariable, hash_api_key
from workflows.seed_data import TENANTS
from workflows.views import purge_stale_uploads


class Command(BaseCommand):
    help = "Create or restore the seeded tenants and workflows; apply API keys from WF_KEY_A / WF_KEY_B."

    @transaction.atomic
    def handle(self, *args, **options):
        now = timezone.now()
        for spec in TENANTS:
            key = os.environ.get(spec["env_key"]) or spec["default_key"]
            tenant, _ = Tenant.objects.update_or_create(
                slug=spec["slug"], defaults={"name": spec["name"], "api_key_hash": hash_api_key(key)}
            )
            for wf in spec["workflows"]:
                workflow, _ = Workflow.objects.update_or_create(
                    canvas_id=wf["canvas_id"],
                    defaults={
                        "tenant": tenant,
                        "title": wf["title"],
                        "api_enabled": wf["api_enabled"],
                        "created_at": now - timedelta(days=wf["created_days_ago"]),
                        "updated_at": now - timedelta(days=wf["updated_days_ago"]),
                    },
                )
                workflow.tasks.all().delete()
                workflow.variables.all().delete()
                WorkflowTask.objects.bulk_create(
                    WorkflowTask(workflow=workflow, position=i, **t) for i, t in enumerate(wf["tasks"])
                )
                WorkflowVariable.objects.bulk_create(
                    WorkflowVariable(workflow=workflow, position=i, **v) for i, v in enumerate(wf["variables"])
                )
            self.stderr.write(f"seeded {tenant.name}: {len(spec['workflows'])} workflows ({spec['env_key']})")
        purged = purge_stale_uploads()
        if purged:
            self.stderr.write(f"removed {purged} unused uploads older than 24 hours")
