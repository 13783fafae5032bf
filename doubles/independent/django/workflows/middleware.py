import uuid

from django.conf import settings
from .errors import PAYLOAD_TOO_LARGE, json_error, payload_too_large_message


class TraceIdMiddleware:
    """Gives every request a trace id (echoed in the envelope and the X-Trace-Id header).

    A caller-supplied X-Request-Id of sane length is reused so that logs can be correlated.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        supplied = request.headers.get("X-Request-Id", "")
        if supplied and len(supplied) <= 64 and supplied.isprintable():
            request.trace_id = supplied
        else:
            request.trace_id = uuid.uuid4().hex
        response = self.get_response(request)
        response["X-Trace-Id"] = request.trace_id
        return response


class PayloadLimitMiddleware:
    """SPEC 8 / E2005: request payloads above 100 KB are refused with 413 before parsing.

    Applies to every request body, uploads included (the specification states the limit for
    "request payload" without exceptions).
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        raw = request.META.get("CONTENT_LENGTH") or "0"
        try:
            length = int(raw)
        except ValueError:
            length = 0
        if length > settings.WF_MAX_PAYLOAD_BYTES:
            # Drain nothing: the connection is closed by gunicorn after the answer.
            response = json_error(request, 413, PAYLOAD_TOO_LARGE, payload_too_large_message())
            response["Connection"] = "close"
            return response
        return self.get_response(request)
