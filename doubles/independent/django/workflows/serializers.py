from django.conf import settings
from rest_framework import serializers

from .errors import CONTENT_TOO_LARGE, ApiError
from .generator import LOCALES
from .models import Workflow, WorkflowTask, WorkflowVariable


# --- output: workflow plan (SPEC 2.4, 2.5) -----------------------------------------------


class SearchItemSerializer(serializers.ModelSerializer):
    canvasId = serializers.CharField(source="canvas_id")

    class Meta:
        model = Workflow
        fields = ["canvasId", "title"]


class TaskSerializer(serializers.ModelSerializer):
    id = serializers.CharField(source="task_id")
    dependentTasks = serializers.ListField(source="dependent_tasks", child=serializers.CharField())

    class Meta:
        model = WorkflowTask
        fields = ["id", "title", "prompt", "toolsets", "dependentTasks"]


class VariableSerializer(serializers.ModelSerializer):
    variableType = serializers.CharField(source="variable_type")

    class Meta:
        model = WorkflowVariable
        fields = ["name", "variableType", "required", "options"]

    def to_representation(self, instance):
        data = super().to_representation(instance)
        if instance.variable_type != WorkflowVariable.OPTION:
            data.pop("options")  # SPEC 2.5: options only for type option
        return data


class WorkflowPlanSerializer(serializers.ModelSerializer):
    tasks = TaskSerializer(many=True)
    variables = VariableSerializer(many=True)

    class Meta:
        model = Workflow
        fields = ["title", "tasks", "variables"]


# --- input ----------------------------------------------------------------------------------


class StrictCharField(serializers.CharField):
    """A CharField that refuses numbers and booleans instead of converting them."""

    def to_internal_value(self, data):
        if not isinstance(data, str):
            raise serializers.ValidationError("Must be a string.")
        return super().to_internal_value(data)


class GenerateRequestSerializer(serializers.Serializer):
    query = StrictCharField()
    canvasId = StrictCharField(required=False, allow_null=True)
    locale = serializers.ChoiceField(choices=LOCALES, required=False, allow_null=True)

    def validate_query(self, value):
        if len(value) > settings.WF_MAX_CONTENT_CHARS:
            raise ApiError(400, CONTENT_TOO_LARGE, "Query too long; maximum length is 100k characters.")
        return value


class UploadRequestSerializer(serializers.Serializer):
    files = serializers.ListField(
        child=serializers.FileField(allow_empty_file=True, use_url=False),
        allow_empty=False,
        max_length=settings.WF_MAX_FILES_PER_UPLOAD,
        error_messages={"required": "Give at least one file in the multipart field 'files'."},
    )
