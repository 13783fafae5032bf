package com.example.workflow.service

import com.example.workflow.config.WorkflowProperties
import com.example.workflow.domain.VariableType
import com.example.workflow.domain.Workflow
import com.example.workflow.domain.WorkflowRepository
import com.example.workflow.web.CanvasNotFoundException
import com.example.workflow.web.TaskDto
import com.example.workflow.web.VariableDto
import com.example.workflow.web.WorkflowPlanDto
import com.example.workflow.web.WorkflowSummaryDto
import org.springframework.data.domain.PageRequest
import org.springframework.data.domain.Sort
import org.springframework.stereotype.Service
import org.springframework.transaction.annotation.Transactional

/** Sort orders accepted by GET /openapi/workflows?order=... (case-insensitive). */
enum class WorkflowOrder(val key: String, private val property: String, private val direction: Sort.Direction) {
    UPDATED_DESC("updatedAt_desc", "updatedAt", Sort.Direction.DESC),
    UPDATED_ASC("updatedAt_asc", "updatedAt", Sort.Direction.ASC),
    CREATED_DESC("createdAt_desc", "createdAt", Sort.Direction.DESC),
    CREATED_ASC("createdAt_asc", "createdAt", Sort.Direction.ASC),
    TITLE_ASC("title_asc", "title", Sort.Direction.ASC),
    TITLE_DESC("title_desc", "title", Sort.Direction.DESC);

    fun sort(): Sort {
        val primary = Sort.Order(direction, property).let { if (property == "title") it.ignoreCase() else it }
        return Sort.by(primary, Sort.Order(direction, "canvasId"))
    }

    companion object {
        val DEFAULT = UPDATED_DESC
        private val aliases = mapOf("desc" to UPDATED_DESC, "asc" to UPDATED_ASC)

        /** Unknown or empty values fall back to the default order (the search endpoint has no 400). */
        fun parse(raw: String?): WorkflowOrder {
            val v = raw?.trim()?.lowercase().orEmpty()
            if (v.isEmpty()) return DEFAULT
            return entries.firstOrNull { it.key.lowercase() == v } ?: aliases[v] ?: DEFAULT
        }
    }
}

@Service
class WorkflowService(
    private val workflows: WorkflowRepository,
    private val props: WorkflowProperties,
) {
    @Transactional(readOnly = true)
    fun search(tenant: Tenant, keyword: String?, order: String?, page: String?, pageSize: String?): List<WorkflowSummaryDto> {
        val pageNo = page?.trim()?.toIntOrNull()?.takeIf { it >= 1 } ?: 1
        val size = pageSize?.trim()?.toIntOrNull()?.let { if (it < 1) props.defaultPageSize else minOf(it, props.maxPageSize) }
            ?: props.defaultPageSize
        val offsetOk = pageNo.toLong() * size <= Int.MAX_VALUE
        if (!offsetOk) return emptyList()
        val request = PageRequest.of(pageNo - 1, size, WorkflowOrder.parse(order).sort())
        return workflows.findByTenantIdAndTitleContainingIgnoreCase(tenant.id, keyword?.trim().orEmpty(), request)
            .content.map { WorkflowSummaryDto(it.canvasId, it.title) }
    }

    @Transactional(readOnly = true)
    fun detail(tenant: Tenant, canvasId: String): WorkflowPlanDto =
        toPlan(workflows.findByCanvasIdAndTenantId(canvasId, tenant.id) ?: throw CanvasNotFoundException(canvasId))

    companion object {
        fun toPlan(wf: Workflow) = WorkflowPlanDto(
            title = wf.title,
            tasks = wf.tasks.map { TaskDto(it.taskId, it.title, it.prompt, it.toolsets, it.dependentTasks) },
            variables = wf.variables.map {
                VariableDto(
                    name = it.name,
                    variableType = it.variableType.json,
                    required = it.required,
                    options = if (it.variableType == VariableType.OPTION) it.options else null,
                )
            },
        )
    }
}
