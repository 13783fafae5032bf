"""HTTP endpoints of SPEC 4 (all under /v1, all authenticated by API key)."""

import logging
import os
from datetime import timedelta, timezone as dt_timezone

from django.conf import settings
from django.db import transaction
from django.http import HttpResponse
from django.utils import timezone
from rest_framework import generics
from rest_framework.parsers import MultiPartParser
from rest_framework.response import Response
from rest_framework.views import APIView

from . import engine, generator, variables
from .errors import (
    CANVAS_NOT_FOUND,
    DRIVE_FILE_NOT_FOUND,
    EXECUTION_NOT_FOUND,
    PAYLOAD_TOO_LARGE,
    WORKFLOW_API_DISABLED,
    ApiError,
    envelope,
    not_found,
    payload_too_large_message,
)
from .models import DriveFile, Execution, UploadedFile, Workflow
from .pagination import WorkflowSearchPagination
from .serializers import (
    GenerateRequestSerializer,
    SearchItemSerializer,
    UploadRequestSerializer,
    WorkflowPlanSerializer,
)

log = logging.getLogger(__name__)


def iso(dt):
    """RFC 3339 UTC timestamp with milliseconds, e.g. 2025-03-01T09:30:00.250Z."""
    if dt is None:
        return None
    dt = dt.astimezone(dt_timezone.utc)
    return dt.strftime("%Y-%m-%dT%H:%M:%S.") + f"{dt.microsecond // 1000:03d}Z"


def get_workflow(tenant, canvas_id) -> Workflow:
    workflow = Workflow.objects.filter(tenant=tenant, canvas_id=canvas_id).first()
    if workflow is None:
        raise not_found(f"Workflow '{canvas_id}' not found.", CANVAS_NOT_FOUND)
    return workflow


def get_execution(tenant, execution_id) -> Execution:
    execution = Execution.objects.filter(tenant=tenant, execution_id=execution_id).first()
    if execution is None:
        raise not_found(f"Workflow execution '{execution_id}' not found.", EXECUTION_NOT_FOUND)
    return execution


class RunWorkflowView(APIView):
    """POST /openapi/workflow/{canvasId}/run"""

    def post(self, request, canvas_id):
        workflow = get_workflow(request.user, canvas_id)
        if not workflow.api_enabled:
            raise ApiError(403, WORKFLOW_API_DISABLED,
                           f"The workflow API is disabled for workflow '{canvas_id}'.")
        given = variables.extract_given(request.data)
        stored, display = variables.resolve(workflow, request.user, given)
        execution = engine.start_execution(request.user, workflow, stored, display)
        log.info("execution %s started for %s", execution.execution_id, workflow.canvas_id)
        return Response(envelope(request, {"executionId": execution.execution_id, "status": execution.status}))


class AbortExecutionView(APIView):
    """POST /openapi/workflow/{executionId}/abort"""

    def post(self, request, execution_id):
        execution = get_execution(request.user, execution_id)
        engine.abort(execution)
        return Response(envelope(request, include_data=False))


class ExecutionStatusView(APIView):
    """GET /openapi/workflow/{executionId}/status"""

    def get(self, request, execution_id):
        execution = get_execution(request.user, execution_id)
        state = engine.load_state(execution)
        nodes = []
        for node_state in state.nodes:
            item = {"nodeId": node_state.node.node_id, "status": node_state.status, "title": node_state.node.title}
            if node_state.error_message:
                item["errorMessage"] = node_state.error_message
            nodes.append(item)
        return Response(envelope(request, {
            "executionId": execution.execution_id,
            "status": state.status,
            "nodeExecutions": nodes,
            "createdAt": iso(execution.created_at),
        }))


class ExecutionOutputView(APIView):
    """GET /openapi/workflow/{executionId}/output"""

    def get(self, request, execution_id):
        execution = get_execution(request.user, execution_id)
        state = engine.load_state(execution)
        output = []
        for node_state in state.nodes:
            item = {"nodeId": node_state.node.node_id, "title": node_state.node.title, "status": node_state.status}
            if node_state.error_message:
                item["errorMessage"] = node_state.error_message
            if node_state.start_time:
                item["startTime"] = iso(node_state.start_time)
            if node_state.end_time:
                item["endTime"] = iso(node_state.end_time)
            item["messages"] = engine.visible_messages(node_state)
            output.append(item)
        finished = state.finished_node_ids()
        files = [
            {
                "name": f.name,
                "type": f.content_type,
                "size": f.size,
                "nodeId": f.node_id,
                "url": request.build_absolute_uri(f"/v1/openapi/drive/files/{f.file_id}"),
            }
            for f in execution.files.defer("content")
            if f.node_id in finished
        ]
        return Response(envelope(request, {"output": output, "files": files}))


