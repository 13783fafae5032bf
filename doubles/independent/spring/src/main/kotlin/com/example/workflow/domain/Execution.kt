package com.example.workflow.domain

import jakarta.persistence.*
import java.time.Instant

enum class ExecutionStatus(val json: String) {
    INIT("init"), EXECUTING("executing"), FINISH("finish"), FAILED("failed");

    val terminal get() = this == FINISH || this == FAILED
}

enum class NodeStatus(val json: String) {
    INIT("init"), WAITING("waiting"), EXECUTING("executing"), FINISH("finish"), FAILED("failed");

    val terminal get() = this == FINISH || this == FAILED
}

@Entity
@Table(name = "workflow_execution", indexes = [Index(name = "ix_execution_tenant", columnList = "tenantId")])
class Execution(
    @Id
    @Column(length = 64)
    var executionId: String,
    @Column(nullable = false, length = 32)
    var tenantId: String,
    @Column(nullable = false, length = 64)
    var canvasId: String,
    @Column(nullable = false, length = 300)
    var title: String,
    @Convert(converter = JsonMapConverter::class)
    @Lob
    @Column(nullable = false)
    var variables: Map<String, Any?> = emptyMap(),
    @Enumerated(EnumType.STRING)
    @Column(nullable = false, length = 16)
    var status: ExecutionStatus = ExecutionStatus.INIT,
    @Column(nullable = false)
    var createdAt: Instant = Instant.now(),
    var startedAt: Instant? = null,
    var endedAt: Instant? = null,
    var aborted: Boolean = false,
) {
    @OneToMany(mappedBy = "execution", cascade = [CascadeType.ALL], orphanRemoval = true, fetch = FetchType.LAZY)
    @OrderBy("position ASC")
    var nodes: MutableList<NodeExecution> = mutableListOf()

    fun addNode(node: NodeExecution) {
        node.execution = this
        node.position = nodes.size
        nodes.add(node)
    }
}

/** Snapshot of one workflow task inside one execution, with its run state. */
@Entity
@Table(name = "node_execution")
class NodeExecution(
    @Column(nullable = false, length = 64)
    var nodeId: String,
    @Column(nullable = false, length = 300)
    var title: String,
    @Convert(converter = StringListConverter::class)
    @Column(nullable = false, length = 2000)
    var dependsOn: List<String> = emptyList(),
    /** Effective run time (nominal duration x speed). */
    @Column(nullable = false)
    var durationMs: Long = 0,
    var failureMessage: String? = null,
    var outputFileName: String? = null,
    var outputFileType: String? = null,
    /** Full transcript the node produces; revealed progressively while it runs. */
    @Convert(converter = MessageListConverter::class)
    @Lob
    @Column(nullable = false)
    var transcript: List<StoredMessage> = emptyList(),
    /** Text of the output file (written to the drive when the node finishes). */
    @Lob
    var fileContent: String? = null,
) {
    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    var id: Long? = null

    @ManyToOne(fetch = FetchType.LAZY, optional = false)
    @JoinColumn(name = "execution_id")
    var execution: Execution? = null

    @Column(nullable = false)
    var position: Int = 0

    @Enumerated(EnumType.STRING)
    @Column(nullable = false, length = 16)
    var status: NodeStatus = NodeStatus.INIT

    @Column(length = 1000)
    var errorMessage: String? = null
    var startTime: Instant? = null
    var endTime: Instant? = null

    /** Share of the transcript produced when the node stopped early (failure/abort); null otherwise. */
    var frozenProgress: Double? = null
}

@Entity
@Table(name = "uploaded_file", indexes = [Index(name = "ix_upload_tenant", columnList = "tenantId")])
class UploadedFile(
    @Id
    @Column(length = 64)
    var fileKey: String,
    @Column(nullable = false, length = 32)
    var tenantId: String,
    @Column(nullable = false, length = 255)
    var fileName: String,
    @Column(length = 255)
    var contentType: String?,
    @Column(nullable = false)
    var size: Long,
    @Lob
    @Column(nullable = false)
    var data: ByteArray,
    @Column(nullable = false)
    var createdAt: Instant = Instant.now(),
    /** Set when a run references the file; used files are exempt from the 24 h clean-up. */
    var usedAt: Instant? = null,
)

@Entity
@Table(name = "drive_file", indexes = [Index(name = "ix_drive_execution", columnList = "executionId")])
class DriveFile(
    @Id
    @Column(length = 64)
    var fileId: String,
    @Column(nullable = false, length = 32)
    var tenantId: String,
    @Column(nullable = false, length = 64)
    var executionId: String,
    @Column(nullable = false, length = 64)
    var nodeId: String,
    @Column(nullable = false, length = 255)
    var name: String,
    @Column(nullable = false, length = 100)
    var type: String,
    @Column(nullable = false)
    var size: Long,
    @Lob
    @Column(nullable = false)
    var content: ByteArray,
    @Column(nullable = false)
    var createdAt: Instant = Instant.now(),
)
