"""Execution engine: plans an execution from a workflow and derives its state from time.

No worker thread drives an execution. When a run is accepted the engine computes, for every
node, a planned start and end (a node starts when all the tasks it depends on have
finished; independent nodes run side by side) and stores them. The state at any instant
is then a pure function of those timestamps, the abort time and the current time, so every
gunicorn worker (and every restart) sees the same progress.

Rules (see CHOICES.md):
* The execution is `init` until it is dispatched (WF_DISPATCH_DELAY_SECONDS x speed after
  the run), `executing` while nodes remain, `finish` when all nodes finished.
* The first node that fails terminates the execution (`failed`) at its end time; an abort
  terminates it at the abort time. At termination, nodes still executing become `failed`
  (with an error message saying why); nodes that had not started keep `init`/`waiting`.
* Messages stream in: a node that is executing (or was stopped) shows the part of its
  messages produced so far; files appear only once the producing node has finished.
"""

import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from .models import DriveFile, Execution, NodeExecution

ABORT_MESSAGE = "Execution aborted by the user; the action was stopped (E3004)."
PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z0-9_\-]+)\s*\}\}")


def render(text: str, values: dict) -> str:
    """Replace {{name}} placeholders by variable values (unknown names are left as is)."""

    def sub(match):
        name = match.group(1)
        return values[name] if name in values else match.group(0)

    return PLACEHOLDER.sub(sub, text or "")


def _plan_times(tasks, dispatched_at: datetime, speed: float):
    """Planned (start, end) per task id: start = max(end of dependencies)."""
    by_id = {t.task_id: t for t in tasks}
    times: dict[str, tuple[datetime, datetime]] = {}
    visiting: set[str] = set()

    def plan(task):
        if task.task_id in times:
            return times[task.task_id]
        if task.task_id in visiting:  # dependency cycle: treat the back edge as absent
            return None
        visiting.add(task.task_id)
        start = dispatched_at
        for dep_id in task.dependent_tasks or []:
            dep = by_id.get(dep_id)
            if dep is None or dep is task:
                continue
            dep_times = plan(dep)
            if dep_times and dep_times[1] > start:
                start = dep_times[1]
        visiting.discard(task.task_id)
        end = start + timedelta(seconds=max(task.duration_seconds, 0.05) * speed)
        times[task.task_id] = (start, end)
        return times[task.task_id]

    for task in tasks:
        plan(task)
    return times


@transaction.atomic
def start_execution(tenant, workflow, variables: dict, display_values: dict) -> Execution:
    """Snapshot the workflow into a new execution with planned node times."""
    speed = settings.WF_SPEED
    now = timezone.now()
    dispatched_at = now + timedelta(seconds=settings.WF_DISPATCH_DELAY_SECONDS * speed)
    tasks = list(workflow.tasks.all())
    times = _plan_times(tasks, dispatched_at, speed)

    execution = Execution.objects.create(
        tenant=tenant,
        workflow=workflow,
        canvas_id=workflow.canvas_id,
        title=workflow.title,
        variables=variables,
        created_at=now,
        dispatched_at=dispatched_at,
        status=Execution.INIT,
    )
    nodes, files = [], []
    for task in tasks:
        start, end = times[task.task_id]
        script = [
            {**m, "content": render(m.get("content", ""), display_values),
             "reasoning": render(m.get("reasoning", ""), display_values)}
            for m in task.messages
        ]
        nodes.append(
            NodeExecution(
                execution=execution,
                position=task.position,
                node_id=task.task_id,
                title=render(task.title, display_values),
                planned_start=start,
                planned_end=end,
                messages=script,
                fail_message=task.fail_message,
                status=NodeExecution.INIT,
            )
        )
        if not task.fail_message:
            for index, spec in enumerate(task.files):
                content = render(spec["content"], display_values).encode("utf-8")
                files.append(
                    DriveFile(
                        execution=execution,
                        node_id=task.task_id,
                        position=task.position * 100 + index,
                        name=render(spec["name"], display_values),
                        content_type=spec["type"],
                        content=content,
                        size=len(content),
                    )
                )
    NodeExecution.objects.bulk_create(nodes)
    DriveFile.objects.bulk_create(files)
    return execution


@dataclass
class NodeState:
    node: NodeExecution
    status: str
    progress: float = 0.0  # 0..1 share of the node's work done
    start_time: datetime | None = None
    end_time: datetime | None = None
    error_message: str | None = None


@dataclass
class ExecutionState:
    execution: Execution
    status: str
    nodes: list[NodeState] = field(default_factory=list)
    ended_at: datetime | None = None

    @property
    def terminal(self):
        return self.status in (Execution.FINISH, Execution.FAILED)

    def finished_node_ids(self):
        return {n.node.node_id for n in self.nodes if n.status == NodeExecution.FINISH}


