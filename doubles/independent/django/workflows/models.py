"""Persistence model of the Workflow Automation Service.

A *tenant* owns workflows (canvases), uploaded files and executions. A workflow's plan is
stored relationally (tasks and variables), together with the simulation script that the
execution engine plays back for every task (durations, messages, files, failure).

An *execution* is a snapshot of the plan taken when the run is accepted: every node gets a
planned start and end time computed from the task dependencies and the service speed.
Progress is never driven by a background thread: the state at any moment is derived from
those stored timestamps (see ``engine.py``), so every gunicorn worker answers the same.
The ``status`` columns are a cache of the last derived state, refreshed on reads.
"""

import hashlib
import secrets
import string

from django.db import models

_ALPHABET = string.ascii_lowercase + string.digits


def random_id(prefix: str, length: int = 20) -> str:
    return prefix + "".join(secrets.choice(_ALPHABET) for _ in range(length))


def new_canvas_id() -> str:
    return random_id("c-")


def new_file_key() -> str:
    return random_id("file-", 24)


def new_execution_id() -> str:
    return random_id("we-", 24)


def new_drive_file_id() -> str:
    return random_id("df-", 24)


def new_message_seed() -> str:
    return secrets.token_hex(6)


def hash_api_key(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


class Tenant(models.Model):
    slug = models.SlugField(unique=True)
    name = models.CharField(max_length=200)
    api_key_hash = models.CharField(max_length=64, unique=True)

    # DRF's IsAuthenticated checks request.user.is_authenticated; the tenant is the principal.
    is_authenticated = True
    is_anonymous = False

    def __str__(self):
        return self.name


class Workflow(models.Model):
    canvas_id = models.CharField(max_length=64, unique=True, default=new_canvas_id)
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="workflows")
    title = models.CharField(max_length=300)
    api_enabled = models.BooleanField(default=True)
    locale = models.CharField(max_length=16, blank=True, default="")
    created_at = models.DateTimeField()
    updated_at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["tenant", "updated_at"])]

    def __str__(self):
        return f"{self.canvas_id} {self.title}"


class WorkflowVariable(models.Model):
    STRING, OPTION, RESOURCE = "string", "option", "resource"
    TYPES = [(STRING, STRING), (OPTION, OPTION), (RESOURCE, RESOURCE)]

    workflow = models.ForeignKey(Workflow, on_delete=models.CASCADE, related_name="variables")
    position = models.PositiveIntegerField()
    name = models.CharField(max_length=100)
    variable_type = models.CharField(max_length=16, choices=TYPES, default=STRING)
    required = models.BooleanField(default=False)
    options = models.JSONField(default=list, blank=True)
    default_value = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["position"]
        constraints = [models.UniqueConstraint(fields=["workflow", "name"], name="uniq_variable_name")]


class WorkflowTask(models.Model):
    workflow = models.ForeignKey(Workflow, on_delete=models.CASCADE, related_name="tasks")
    position = models.PositiveIntegerField()
    task_id = models.CharField(max_length=64)
    title = models.CharField(max_length=300)
    prompt = models.TextField()
    toolsets = models.JSONField(default=list, blank=True)
    dependent_tasks = models.JSONField(default=list, blank=True)
    # --- execution script (not part of the public plan) ---
    duration_seconds = models.FloatField(default=2.0)
    # [{"type": "ai"|"tool", "content": str, "reasoning": str, "at": 0..1, "stream": bool}]
    messages = models.JSONField(default=list, blank=True)
    # [{"name": str, "type": mime, "content": str}]
    files = models.JSONField(default=list, blank=True)
    # Non-empty: the node ends `failed` with this error message.
    fail_message = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["position"]
        constraints = [models.UniqueConstraint(fields=["workflow", "task_id"], name="uniq_task_id")]


def _upload_path(instance, filename):
    return f"uploads/{instance.tenant_id}/{instance.file_key}"


class UploadedFile(models.Model):
    file_key = models.CharField(max_length=64, unique=True, default=new_file_key)
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="uploads")
    file_name = models.CharField(max_length=255)
    content_type = models.CharField(max_length=200, blank=True, default="")
    size = models.PositiveIntegerField()
    file = models.FileField(upload_to=_upload_path)
    created_at = models.DateTimeField(auto_now_add=True)
    # Set when a run references the key; unused files are removed after ~24 h.
    last_used_at = models.DateTimeField(null=True, blank=True)


class Execution(models.Model):
    INIT, EXECUTING, FINISH, FAILED = "init", "executing", "finish", "failed"
    STATUSES = [(s, s) for s in (INIT, EXECUTING, FINISH, FAILED)]

    execution_id = models.CharField(max_length=64, unique=True, default=new_execution_id)
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="executions")
    workflow = models.ForeignKey(Workflow, on_delete=models.SET_NULL, null=True, related_name="executions")
    canvas_id = models.CharField(max_length=64)
    title = models.CharField(max_length=300)
    variables = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField()
    dispatched_at = models.DateTimeField()
    aborted_at = models.DateTimeField(null=True, blank=True)
    # cache of the derived state
    status = models.CharField(max_length=16, choices=STATUSES, default=INIT)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["tenant", "created_at"])]


class NodeExecution(models.Model):
    INIT, WAITING, EXECUTING, FINISH, FAILED = "init", "waiting", "executing", "finish", "failed"
    STATUSES = [(s, s) for s in (INIT, WAITING, EXECUTING, FINISH, FAILED)]

    execution = models.ForeignKey(Execution, on_delete=models.CASCADE, related_name="nodes")
    position = models.PositiveIntegerField()
    node_id = models.CharField(max_length=64)
    title = models.CharField(max_length=300)
    message_seed = models.CharField(max_length=32, default=new_message_seed)
    planned_start = models.DateTimeField()
    planned_end = models.DateTimeField()
    messages = models.JSONField(default=list, blank=True)
    fail_message = models.TextField(blank=True, default="")
    # cache of the derived state
    status = models.CharField(max_length=16, choices=STATUSES, default=INIT)

    class Meta:
        ordering = ["position"]


class DriveFile(models.Model):
    file_id = models.CharField(max_length=64, unique=True, default=new_drive_file_id)
    execution = models.ForeignKey(Execution, on_delete=models.CASCADE, related_name="files")
    node_id = models.CharField(max_length=64)
    position = models.PositiveIntegerField(default=0)
    name = models.CharField(max_length=255)
    content_type = models.CharField(max_length=100)
    content = models.BinaryField()
    size = models.PositiveIntegerField()

    class Meta:
        ordering = ["position", "id"]