class WorkflowSearchView(generics.ListAPIView):
    """GET /openapi/workflows?keyword=&order=&page=&pageSize="""

    serializer_class = SearchItemSerializer
    pagination_class = WorkflowSearchPagination
    ORDERS = {
        "creationAsc": ("created_at", "canvas_id"),
        "creationDesc": ("-created_at", "-canvas_id"),
        "updationAsc": ("updated_at", "canvas_id"),
        "updationDesc": ("-updated_at", "-canvas_id"),
    }
    DEFAULT_ORDER = "updationDesc"

    def get_queryset(self):
        queryset = Workflow.objects.filter(tenant=self.request.user)
        keyword = self.request.query_params.get("keyword", "").strip()
        if keyword:
            queryset = queryset.filter(title__icontains=keyword)
        order = self.request.query_params.get("order", "")
        return queryset.order_by(*self.ORDERS.get(order, self.ORDERS[self.DEFAULT_ORDER]))


class WorkflowDetailView(generics.RetrieveAPIView):
    """GET /openapi/workflows/{canvasId}"""

    serializer_class = WorkflowPlanSerializer

    def get_object(self):
        workflow = get_workflow(self.request.user, self.kwargs["canvas_id"])
        return Workflow.objects.prefetch_related("tasks", "variables").get(pk=workflow.pk)

    def retrieve(self, request, *args, **kwargs):
        return Response(envelope(request, self.get_serializer(self.get_object()).data))


def purge_stale_uploads():
    """SPEC 4.7: unused uploads are cleaned up after about 24 hours."""
    cutoff = timezone.now() - timedelta(hours=settings.WF_UPLOAD_RETENTION_HOURS)
    stale = list(UploadedFile.objects.filter(last_used_at__isnull=True, created_at__lt=cutoff))
    for upload in stale:
        upload.file.delete(save=False)
        upload.delete()
    return len(stale)


class FileUploadView(APIView):
    """POST /openapi/files/upload (multipart/form-data, field `files`)"""

    parser_classes = [MultiPartParser]

    def post(self, request):
        serializer = UploadRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        files = serializer.validated_data["files"]
        if sum(f.size for f in files) > settings.WF_MAX_PAYLOAD_BYTES:
            raise ApiError(413, PAYLOAD_TOO_LARGE, payload_too_large_message())
        purge_stale_uploads()
        saved = []
        with transaction.atomic():
            for uploaded in files:
                name = os.path.basename((uploaded.name or "").replace("\\", "/")) or "upload"
                record = UploadedFile(tenant=request.user, file_name=name[:255],
                                      content_type=uploaded.content_type or "", size=uploaded.size)
                record.file.save(record.file_key, uploaded, save=False)
                record.save()
                saved.append({"fileKey": record.file_key, "fileName": record.file_name})
        return Response(envelope(request, {"files": saved}))


class GenerateWorkflowView(APIView):
    """POST /openapi/copilot/workflow/generate"""

    copilot_error_body = True  # 400 answers carry statusCode/message/error (SPEC 4.8)

    def post(self, request):
        serializer = GenerateRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        target = None
        if data.get("canvasId"):
            target = get_workflow(request.user, data["canvasId"])
        plan = generator.build_plan(data["query"])
        workflow = generator.save_plan(request.user, plan, data.get("locale") or "", target)
        workflow = Workflow.objects.prefetch_related("tasks", "variables").get(pk=workflow.pk)
        return Response(envelope(request, {
            "canvasId": workflow.canvas_id,
            "workflowPlan": WorkflowPlanSerializer(workflow).data,
        }))


class DriveFileView(APIView):
    """GET /openapi/drive/files/{fileId}: the file behind an output `url` (not in SPEC 4)."""

    def get(self, request, file_id):
        drive_file = DriveFile.objects.filter(file_id=file_id, execution__tenant=request.user).first()
        if drive_file is None or drive_file.node_id not in engine.load_state(drive_file.execution).finished_node_ids():
            raise not_found(f"Drive file '{file_id}' not found.", DRIVE_FILE_NOT_FOUND)
        response = HttpResponse(bytes(drive_file.content), content_type=drive_file.content_type)
        response["Content-Disposition"] = f'attachment; filename="{drive_file.name}"'
        return response
