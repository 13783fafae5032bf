"""Error codes, the response envelope and the error handlers.

Every answer uses the envelope of SPEC 2.1. Errors carry ``success: false``, an ``errCode``
(from the catalogue of SPEC 7 where one fits), a readable ``errMsg`` and the request's
``traceId``; the HTTP status is the one SPEC 4 lists for the situation. The 400 answers of
workflow generation additionally carry the body of SPEC 4.8 (statusCode, message, error,
modelResponse).
"""

import logging
import traceback

from django.conf import settings
from django.core.exceptions import PermissionDenied, RequestDataTooBig, SuspiciousOperation
from django.http import Http404, JsonResponse
from rest_framework import exceptions, status
from rest_framework.response import Response

log = logging.getLogger(__name__)

# Codes from the catalogue of SPEC 7
CANVAS_NOT_FOUND = "CANVAS_NOT_FOUND"
INVALID_REQUEST_BODY = "INVALID_REQUEST_BODY"
UNKNOWN_ERROR = "E0000"
PARAMETER_ERROR = "E0003"
AUTHORIZATION_FAILED = "E0004"
UPLOAD_FILE_NOT_FOUND = "E1012"
EXECUTION_NOT_FOUND = "E1021"
DRIVE_FILE_NOT_FOUND = "E1024"
CONTENT_TOO_LARGE = "E2004"
PAYLOAD_TOO_LARGE = "E2005"
CONTENT_TYPE_NOT_ALLOWED = "E3009"
# Situations the catalogue has no code for
WORKFLOW_API_DISABLED = "WORKFLOW_API_DISABLED"
GENERATION_FAILED = "WORKFLOW_GENERATION_FAILED"
NOT_FOUND = "NOT_FOUND"
METHOD_NOT_ALLOWED = "METHOD_NOT_ALLOWED"
BAD_REQUEST = "BAD_REQUEST"

HTTP_REASONS = {
    400: "Bad Request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not Found",
    405: "Method Not Allowed",
    413: "Payload Too Large",
    415: "Unsupported Media Type",
    500: "Internal Server Error",
}


class ApiError(exceptions.APIException):
    """An error answer with an explicit HTTP status and error code."""

    def __init__(self, http_status, code, message, model_response=None):
        self.status_code = http_status
        self.err_code = code
        self.model_response = model_response
        super().__init__(detail=message, code=code)


def bad_request(message, code=INVALID_REQUEST_BODY):
    return ApiError(status.HTTP_400_BAD_REQUEST, code, message)


def not_found(message, code):
    return ApiError(status.HTTP_404_NOT_FOUND, code, message)


def trace_id_of(request):
    return getattr(request, "trace_id", None) or getattr(getattr(request, "_request", None), "trace_id", None)


def envelope(request, data=None, include_data=True):
    body = {"success": True, "traceId": trace_id_of(request)}
    if include_data:
        body["data"] = data
    return body


def error_body(request, http_status, code, message, *, copilot=False, model_response=None, stack=None):
    body = {"success": False, "errCode": code, "errMsg": message, "traceId": trace_id_of(request)}
    if stack and settings.DEBUG:
        body["stack"] = stack
    if copilot and http_status == 400:
        # SPEC 4.8: the 400 body of workflow generation
        body.update(
            {
                "statusCode": 400,
                "message": message,
                "error": HTTP_REASONS[400],
            }
        )
        if model_response is not None:
            body["modelResponse"] = model_response[:2000]
    return body


def _flatten_validation(detail, prefix=""):
    """Turn DRF's nested validation detail into one readable sentence."""
    if isinstance(detail, dict):
        parts = []
        for key, value in detail.items():
            name = "" if key == "non_field_errors" else (f"{prefix}{key}" if not prefix else f"{prefix}.{key}")
            parts.extend(_flatten_validation(value, name))
        return parts
    if isinstance(detail, list):
        parts = []
        for item in detail:
            parts.extend(_flatten_validation(item, prefix))
        return parts
    text = str(detail)
    return [f"{prefix}: {text}" if prefix else text]


