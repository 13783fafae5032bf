from django.conf import settings
from rest_framework.pagination import BasePagination
from rest_framework.response import Response

from .errors import envelope


def _positive_int(raw, default, maximum=None):
    """Lenient parsing: missing, malformed or non-positive values fall back to the default."""
    try:
        value = int(str(raw).strip())
    except (TypeError, ValueError):
        return default
    if value < 1:
        return default
    return min(value, maximum) if maximum else value


class WorkflowSearchPagination(BasePagination):
    """1-based `page` and `pageSize` (default 20, at most 100); data is a bare array (SPEC 4.5).

    A page past the end is an empty array, not an error.
    """

    def paginate_queryset(self, queryset, request, view=None):
        self.request = request
        page = _positive_int(request.query_params.get("page"), 1)
        size = _positive_int(request.query_params.get("pageSize"), settings.WF_PAGE_SIZE_DEFAULT,
                             settings.WF_PAGE_SIZE_MAX)
        offset = (page - 1) * size
        return list(queryset[offset: offset + size])

    def get_paginated_response(self, data):
        return Response(envelope(self.request, data))
