package com.example.workflow.seed

import com.example.workflow.domain.Workflow
import com.example.workflow.domain.WorkflowRepository
import com.example.workflow.domain.WorkflowTask
import com.example.workflow.domain.WorkflowVariable
import com.example.workflow.service.Tenant
import com.example.workflow.service.Tenants
import org.slf4j.LoggerFactory
import org.springframework.boot.ApplicationArguments
import org.springframework.boot.ApplicationRunner
import org.springframework.stereotype.Component
import org.springframework.transaction.annotation.Transactional
import java.time.Duration
import java.time.Instant
import java.time.temporal.ChronoUnit

/** Creates the demo accounts at start-up (before the service reports that it is listening). */
@Component
class SeedLoader(private val workflows: WorkflowRepository) : ApplicationRunner {
    private val log = LoggerFactory.getLogger(javaClass)

    @Transactional
    override fun run(args: ApplicationArguments) {
        if (workflows.count() > 0) return
        val base = Instant.now().truncatedTo(ChronoUnit.SECONDS)
        seed(Tenants.A, TENANT_A_WORKFLOWS, base)
        seed(Tenants.B, TENANT_B_WORKFLOWS, base)
        log.info("Seeded {} workflows for {} and {} for {}", TENANT_A_WORKFLOWS.size, Tenants.A.name, TENANT_B_WORKFLOWS.size, Tenants.B.name)
    }

    private fun seed(tenant: Tenant, list: List<SeedWorkflow>, base: Instant) {
        list.forEachIndexed { i, s ->
            // list order = most recently updated first; created in reverse so the two orders differ
            val updated = base.minus(Duration.ofHours(6L * (i + 1)))
            val created = base.minus(Duration.ofDays(90)).plus(Duration.ofHours(5L * ((i * 7) % list.size)))
            val wf = Workflow(
                canvasId = s.canvasId, tenantId = tenant.id, title = s.title, apiEnabled = s.apiEnabled,
                createdAt = minOf(created, updated), updatedAt = updated,
            )
            wf.replacePlan(
                s.title,
                s.tasks.map {
                    WorkflowTask(
                        taskId = it.id, title = it.title, prompt = it.prompt, toolsets = it.toolsets,
                        dependentTasks = it.deps, durationMs = it.ms, outputFileName = it.file?.name,
                        outputFileType = it.file?.type, failureMessage = it.fails,
                    )
                },
                s.variables.map { WorkflowVariable(it.name, it.type, it.required, it.options) },
            )
            wf.updatedAt = updated
            workflows.save(wf)
        }
    }
}
