package com.example.workflow.service

import com.example.workflow.domain.DriveFile
import com.example.workflow.domain.DriveFileRepository
import com.example.workflow.domain.Execution
import com.example.workflow.domain.ExecutionRepository
import com.example.workflow.domain.ExecutionStatus
import com.example.workflow.domain.NodeExecution
import com.example.workflow.domain.NodeStatus
import org.slf4j.LoggerFactory
import org.springframework.beans.factory.DisposableBean
import org.springframework.stereotype.Component
import org.springframework.transaction.PlatformTransactionManager
import org.springframework.transaction.event.TransactionPhase
import org.springframework.transaction.event.TransactionalEventListener
import org.springframework.transaction.support.TransactionTemplate
import java.time.Duration
import java.time.Instant
import java.time.temporal.ChronoUnit
import java.util.concurrent.ScheduledThreadPoolExecutor
import java.util.concurrent.ThreadFactory
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicInteger

/** Published inside the run transaction; the engine starts the execution once it is committed. */
data class ExecutionCreatedEvent(val executionId: String)

internal fun now(): Instant = Instant.now().truncatedTo(ChronoUnit.MILLIS)

/**
 * Drives executions through their states in time. Nodes run as a dependency graph: a node starts
 * when all of its dependencies have finished, and finishes (or fails) after its run time.
 * Every transition runs in its own transaction under a per-execution lock, so an abort and a node
 * completion never interleave. State lives in the database; the scheduler only holds timers.
 *
 * Execution: init -> executing -> finish | failed   (abort: -> failed)
 * Node:      init -> waiting -> executing -> finish | failed   (cancelled/aborted: -> failed)
 */
@Component
class ExecutionEngine(
    private val executions: ExecutionRepository,
    private val driveFiles: DriveFileRepository,
    transactionManager: PlatformTransactionManager,
) : DisposableBean {
    private val log = LoggerFactory.getLogger(javaClass)
    private val tx = TransactionTemplate(transactionManager)
    private val stripes = Array(64) { Any() }
    private val scheduler = ScheduledThreadPoolExecutor(2, object : ThreadFactory {
        private val n = AtomicInteger()
        override fun newThread(r: Runnable) = Thread(r, "wf-engine-${n.incrementAndGet()}").apply { isDaemon = true }
    }).apply { removeOnCancelPolicy = true }

    companion object {
        const val ABORT_MESSAGE = "Execution aborted by user (E3004: action was stopped)"

        /** Share of a node's transcript produced so far. */
        fun progress(node: NodeExecution, at: Instant): Double = when (node.status) {
            NodeStatus.FINISH -> 1.0
            NodeStatus.FAILED -> node.frozenProgress ?: 0.0
            NodeStatus.EXECUTING -> {
                val start = node.startTime ?: at
                if (node.durationMs <= 0) 0.99
                else (Duration.between(start, at).toMillis().toDouble() / node.durationMs).coerceIn(0.0, 0.99)
            }
            else -> 0.0
        }
    }

    @TransactionalEventListener(phase = TransactionPhase.AFTER_COMMIT)
    fun onCreated(event: ExecutionCreatedEvent) = schedule(0) { start(event.executionId) }

    /** Aborts a non-terminal execution; returns false when it had already ended (no-op). */
    fun abort(executionId: String): Boolean = transition(executionId) { exec ->
        if (exec.status.terminal) return@transition false
        exec.aborted = true
        failExecution(exec, now(), ABORT_MESSAGE)
        log.info("Execution {} aborted", executionId)
        true
    } ?: false

    private fun start(executionId: String) {
        transition(executionId) { exec ->
            if (exec.status != ExecutionStatus.INIT) return@transition
            exec.status = ExecutionStatus.EXECUTING
            exec.startedAt = now()
            exec.nodes.forEach { if (it.status == NodeStatus.INIT) it.status = NodeStatus.WAITING }
            advance(exec, exec.startedAt!!)
        }
    }

    private fun complete(executionId: String, nodeId: String) {
        transition(executionId) { exec ->
            if (exec.status.terminal) return@transition
            val node = exec.nodes.firstOrNull { it.nodeId == nodeId } ?: return@transition
            if (node.status != NodeStatus.EXECUTING) return@transition
            val at = now()
            node.endTime = at
            val failure = node.failureMessage
            if (failure != null) {
                node.frozenProgress = 0.6
                node.status = NodeStatus.FAILED
                node.errorMessage = failure
                failExecution(exec, at, "Cancelled because node '${node.title}' failed")
                return@transition
            }
            node.status = NodeStatus.FINISH
            node.frozenProgress = null
            writeDriveFile(exec, node, at)
            advance(exec, at)
        }
    }

    /** Starts every waiting node whose dependencies have finished; finishes the execution when all nodes did. */
    private fun advance(exec: Execution, at: Instant) {
        val byId = exec.nodes.associateBy { it.nodeId }
        for (node in exec.nodes) {
            if (node.status != NodeStatus.WAITING) continue
            val ready = node.dependsOn.all { dep -> byId[dep]?.status?.let { it == NodeStatus.FINISH } ?: true }
            if (ready) {
                node.status = NodeStatus.EXECUTING
                node.startTime = at
                val id = exec.executionId
                val nodeId = node.nodeId
                // the callback takes the same lock, so it only runs after this transaction committed
                schedule(node.durationMs) { complete(id, nodeId) }
            }
        }
        when {
            exec.nodes.all { it.status == NodeStatus.FINISH } -> {
                exec.status = ExecutionStatus.FINISH
                exec.endedAt = at
            }
            exec.nodes.none { it.status == NodeStatus.EXECUTING } ->
                failExecution(exec, at, "Node dependencies cannot be satisfied (cycle or failed dependency)")
        }
    }

    private fun failExecution(exec: Execution, at: Instant, reason: String) {
        for (node in exec.nodes) {
            if (node.status.terminal) continue
            if (node.status == NodeStatus.EXECUTING) {
                node.frozenProgress = progress(node, at)
                node.endTime = at
            }
            node.status = NodeStatus.FAILED
            node.errorMessage = reason
        }
        exec.status = ExecutionStatus.FAILED
        exec.endedAt = at
    }

    private fun writeDriveFile(exec: Execution, node: NodeExecution, at: Instant) {
        val name = node.outputFileName ?: return
        val bytes = (node.fileContent ?: "").toByteArray(Charsets.UTF_8)
        driveFiles.save(
            DriveFile(
                fileId = Ids.driveFileId(),
                tenantId = exec.tenantId,
                executionId = exec.executionId,
                nodeId = node.nodeId,
                name = name,
                type = node.outputFileType ?: "application/octet-stream",
                size = bytes.size.toLong(),
                content = bytes,
                createdAt = at,
            )
        )
    }

    private fun <T> transition(executionId: String, block: (Execution) -> T): T? =
        synchronized(stripes[(executionId.hashCode() and 0x7fffffff) % stripes.size]) {
            tx.execute { executions.findById(executionId).orElse(null)?.let(block) }
        }

    private fun schedule(delayMs: Long, action: () -> Unit) {
        scheduler.schedule({
            try {
                action()
            } catch (e: Exception) {
                log.error("Execution step failed", e)
            }
        }, delayMs.coerceAtLeast(0), TimeUnit.MILLISECONDS)
    }

    override fun destroy() {
        scheduler.shutdownNow()
    }
}
