package com.example.workflow.domain

import jakarta.persistence.*
import java.time.Instant

enum class VariableType(val json: String) {
    STRING("string"), OPTION("option"), RESOURCE("resource");
}

@Entity
@Table(name = "workflow", indexes = [Index(name = "ix_workflow_tenant", columnList = "tenantId")])
class Workflow(
    @Id
    @Column(length = 64)
    var canvasId: String,
    @Column(nullable = false, length = 32)
    var tenantId: String,
    @Column(nullable = false, length = 300)
    var title: String,
    /** When false, the run endpoint answers 403 (section 4.1). */
    @Column(nullable = false)
    var apiEnabled: Boolean = true,
    @Column(nullable = false)
    var createdAt: Instant = Instant.now(),
    @Column(nullable = false)
    var updatedAt: Instant = Instant.now(),
) {
    @OneToMany(mappedBy = "workflow", cascade = [CascadeType.ALL], orphanRemoval = true, fetch = FetchType.LAZY)
    @OrderBy("position ASC")
    var tasks: MutableList<WorkflowTask> = mutableListOf()

    @OneToMany(mappedBy = "workflow", cascade = [CascadeType.ALL], orphanRemoval = true, fetch = FetchType.LAZY)
    @OrderBy("position ASC")
    var variables: MutableList<WorkflowVariable> = mutableListOf()

    fun replacePlan(newTitle: String, newTasks: List<WorkflowTask>, newVariables: List<WorkflowVariable>) {
        title = newTitle
        tasks.clear()
        variables.clear()
        newTasks.forEachIndexed { i, t -> t.workflow = this; t.position = i; tasks.add(t) }
        newVariables.forEachIndexed { i, v -> v.workflow = this; v.position = i; variables.add(v) }
        updatedAt = Instant.now()
    }
}

@Entity
@Table(name = "workflow_task")
class WorkflowTask(
    @Column(nullable = false, length = 64)
    var taskId: String,
    @Column(nullable = false, length = 300)
    var title: String,
    @Lob
    @Column(nullable = false)
    var prompt: String,
    @Convert(converter = StringListConverter::class)
    @Column(nullable = false, length = 2000)
    var toolsets: List<String> = emptyList(),
    @Convert(converter = StringListConverter::class)
    @Column(nullable = false, length = 2000)
    var dependentTasks: List<String> = emptyList(),
    /** Nominal execution time of the node at speed 1. */
    @Column(nullable = false)
    var durationMs: Long = 800,
    /** Name and MIME type of the drive file the node produces when it finishes (null = none). */
    var outputFileName: String? = null,
    var outputFileType: String? = null,
    /** When set, the node fails with this message at the end of its run time. */
    @Column(length = 1000)
    var failureMessage: String? = null,
) {
    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    var id: Long? = null

    @ManyToOne(fetch = FetchType.LAZY, optional = false)
    @JoinColumn(name = "canvas_id")
    var workflow: Workflow? = null

    @Column(nullable = false)
    var position: Int = 0
}

@Entity
@Table(name = "workflow_variable")
class WorkflowVariable(
    @Column(nullable = false, length = 128)
    var name: String,
    @Enumerated(EnumType.STRING)
    @Column(nullable = false, length = 16)
    var variableType: VariableType = VariableType.STRING,
    @Column(nullable = false)
    var required: Boolean = false,
    @Convert(converter = StringListConverter::class)
    @Column(nullable = false, length = 4000)
    var options: List<String> = emptyList(),
) {
    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    var id: Long? = null

    @ManyToOne(fetch = FetchType.LAZY, optional = false)
    @JoinColumn(name = "canvas_id")
    var workflow: Workflow? = null

    @Column(nullable = false)
    var position: Int = 0
}
