from django.urls import path

from . import views

urlpatterns = [
    path("openapi/workflow/<str:canvas_id>/run", views.RunWorkflowView.as_view(), name="workflow-run"),
    path("openapi/workflow/<str:execution_id>/abort", views.AbortExecutionView.as_view(), name="execution-abort"),
    path("openapi/workflow/<str:execution_id>/output", views.ExecutionOutputView.as_view(), name="execution-output"),
    path("openapi/workflow/<str:execution_id>/status", views.ExecutionStatusView.as_view(), name="execution-status"),
    path("openapi/workflows", views.WorkflowSearchView.as_view(), name="workflow-search"),
    path("openapi/workflows/<str:canvas_id>", views.WorkflowDetailView.as_view(), name="workflow-detail"),
    path("openapi/files/upload", views.FileUploadView.as_view(), name="file-upload"),
    path("openapi/copilot/workflow/generate", views.GenerateWorkflowView.as_view(), name="workflow-generate"),
    path("openapi/drive/files/<str:file_id>", views.DriveFileView.as_view(), name="drive-file"),
]
