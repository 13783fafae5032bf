package com.example.workflow.web

import com.fasterxml.jackson.annotation.JsonInclude
import com.fasterxml.jackson.annotation.JsonPropertyOrder
import jakarta.validation.constraints.NotBlank
import jakarta.validation.constraints.Pattern
import jakarta.validation.constraints.Size
import java.time.Instant

// ---- 2.2 run / status -------------------------------------------------------------------------
@JsonPropertyOrder("executionId", "status")
data class RunResultDto(val executionId: String, val status: String)

@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder("nodeId", "status", "title", "errorMessage")
data class NodeExecutionDto(val nodeId: String, val status: String, val title: String, val errorMessage: String?)

@JsonPropertyOrder("executionId", "status", "nodeExecutions", "createdAt")
data class ExecutionStatusDto(
    val executionId: String,
    val status: String,
    val nodeExecutions: List<NodeExecutionDto>,
    val createdAt: Instant,
)

// ---- 2.3 output ---------------------------------------------------------------------------------
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder("messageId", "type", "content", "reasoningContent")
data class OutputMessageDto(val messageId: String, val type: String, val content: String?, val reasoningContent: String?)

@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder("nodeId", "title", "status", "errorMessage", "startTime", "endTime", "messages")
data class OutputNodeDto(
    val nodeId: String,
    val title: String,
    val status: String,
    val errorMessage: String?,
    val startTime: Instant?,
    val endTime: Instant?,
    val messages: List<OutputMessageDto>,
)

@JsonPropertyOrder("name", "type", "size", "nodeId", "url")
data class OutputFileDto(val name: String, val type: String, val size: Long, val nodeId: String, val url: String)

data class ExecutionOutputDto(val output: List<OutputNodeDto>, val files: List<OutputFileDto>)

// ---- 2.4 / 2.5 workflows ------------------------------------------------------------------------
@JsonPropertyOrder("canvasId", "title")
data class WorkflowSummaryDto(val canvasId: String, val title: String)

@JsonPropertyOrder("id", "title", "prompt", "toolsets", "dependentTasks")
data class TaskDto(
    val id: String,
    val title: String,
    val prompt: String,
    val toolsets: List<String>,
    val dependentTasks: List<String>,
)

@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder("name", "variableType", "required", "options")
data class VariableDto(val name: String, val variableType: String, val required: Boolean, val options: List<String>?)

@JsonPropertyOrder("title", "tasks", "variables")
data class WorkflowPlanDto(val title: String, val tasks: List<TaskDto>, val variables: List<VariableDto>)

// ---- 2.6 upload ---------------------------------------------------------------------------------
@JsonPropertyOrder("fileKey", "fileName")
data class UploadedFileDto(val fileKey: String, val fileName: String)

data class UploadResultDto(val files: List<UploadedFileDto>)

// ---- 4.8 generate -------------------------------------------------------------------------------
const val LOCALE_PATTERN =
    "(?i)en|zh-CN|ja|zh-Hant|fr|de-DE|ko|hi|es|ru|de|it|tr|pt|vi|id|th|ar|mn|fa"

data class GenerateWorkflowRequest(
    @field:NotBlank(message = "query is required")
    @field:Size(max = 100_000, message = "content too large; maximum length 100k characters")
    val query: String?,
    @field:Size(min = 1, max = 64, message = "canvasId must be 1 to 64 characters")
    @field:Pattern(regexp = "\\S+", message = "canvasId must not be blank")
    val canvasId: String?,
    @field:Pattern(
        regexp = LOCALE_PATTERN,
        message = "locale must be one of: en, zh-CN, ja, zh-Hant, fr, de-DE, ko, hi, es, ru, de, it, tr, pt, vi, id, th, ar, mn, fa",
    )
    val locale: String?,
)

@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder("canvasId", "workflowPlan")
data class GenerateResultDto(val canvasId: String?, val workflowPlan: WorkflowPlanDto)
