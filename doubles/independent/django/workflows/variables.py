"""Validation of run variables against a workflow's declared variables (SPEC 4.1)."""

import json

from django.conf import settings
from django.utils import timezone

from .errors import CONTENT_TOO_LARGE, UPLOAD_FILE_NOT_FOUND, INVALID_REQUEST_BODY, bad_request
from .models import UploadedFile, WorkflowVariable


def _scalar_text(value):
    """Strings as they are; numbers and booleans in their JSON spelling; else None."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return json.dumps(value)
    return None


def _is_empty(value):
    return value is None or (isinstance(value, str) and not value.strip()) or value == [] or value == {}


def resolve(workflow, tenant, given: dict):
    """Check the given values; return (values to store, text values for templates).

    Raises ApiError(400) on the first problem. Names the workflow does not declare are
    ignored (the legacy top-level form cannot tell variables from other fields).
    """
    declared = list(workflow.variables.all())
    stored, display = {}, {}
    used_uploads = []

    for var in declared:
        value = given.get(var.name)
        if _is_empty(value):
            if var.required:
                raise bad_request(f"Variable '{var.name}' is required.")
            value = var.default_value
            if _is_empty(value):
                display[var.name] = ""
                continue
            # defaults are trusted (they come from the workflow definition)
            stored[var.name] = value
            display[var.name] = value if isinstance(value, str) else ", ".join(map(str, value))
            continue

        if var.variable_type == WorkflowVariable.RESOURCE:
            keys = value if isinstance(value, list) else [value]
            if not all(isinstance(k, str) and k.strip() for k in keys):
                raise bad_request(
                    f"Variable '{var.name}' is a file variable: give a fileKey or an array of fileKeys "
                    "returned by /openapi/files/upload."
                )
            uploads = {u.file_key: u for u in UploadedFile.objects.filter(tenant=tenant, file_key__in=keys)}
            missing = [k for k in keys if k not in uploads]
            if missing:
                raise bad_request(f"Variable '{var.name}': unknown fileKey {', '.join(missing)}.",
                                  code=UPLOAD_FILE_NOT_FOUND)
            used_uploads.extend(uploads.values())
            stored[var.name] = value
            display[var.name] = ", ".join(uploads[k].file_name for k in keys)

        elif var.variable_type == WorkflowVariable.OPTION:
            choices = value if isinstance(value, list) else [value]
            texts = [_scalar_text(c) for c in choices]
            bad = [repr(c) for c, t in zip(choices, texts) if t is None or t not in var.options]
            if bad:
                raise bad_request(
                    f"Variable '{var.name}' must be one of: {', '.join(var.options)} (got {', '.join(bad)})."
                )
            stored[var.name] = texts if isinstance(value, list) else texts[0]
            display[var.name] = ", ".join(texts)

        else:  # string
            text = _scalar_text(value)
            if text is None:
                raise bad_request(f"Variable '{var.name}' must be a string.")
            if len(text) > settings.WF_MAX_CONTENT_CHARS:
                raise bad_request(
                    f"Variable '{var.name}' is too long; maximum length is 100k characters.",
                    code=CONTENT_TOO_LARGE,
                )
            stored[var.name] = text
            display[var.name] = text

    if used_uploads:
        UploadedFile.objects.filter(pk__in=[u.pk for u in used_uploads]).update(last_used_at=timezone.now())
    return stored, display


def extract_given(body) -> dict:
    """Variables from the `variables` wrapper and/or legacy top-level fields (SPEC 4.1, 9.2).

    When both forms name the same variable, the wrapper wins.
    """
    if body is None or body == "":
        return {}
    if not isinstance(body, dict):
        raise bad_request("Request body must be a JSON object.", code=INVALID_REQUEST_BODY)
    wrapped = body.get("variables")
    if wrapped is not None and not isinstance(wrapped, dict):
        raise bad_request("'variables' must be an object of name/value pairs.")
    given = {k: v for k, v in body.items() if k != "variables"}
    given.update(wrapped or {})
    return given
