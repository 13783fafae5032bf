package com.example.workflow.service

import com.example.workflow.config.WorkflowProperties
import com.example.workflow.domain.DriveFile
import com.example.workflow.domain.DriveFileRepository
import com.example.workflow.domain.Execution
import com.example.workflow.domain.ExecutionRepository
import com.example.workflow.domain.NodeExecution
import com.example.workflow.domain.StoredMessage
import com.example.workflow.domain.UploadedFileRepository
import com.example.workflow.domain.VariableType
import com.example.workflow.domain.Workflow
import com.example.workflow.domain.WorkflowRepository
import com.example.workflow.web.BadRequestException
import com.example.workflow.web.CanvasNotFoundException
import com.example.workflow.web.ErrorCodes
import com.example.workflow.web.ExecutionNotFoundException
import com.example.workflow.web.ExecutionOutputDto
import com.example.workflow.web.ExecutionStatusDto
import com.example.workflow.web.NodeExecutionDto
import com.example.workflow.web.OutputFileDto
import com.example.workflow.web.OutputMessageDto
import com.example.workflow.web.OutputNodeDto
import com.example.workflow.web.RunResultDto
import com.example.workflow.web.WorkflowApiDisabledException
import com.fasterxml.jackson.databind.ObjectMapper
import org.springframework.context.ApplicationEventPublisher
import org.springframework.stereotype.Service
import org.springframework.transaction.annotation.Transactional
import kotlin.math.roundToLong

