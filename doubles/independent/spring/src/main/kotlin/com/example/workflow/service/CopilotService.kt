package com.example.workflow.service

import com.example.workflow.domain.VariableType
import com.example.workflow.domain.Workflow
import com.example.workflow.domain.WorkflowRepository
import com.example.workflow.domain.WorkflowTask
import com.example.workflow.domain.WorkflowVariable
import com.example.workflow.web.CanvasNotFoundException
import com.example.workflow.web.GenerateResultDto
import com.example.workflow.web.GenerateWorkflowRequest
import com.example.workflow.web.GenerationFailedException
import org.springframework.stereotype.Service
import org.springframework.transaction.annotation.Transactional

/**
 * Workflow generation (section 4.8). The planner is rule-based: it splits the request into steps
 * (lines, sentences, "then"), turns each step into a task that depends on the previous one, picks
 * toolsets from keywords and derives variables from {{placeholders}} and mentions of files.
 */
@Service
class CopilotService(private val workflows: WorkflowRepository) {

    private data class PlannedTask(val title: String, val prompt: String, val toolsets: List<String>)

    @Transactional
    fun generate(tenant: Tenant, request: GenerateWorkflowRequest): GenerateResultDto {
        val query = request.query!!.trim()
        // resolve the target canvas first: an unknown canvas is a 404 whatever the query
        val target = request.canvasId?.let {
            workflows.findByCanvasIdAndTenantId(it, tenant.id) ?: throw CanvasNotFoundException(it)
        }
        val steps = splitSteps(query)
        if (steps.isEmpty()) {
            throw GenerationFailedException(
                "Workflow generation failed: no actionable step could be identified in the query",
                modelResponse = "",
            )
        }
        val planned = if (steps.size == 1) {
            listOf(
                PlannedTask("Gather inputs", "Collect the information, data and context needed to: ${steps[0]}", listOf("web_search") + toolsetsFor(steps[0])),
                PlannedTask(taskTitle(steps[0]), capitalize(steps[0]), toolsetsFor(steps[0])),
            )
        } else steps.map { PlannedTask(taskTitle(it), capitalize(it), toolsetsFor(it)) }

        val tasks = planned.mapIndexed { i, p ->
            WorkflowTask(
                taskId = "task-${i + 1}",
                title = p.title,
                prompt = p.prompt,
                toolsets = p.toolsets.distinct(),
                dependentTasks = if (i == 0) emptyList() else listOf("task-$i"),
                durationMs = 800,
                outputFileName = if (i == planned.lastIndex && planned.size > 1) "${slug(planTitle(steps))}.md" else null,
                outputFileType = if (i == planned.lastIndex && planned.size > 1) "text/markdown" else null,
            )
        }
        val variables = variablesFor(query)
        val title = planTitle(steps)

        val wf = target ?: Workflow(canvasId = Ids.canvasId(), tenantId = tenant.id, title = title, createdAt = now(), updatedAt = now())
        wf.replacePlan(title, tasks, variables)
        workflows.save(wf)
        return GenerateResultDto(wf.canvasId, WorkflowService.toPlan(wf))
    }

    // ---- planning rules -----------------------------------------------------------------------------

    private val sentenceEnd = Regex("(?<=[.!?。！？；;])\\s*")
    private val thenSplit = Regex(
        "\\s*(?:,\\s*)?\\b(?:and then|then|after that|afterwards|finally)\\b\\s*|\\s*(?:然后|接着|最后|之后)\\s*",
        RegexOption.IGNORE_CASE,
    )
    private val bullet = Regex("^\\s*(?:[-*•·]+|\\d+\\s*[.)、:]|step\\s*\\d+\\s*[:.)-]?)\\s*", RegexOption.IGNORE_CASE)

    private fun splitSteps(query: String): List<String> {
        val steps = query.lines()
            .flatMap { it.split(sentenceEnd) }
            .flatMap { it.split(thenSplit) }
            .map { it.replace(bullet, "").trim().trim(',', ';', '.', '。', '，', '；', ':', ' ') }
            .filter { s -> s.count { it.isLetter() } >= 2 }
        if (steps.size <= 8) return steps
        return steps.take(7) + steps.drop(7).joinToString("; ")
    }

    private fun capitalize(s: String) = s.replaceFirstChar { if (it.isLowerCase()) it.titlecase() else it.toString() }

    private fun cut(s: String, words: Int, chars: Int): String {
        val parts = s.split(Regex("\\s+"))
        val byWords = if (parts.size > 1) parts.take(words).joinToString(" ") else s
        return if (byWords.length <= chars) byWords else byWords.take(chars).trimEnd()
    }

    private val trailingStopWords = setOf(
        "a", "an", "the", "in", "of", "to", "for", "and", "or", "with", "on", "by", "from", "at", "into", "about", "as",
    )

    /** Shortens a step to a readable title: at most [words] words / [chars] characters, no dangling "in a". */
    private fun shortTitle(step: String, words: Int, chars: Int): String {
        val parts = cut(step, words, chars).split(" ").toMutableList()
        while (parts.size > 1 && parts.last().lowercase().trim(',', ';', ':') in trailingStopWords) parts.removeAt(parts.lastIndex)
        return capitalize(parts.joinToString(" ").trimEnd(',', ';', ':'))
    }

    private fun taskTitle(step: String) = shortTitle(step, 8, 60)

    private fun planTitle(steps: List<String>) = shortTitle(steps.first(), 10, 80)

    private fun slug(s: String): String =
        s.lowercase().replace(Regex("[^a-z0-9]+"), "-").trim('-').take(40).ifBlank { "workflow-result" }

    private val toolRules = listOf(
        Regex("search|research|find|look up|news|web|competitor|trend|market") to "web_search",
        Regex("e-?mail|mail|newsletter|send|reply") to "email",
        Regex("spreadsheet|excel|csv|sheet|table") to "spreadsheet",
        Regex("analy[sz]|chart|metric|kpi|data|forecast|statistic") to "data_analysis",
        Regex("report|document|doc\\b|pdf|write|draft|summar|memo|article|blog") to "generate_doc",
        Regex("crm|lead|customer record|pipeline") to "crm",
        Regex("translat") to "translation",
        Regex("meeting|calendar|schedule") to "calendar",
        Regex("ticket|support|helpdesk") to "helpdesk",
    )

    private fun toolsetsFor(step: String): List<String> {
        val lower = step.lowercase()
        return toolRules.filter { it.first.containsMatchIn(lower) }.map { it.second }.distinct()
    }

    private val placeholder = Regex("\\{\\{\\s*([A-Za-z_][A-Za-z0-9_]{0,63})\\s*}}")
    private val fileMention = Regex("\\b(?:upload(?:ed)?|attach(?:ed|ment)?|pdf|docx?|uploaded file|input file)\\b", RegexOption.IGNORE_CASE)

    private fun variablesFor(query: String): List<WorkflowVariable> {
        val vars = placeholder.findAll(query).map { it.groupValues[1] }.distinct()
            .map { WorkflowVariable(name = it, variableType = VariableType.STRING, required = true) }
            .toMutableList()
        if (fileMention.containsMatchIn(query) && vars.none { it.name == "input_file" }) {
            vars += WorkflowVariable(name = "input_file", variableType = VariableType.RESOURCE, required = true)
        }
        return vars
    }
}