def api_exception_handler(exc, context):
    """DRF EXCEPTION_HANDLER: every exception raised in an API view becomes an envelope."""
    request = context.get("request")
    view = context.get("view")
    copilot = getattr(view, "copilot_error_body", False)
    headers = {}
    model_response = None

    if isinstance(exc, Http404):
        exc = not_found("Not found.", NOT_FOUND)
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    elif isinstance(exc, RequestDataTooBig):
        exc = ApiError(413, PAYLOAD_TOO_LARGE, payload_too_large_message())

    if isinstance(exc, ApiError):
        http_status, code, message = exc.status_code, exc.err_code, str(exc.detail)
        model_response = exc.model_response
    elif isinstance(exc, exceptions.ValidationError):
        http_status, code = 400, INVALID_REQUEST_BODY
        message = "; ".join(_flatten_validation(exc.detail)) or "Invalid request parameters."
    elif isinstance(exc, exceptions.ParseError):
        http_status, code, message = 400, INVALID_REQUEST_BODY, f"Request body is not valid JSON: {exc.detail}"
    elif isinstance(exc, (exceptions.NotAuthenticated, exceptions.AuthenticationFailed)):
        http_status, code = 401, AUTHORIZATION_FAILED
        message = str(exc.detail)
        if isinstance(exc, exceptions.NotAuthenticated):
            message = "Missing API key; send the header 'Authorization: Bearer <API_KEY>'."
        auth_header = view.get_authenticate_header(request) if view is not None else None
        if auth_header:
            headers["WWW-Authenticate"] = auth_header
    elif isinstance(exc, exceptions.MethodNotAllowed):
        http_status, code, message = 405, METHOD_NOT_ALLOWED, str(exc.detail)
        if view is not None:
            headers["Allow"] = ", ".join(view.allowed_methods)
    elif isinstance(exc, exceptions.UnsupportedMediaType):
        http_status, code, message = 415, CONTENT_TYPE_NOT_ALLOWED, str(exc.detail)
    elif isinstance(exc, exceptions.APIException):
        http_status = exc.status_code
        code = {403: "FORBIDDEN", 404: NOT_FOUND}.get(http_status, BAD_REQUEST if http_status < 500 else UNKNOWN_ERROR)
        message = str(exc.detail)
    else:
        return None  # unexpected: Django's handler500 answers (see handler500 below)

    body = error_body(request, http_status, code, message, copilot=copilot, model_response=model_response)
    return Response(body, status=http_status, headers=headers)


def payload_too_large_message():
    limit = settings.WF_MAX_PAYLOAD_BYTES
    return f"Request payload too large; maximum size is {limit // 1024}KB ({limit} bytes)."


# --- Django-level handlers: paths that match no route, and crashes ---------------------


def json_error(request, http_status, code, message, **kwargs):
    """A JsonResponse with the same compact encoding as DRF's JSONRenderer."""
    return JsonResponse(error_body(request, http_status, code, message, **kwargs), status=http_status,
                        json_dumps_params={"separators": (",", ":"), "ensure_ascii": False})


def handler400(request, exception=None):
    if isinstance(exception, RequestDataTooBig):
        return json_error(request, 413, PAYLOAD_TOO_LARGE, payload_too_large_message())
    message = "Bad request."
    if isinstance(exception, SuspiciousOperation):
        message = "Bad request: the request was rejected as malformed."
    return json_error(request, 400, BAD_REQUEST, message)


def handler404(request, exception=None):
    return json_error(request, 404, NOT_FOUND, f"No endpoint matches {request.method} {request.path}.")


def handler500(request):
    return json_error(request, 500, UNKNOWN_ERROR, "Unknown error, retry later.", stack=traceback.format_exc())