@Service
class ExecutionService(
    private val workflows: WorkflowRepository,
    private val executions: ExecutionRepository,
    private val driveFiles: DriveFileRepository,
    private val uploads: UploadedFileRepository,
    private val engine: ExecutionEngine,
    private val content: ContentGenerator,
    private val events: ApplicationEventPublisher,
    private val props: WorkflowProperties,
    private val mapper: ObjectMapper,
) {
    /** Variables as resolved for one run: stored values, and a readable form for the generated content. */
    private data class ResolvedVariables(val stored: Map<String, Any?>, val display: Map<String, String>)

    private data class VariableError(val code: String, val message: String)

    @Transactional
    fun run(tenant: Tenant, canvasId: String, body: Map<String, Any?>?): RunResultDto {
        val wf = workflows.findByCanvasIdAndTenantId(canvasId, tenant.id) ?: throw CanvasNotFoundException(canvasId)
        if (!wf.apiEnabled) throw WorkflowApiDisabledException(canvasId)
        val resolved = resolveVariables(tenant, wf, extractVariables(body))

        val exec = Execution(
            executionId = Ids.executionId(),
            tenantId = tenant.id,
            canvasId = wf.canvasId,
            title = wf.title,
            variables = resolved.stored,
            createdAt = now(),
        )
        for (task in wf.tasks) {
            val transcript = content.transcript(exec.executionId + task.taskId, task, wf.title, resolved.display)
            val aiText = transcript.lastOrNull { it.type == "ai" }?.content.orEmpty()
            exec.addNode(
                NodeExecution(
                    nodeId = task.taskId,
                    title = task.title,
                    dependsOn = task.dependentTasks,
                    durationMs = (task.durationMs * props.speed).roundToLong(),
                    failureMessage = task.failureMessage,
                    outputFileName = task.outputFileName,
                    outputFileType = task.outputFileType,
                    transcript = transcript,
                    fileContent = task.outputFileName?.let {
                        content.fileContent(it, task.outputFileType ?: "", task, wf.title, exec.executionId, resolved.display, aiText)
                    },
                )
            )
        }
        executions.save(exec)
        events.publishEvent(ExecutionCreatedEvent(exec.executionId))
        return RunResultDto(exec.executionId, exec.status.json)
    }

    @Transactional(readOnly = true)
    fun status(tenant: Tenant, executionId: String): ExecutionStatusDto {
        val exec = find(tenant, executionId)
        return ExecutionStatusDto(
            executionId = exec.executionId,
            status = exec.status.json,
            nodeExecutions = exec.nodes.map { NodeExecutionDto(it.nodeId, it.status.json, it.title, it.errorMessage) },
            createdAt = exec.createdAt,
        )
    }

    @Transactional(readOnly = true)
    fun output(tenant: Tenant, executionId: String, fileUrl: (DriveFile) -> String): ExecutionOutputDto {
        val exec = find(tenant, executionId)
        val at = now()
        val nodes = exec.nodes.map { node ->
            OutputNodeDto(
                nodeId = node.nodeId,
                title = node.title,
                status = node.status.json,
                errorMessage = node.errorMessage,
                startTime = node.startTime,
                endTime = node.endTime,
                messages = reveal(node.transcript, ExecutionEngine.progress(node, at)),
            )
        }
        val files = driveFiles.findByExecutionIdOrderByCreatedAtAscFileIdAsc(exec.executionId)
            .map { OutputFileDto(it.name, it.type, it.size, it.nodeId, fileUrl(it)) }
        return ExecutionOutputDto(nodes, files)
    }

    fun abort(tenant: Tenant, executionId: String) {
        // existence/ownership check first (404), then the locked transition; a finished execution is a no-op
        executions.findByExecutionIdAndTenantId(executionId, tenant.id) ?: throw ExecutionNotFoundException(executionId)
        engine.abort(executionId)
    }

    @Transactional(readOnly = true)
    fun driveFile(tenant: Tenant, fileId: String): DriveFile =
        driveFiles.findByFileIdAndTenantId(fileId, tenant.id)
            ?: throw com.example.workflow.web.ApiException(
                org.springframework.http.HttpStatus.NOT_FOUND, ErrorCodes.DRIVE_FILE_NOT_FOUND, "Drive file '$fileId' not found",
            )

    private fun find(tenant: Tenant, executionId: String): Execution =
        executions.findByExecutionIdAndTenantId(executionId, tenant.id) ?: throw ExecutionNotFoundException(executionId)

    /** Partial transcript: reasoning then content of each message, up to the share produced so far. */
    private fun reveal(transcript: List<StoredMessage>, progress: Double): List<OutputMessageDto> {
        if (progress <= 0.0) return emptyList()
        val total = transcript.sumOf { (it.reasoningContent?.length ?: 0) + it.content.length }
        var budget = if (progress >= 1.0) total else (total * progress).toInt()
        val out = mutableListOf<OutputMessageDto>()
        for (m in transcript) {
            if (budget <= 0) break
            val r = m.reasoningContent
            val rTaken = r?.take(budget)
            budget -= rTaken?.length ?: 0
            val cTaken = m.content.take(budget.coerceAtLeast(0))
            budget -= cTaken.length
            out += OutputMessageDto(m.messageId, m.type, cTaken, rTaken)
        }
        return out
    }

    // ---- variables ----------------------------------------------------------------------------------

    /** `variables` object (recommended) merged over legacy top-level fields (section 4.1 / 9.2). */
    private fun extractVariables(body: Map<String, Any?>?): Map<String, Any?> {
        if (body == null) return emptyMap()
        val result = LinkedHashMap<String, Any?>()
        body.forEach { (k, v) -> if (k != "variables") result[k] = v }
        when (val wrapper = body["variables"]) {
            null -> Unit
            is Map<*, *> -> wrapper.forEach { (k, v) -> result[k.toString()] = v }
            else -> throw BadRequestException(ErrorCodes.INVALID_REQUEST_BODY, "'variables' must be a JSON object of name/value pairs")
        }
        return result
    }

    private fun resolveVariables(tenant: Tenant, wf: Workflow, supplied: Map<String, Any?>): ResolvedVariables {
        val errors = mutableListOf<VariableError>()
        val stored = LinkedHashMap<String, Any?>()
        val display = LinkedHashMap<String, String>()
        val at = now()
        for (v in wf.variables) {
            val raw = supplied[v.name]
            if (isEmptyValue(raw)) {
                if (v.required) errors += VariableError(ErrorCodes.INVALID_REQUEST_BODY, "Missing required variable '${v.name}'")
                continue
            }
            when (v.variableType) {
                VariableType.STRING -> {
                    val text = asText(raw)
                    if (text.length > props.maxContentChars) {
                        errors += VariableError(ErrorCodes.CONTENT_TOO_LARGE,
                            "Variable '${v.name}' is too large; maximum length ${props.maxContentChars / 1000}k characters")
                    } else {
                        stored[v.name] = raw
                        display[v.name] = text
                    }
                }
                VariableType.OPTION -> {
                    val values = when (raw) {
                        is String -> listOf(raw)
                        is List<*> -> if (raw.all { it is String }) raw.map { it as String } else null
                        else -> null
                    }
                    val invalid = values?.filterNot { it in v.options }
                    if (values == null || invalid!!.isNotEmpty()) {
                        errors += VariableError(ErrorCodes.INVALID_REQUEST_BODY,
                            "Variable '${v.name}' must be one of: ${v.options.joinToString(", ")}")
                    } else {
                        stored[v.name] = raw
                        display[v.name] = values.joinToString(", ")
                    }
                }
                VariableType.RESOURCE -> {
                    val keys = fileKeys(raw)
                    if (keys == null) {
                        errors += VariableError(ErrorCodes.INVALID_REQUEST_BODY,
                            "Variable '${v.name}' must be a fileKey or an array of fileKeys returned by /openapi/files/upload")
                        continue
                    }
                    val names = mutableListOf<String>()
                    for (key in keys) {
                        val file = uploads.findByFileKeyAndTenantId(key, tenant.id)
                        if (file == null) {
                            errors += VariableError(ErrorCodes.UPLOAD_FILE_NOT_FOUND, "Upload file not found: fileKey '$key' (variable '${v.name}')")
                        } else {
                            file.usedAt = file.usedAt ?: at
                            names += file.fileName
                        }
                    }
                    stored[v.name] = keys
                    display[v.name] = names.joinToString(", ")
                }
            }
        }
        if (errors.isNotEmpty()) {
            val codes = errors.map { it.code }.distinct()
            throw BadRequestException(codes.singleOrNull() ?: ErrorCodes.INVALID_REQUEST_BODY, errors.joinToString("; ") { it.message })
        }
        return ResolvedVariables(stored, display)
    }

    private fun isEmptyValue(v: Any?): Boolean = when (v) {
        null -> true
        is String -> v.isBlank()
        is Collection<*> -> v.isEmpty()
        is Map<*, *> -> v.isEmpty()
        else -> false
    }

    private fun asText(v: Any?): String = when (v) {
        null -> ""
        is String -> v
        is Number, is Boolean -> v.toString()
        is List<*> -> v.joinToString(", ") { asText(it) }
        else -> mapper.writeValueAsString(v)
    }

    /** Accepts "fk-..", ["fk-..", ..], {"fileKey": ".."} or [{"fileKey": ".."}, ..]. */
    private fun fileKeys(raw: Any?): List<String>? {
        fun one(x: Any?): String? = when (x) {
            is String -> x.trim().takeIf { it.isNotEmpty() }
            is Map<*, *> -> (x["fileKey"] as? String)?.trim()?.takeIf { it.isNotEmpty() }
            else -> null
        }
        return when (raw) {
            is List<*> -> raw.map { one(it) ?: return null }.distinct()
            else -> one(raw)?.let { listOf(it) }
        }
    }
}
