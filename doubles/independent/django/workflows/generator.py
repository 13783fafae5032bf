"""Workflow plan generation from a natural-language prompt (SPEC 4.8).

The vendor's planner is a deterministic rule-based one (no language model is reachable
from this deployment): the prompt is split into steps (sentences, "then", ";", line
breaks, numbered lists), each step becomes a task depending on the previous one, toolsets
are picked from keywords, and `{{name}}` placeholders become required string variables.
A prompt from which no step can be derived makes generation fail (400).
"""

import json
import re

from django.db import transaction
from django.utils import timezone

from .errors import GENERATION_FAILED, ApiError
from .models import Workflow, WorkflowTask, WorkflowVariable

LOCALES = ["en", "zh-CN", "ja", "zh-Hant", "fr", "de-DE", "ko", "hi", "es", "ru", "de", "it", "tr", "pt",
           "vi", "id", "th", "ar", "mn", "fa"]
MAX_TASKS = 6

SPLIT = re.compile(
    r"(?:\r?\n)+|[.;!?。；！？]+(?:\s+|$)|,?\s+(?:and\s+)?then\s+|^\s*\d+[.)]\s+",
    re.IGNORECASE | re.MULTILINE,
)
LIST_MARKER = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s*")
PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z][A-Za-z0-9_\-]{0,63})\s*\}\}")
WORD = re.compile(r"\w", re.UNICODE)

TOOLSET_KEYWORDS = [
    ("web_search", ["search", "research", "look up", "news", "browse", "competitor", "web", "online"]),
    ("send_email", ["email", "e-mail", "mail ", "send", "notify"]),
    ("generate_doc", ["report", "document", "write", "draft", "summar", "memo", "article", "pdf"]),
    ("spreadsheet", ["table", "csv", "spreadsheet", "excel", "sheet"]),
    ("image_generation", ["image", "picture", "photo", "logo", "illustration"]),
    ("code_interpreter", ["calculate", "analy", "chart", "forecast", "statistic", "python"]),
]


def _steps(query: str) -> list[str]:
    steps = []
    for part in SPLIT.split(query):
        part = LIST_MARKER.sub("", (part or "").strip()).strip(" ,:-")
        if WORD.search(part):
            steps.append(part)
    if len(steps) > MAX_TASKS:  # fold the tail into the last task
        steps = steps[: MAX_TASKS - 1] + ["; ".join(steps[MAX_TASKS - 1:])]
    return steps


def _short_title(text: str, limit: int = 60, keep_placeholders: bool = False) -> str:
    text = " ".join(text.split())
    if not keep_placeholders:
        text = PLACEHOLDER.sub(lambda m: m.group(1), text)
    if len(text) > limit:
        cut = text[:limit].rsplit(" ", 1)[0] if " " in text[:limit] else text[:limit]
        text = cut.rstrip(",;:") + "…"
    return text[:1].upper() + text[1:]


def _toolsets(text: str) -> list[str]:
    lowered = f" {text.lower()} "
    return [name for name, words in TOOLSET_KEYWORDS if any(w in lowered for w in words)]


def build_plan(query: str) -> dict:
    steps = _steps(query)
    if not steps:
        raise ApiError(
            400,
            GENERATION_FAILED,
            "Workflow generation failed: no actionable step could be derived from the query.",
            model_response=json.dumps({"title": "", "tasks": []}),
        )
    variables = []
    for name in PLACEHOLDER.findall(query):
        if name not in variables:
            variables.append(name)
    tasks = []
    for index, step in enumerate(steps, start=1):
        tasks.append(
            {
                "id": f"task-{index}",
                "title": _short_title(step, 48, keep_placeholders=True),
                "prompt": step,
                "toolsets": _toolsets(step),
                "dependentTasks": [f"task-{index - 1}"] if index > 1 else [],
            }
        )
    return {
        "title": _short_title(steps[0]),
        "tasks": tasks,
        "variables": [{"name": n, "variableType": "string", "required": True} for n in variables],
    }


def _script_for(task: dict, plan: dict) -> tuple[list, list]:
    """Messages and files a generated task produces when it runs."""
    messages = []
    if task["toolsets"]:
        messages.append({"type": "ai", "content": f"Using {', '.join(task['toolsets'])} for: {task['prompt']}",
                         "at": 0.0})
        messages.append({"type": "tool", "content": f"{task['toolsets'][0]}: completed with 1 result set.",
                         "at": 0.35})
    messages.append(
        {
            "type": "ai",
            "reasoning": f"The step asks to: {task['prompt']}. Plan the answer, then write it.",
            "content": f"{task['title']}: done. {task['prompt']} — completed as requested.",
            "at": 0.45 if task["toolsets"] else 0.0,
            "stream": True,
        }
    )
    files = []
    if task is plan["tasks"][-1]:
        lines = [f"# {plan['title']}", "", "## Steps carried out", ""]
        lines += [f"{i}. **{t['title']}** — {t['prompt']}" for i, t in enumerate(plan["tasks"], start=1)]
        files.append({"name": "result.md", "type": "text/markdown", "content": "\n".join(lines) + "\n"})
    return messages, files


@transaction.atomic
def save_plan(tenant, plan: dict, locale: str, workflow: Workflow | None) -> Workflow:
    """Create a new canvas, or replace the plan on an existing one (cannot be undone)."""
    now = timezone.now()
    if workflow is None:
        workflow = Workflow.objects.create(tenant=tenant, title=plan["title"], locale=locale or "",
                                           created_at=now, updated_at=now)
    else:
        workflow.title = plan["title"]
        workflow.locale = locale or workflow.locale
        workflow.updated_at = now
        workflow.save(update_fields=["title", "locale", "updated_at"])
        workflow.tasks.all().delete()
        workflow.variables.all().delete()
    for position, task in enumerate(plan["tasks"]):
        messages, files = _script_for(task, plan)
        WorkflowTask.objects.create(
            workflow=workflow, position=position, task_id=task["id"], title=task["title"], prompt=task["prompt"],
            toolsets=task["toolsets"], dependent_tasks=task["dependentTasks"], duration_seconds=2.0,
            messages=messages, files=files,
        )
    for position, var in enumerate(plan["variables"]):
        WorkflowVariable.objects.create(workflow=workflow, position=position, name=var["name"],
                                        variable_type=var["variableType"], required=var["required"])
    return workflow