def evaluate(execution: Execution, nodes: list[NodeExecution], now: datetime) -> ExecutionState:
    """Derive the state of an execution at `now` from its stored timestamps."""
    # Termination time: the abort, or the end of the first node that fails before it.
    termination = execution.aborted_at
    failing_node = None
    for node in sorted((n for n in nodes if n.fail_message), key=lambda n: n.planned_end):
        if termination is None or node.planned_end < termination:
            termination, failing_node = node.planned_end, node
        break
    terminated = termination is not None and termination <= now
    effective = min(now, termination) if terminated else now

    states = []
    for node in nodes:
        duration = (node.planned_end - node.planned_start).total_seconds() or 1e-6
        not_started = effective < node.planned_start or (terminated and node.planned_start >= termination)
        if not_started:
            status = NodeExecution.INIT if effective < execution.dispatched_at else NodeExecution.WAITING
            states.append(NodeState(node, status))
        elif effective >= node.planned_end:
            if node.fail_message:
                states.append(NodeState(node, NodeExecution.FAILED, 1.0, node.planned_start, node.planned_end,
                                        node.fail_message))
            else:
                states.append(NodeState(node, NodeExecution.FINISH, 1.0, node.planned_start, node.planned_end))
        else:
            progress = max(0.0, min(1.0, (effective - node.planned_start).total_seconds() / duration))
            if terminated:
                if failing_node is not None and execution.aborted_at != termination:
                    reason = f"Stopped because node '{failing_node.title}' ({failing_node.node_id}) failed."
                else:
                    reason = ABORT_MESSAGE
                states.append(NodeState(node, NodeExecution.FAILED, progress, node.planned_start, termination, reason))
            else:
                states.append(NodeState(node, NodeExecution.EXECUTING, progress, node.planned_start))

    if terminated:
        status, ended_at = Execution.FAILED, termination
    elif now < execution.dispatched_at:
        status, ended_at = Execution.INIT, None
    elif all(s.status == NodeExecution.FINISH for s in states):
        status = Execution.FINISH
        ended_at = max((n.planned_end for n in nodes), default=execution.dispatched_at)
    else:
        status, ended_at = Execution.EXECUTING, None
    return ExecutionState(execution, status, states, ended_at)


def load_state(execution: Execution, now: datetime | None = None) -> ExecutionState:
    """Evaluate and write the derived statuses back to the cache columns when they moved."""
    now = now or timezone.now()
    nodes = list(execution.nodes.all())
    state = evaluate(execution, nodes, now)
    changed_nodes = [s for s in state.nodes if s.node.status != s.status]
    if execution.status != state.status or changed_nodes:
        with transaction.atomic():
            if execution.status != state.status:
                Execution.objects.filter(pk=execution.pk).update(status=state.status, ended_at=state.ended_at)
                execution.status, execution.ended_at = state.status, state.ended_at
            for s in changed_nodes:
                NodeExecution.objects.filter(pk=s.node.pk).update(status=s.status)
                s.node.status = s.status
    return state


def abort(execution: Execution) -> ExecutionState:
    """Stop a running execution now; a no-op for an execution that already ended."""
    now = timezone.now()
    state = evaluate(execution, list(execution.nodes.all()), now)
    if not state.terminal:
        # Conditional update: concurrent aborts keep the first abort time.
        Execution.objects.filter(pk=execution.pk, aborted_at__isnull=True).update(aborted_at=now)
        execution.refresh_from_db()
    return load_state(execution, now)


def visible_messages(state: NodeState) -> list[dict]:
    """Messages of a node as far as they have been produced at its current progress."""
    if state.status in (NodeExecution.INIT, NodeExecution.WAITING):
        return []
    progress = state.progress
    complete = state.status == NodeExecution.FINISH or (
        state.status == NodeExecution.FAILED and state.progress >= 1.0
    )
    out = []
    for index, spec in enumerate(state.node.messages):
        at = float(spec.get("at", 0.0))
        if not complete and progress < at:
            continue
        content, reasoning = spec.get("content", ""), spec.get("reasoning", "")
        if spec.get("stream") and not complete:
            # reasoning streams over the first 30 % of the message's span, content after it
            span = max(1e-6, 1.0 - at)
            share = (progress - at) / span
            reasoning = reasoning[: int(len(reasoning) * min(1.0, share / 0.3))]
            content = content[: int(len(content) * max(0.0, (share - 0.3) / 0.7))]
        message = {
            "messageId": f"msg-{state.node.message_seed}-{index}",
            "content": content,
            "type": spec.get("type", "ai"),
        }
        if reasoning:
            message["reasoningContent"] = reasoning
        out.append(message)
    return out
