package com.example.workflow.web

import com.example.workflow.service.CopilotService
import com.example.workflow.service.ExecutionService
import com.example.workflow.service.Tenant
import com.example.workflow.service.UploadService
import com.example.workflow.service.WorkflowService
import jakarta.validation.Valid
import org.springframework.http.ContentDisposition
import org.springframework.http.HttpHeaders
import org.springframework.http.MediaType
import org.springframework.http.ResponseEntity
import org.springframework.web.bind.annotation.GetMapping
import org.springframework.web.bind.annotation.PathVariable
import org.springframework.web.bind.annotation.PostMapping
import org.springframework.web.bind.annotation.RequestAttribute
import org.springframework.web.bind.annotation.RequestBody
import org.springframework.web.bind.annotation.RequestMapping
import org.springframework.web.bind.annotation.RequestParam
import org.springframework.web.bind.annotation.RestController
import org.springframework.web.multipart.MultipartFile
import org.springframework.web.servlet.support.ServletUriComponentsBuilder

private const val TENANT = ApiKeyAuthFilter.TENANT_ATTRIBUTE

/** 4.1 – 4.4: run a workflow and follow its execution. All paths are prefixed with /v1 (WebConfig). */
@RestController
@RequestMapping("/openapi/workflow")
class WorkflowExecutionController(private val executions: ExecutionService) {

    @PostMapping("/{canvasId}/run")
    fun run(
        @RequestAttribute(TENANT) tenant: Tenant,
        @PathVariable canvasId: String,
        @RequestBody(required = false) body: Map<String, Any?>?,
    ): ApiResponse<RunResultDto> = ApiResponse.ok(executions.run(tenant, canvasId, body))

    @PostMapping("/{executionId}/abort")
    fun abort(@RequestAttribute(TENANT) tenant: Tenant, @PathVariable executionId: String): ApiResponse<Nothing> {
        executions.abort(tenant, executionId)
        return ApiResponse.ok()
    }

    @GetMapping("/{executionId}/output")
    fun output(@RequestAttribute(TENANT) tenant: Tenant, @PathVariable executionId: String): ApiResponse<ExecutionOutputDto> =
        ApiResponse.ok(executions.output(tenant, executionId) { file ->
            ServletUriComponentsBuilder.fromCurrentContextPath()
                .path("/v1/openapi/drive/files/{fileId}").buildAndExpand(file.fileId).toUriString()
        })

    @GetMapping("/{executionId}/status")
    fun status(@RequestAttribute(TENANT) tenant: Tenant, @PathVariable executionId: String): ApiResponse<ExecutionStatusDto> =
        ApiResponse.ok(executions.status(tenant, executionId))
}

/** 4.5 – 4.6: search workflows and read one plan. */
@RestController
@RequestMapping("/openapi/workflows")
class WorkflowController(private val workflows: WorkflowService) {

    /** Query parameters are read leniently: the endpoint defines no 400, so bad values fall back to defaults. */
    @GetMapping
    fun search(
        @RequestAttribute(TENANT) tenant: Tenant,
        @RequestParam(required = false) keyword: String?,
        @RequestParam(required = false) order: String?,
        @RequestParam(required = false) page: String?,
        @RequestParam(required = false) pageSize: String?,
    ): ApiResponse<List<WorkflowSummaryDto>> = ApiResponse.ok(workflows.search(tenant, keyword, order, page, pageSize))

    @GetMapping("/{canvasId}")
    fun detail(@RequestAttribute(TENANT) tenant: Tenant, @PathVariable canvasId: String): ApiResponse<WorkflowPlanDto> =
        ApiResponse.ok(workflows.detail(tenant, canvasId))
}

/** 4.7: upload files used as values of resource variables. */
@RestController
@RequestMapping("/openapi/files")
class FileController(private val uploads: UploadService) {

    @PostMapping("/upload", consumes = [MediaType.MULTIPART_FORM_DATA_VALUE])
    fun upload(
        @RequestAttribute(TENANT) tenant: Tenant,
        @RequestParam(name = "files", required = false) files: List<MultipartFile>?,
    ): ApiResponse<UploadResultDto> = ApiResponse.ok(uploads.upload(tenant, files))
}

/** Download of execution output files (the `url` of data.files[] in the output response). */
@RestController
@RequestMapping("/openapi/drive/files")
class DriveFileController(private val executions: ExecutionService) {

    @GetMapping("/{fileId}")
    fun download(@RequestAttribute(TENANT) tenant: Tenant, @PathVariable fileId: String): ResponseEntity<ByteArray> {
        val file = executions.driveFile(tenant, fileId)
        return ResponseEntity.ok()
            .contentType(MediaType.parseMediaType(file.type))
            .header(HttpHeaders.CONTENT_DISPOSITION, ContentDisposition.attachment().filename(file.name).build().toString())
            .body(file.content)
    }
}

/** 4.8: generate a workflow plan from a prompt. */
@RestController
@RequestMapping("/openapi/copilot")
class CopilotController(private val copilot: CopilotService) {

    @PostMapping("/workflow/generate")
    fun generate(
        @RequestAttribute(TENANT) tenant: Tenant,
        @Valid @RequestBody request: GenerateWorkflowRequest,
    ): ApiResponse<GenerateResultDto> = ApiResponse.ok(copilot.generate(tenant, request))
}
