package com.example.workflow.service

import com.example.workflow.domain.StoredMessage
import com.example.workflow.domain.WorkflowTask
import org.springframework.stereotype.Component
import kotlin.math.abs

/**
 * Produces the messages and files of a node. The service has no model behind it, so the text is
 * composed deterministically from the task prompt, its toolsets and the run's variable values.
 */
@Component
class ContentGenerator {

    fun transcript(seed: String, task: WorkflowTask, workflowTitle: String, variables: Map<String, String>): List<StoredMessage> {
        val h = abs(seed.hashCode())
        val messages = mutableListOf<StoredMessage>()
        task.toolsets.forEachIndexed { i, toolset ->
            messages += StoredMessage(
                messageId = Ids.messageId(),
                type = "tool",
                content = toolResult(toolset, task, variables, h + i * 7),
            )
        }
        messages += StoredMessage(
            messageId = Ids.messageId(),
            type = "ai",
            content = answer(task, workflowTitle, variables, h),
            reasoningContent = reasoning(task, variables),
        )
        return messages
    }

    fun fileContent(
        fileName: String, fileType: String, task: WorkflowTask, workflowTitle: String,
        executionId: String, variables: Map<String, String>, aiText: String,
    ): String {
        val h = abs((executionId + task.taskId).hashCode())
        return when {
            fileType.contains("csv") -> csv(task, h)
            fileType.contains("json") -> json(task, workflowTitle, executionId, h)
            fileType.contains("html") ->
                "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>${esc(task.title)}</title></head>\n<body>\n" +
                    "<h1>${esc(task.title)}</h1>\n<p><em>${esc(workflowTitle)} &middot; execution $executionId</em></p>\n" +
                    aiText.lines().filter { it.isNotBlank() }.joinToString("\n") { "<p>${esc(it.trimStart('-', ' ', '#', '*'))}</p>" } +
                    "\n</body></html>\n"
            else -> buildString {
                append("# ").append(task.title).append("\n\n")
                append("_").append(workflowTitle).append(" · execution ").append(executionId).append("_\n\n")
                if (variables.isNotEmpty()) {
                    append("## Inputs\n\n")
                    variables.forEach { (k, v) -> append("- **").append(k).append("**: ").append(v).append('\n') }
                    append('\n')
                }
                append(aiText.removePrefix("## ${task.title}\n\n")).append('\n')
            }
        }
    }

    private fun toolResult(toolset: String, task: WorkflowTask, vars: Map<String, String>, h: Int): String {
        val n = 3 + h % 9
        val subject = vars.values.firstOrNull()?.take(80) ?: task.title
        return when (toolset) {
            "web_search" -> "web_search(\"${subject}\") -> $n results from industry reports, news coverage and company websites"
            "data_analysis" -> "data_analysis -> scanned ${n + 2} tables, ${(h % 40 + 8) * 311} rows; 0 rows rejected"
            "document_reader" -> "document_reader -> parsed ${vars.values.firstOrNull() ?: "the provided document"}: ${n + 4} pages, ${n * 3} sections"
            "crm" -> "crm.query -> ${n * 17} records matched the filter"
            "spreadsheet" -> "spreadsheet.read -> ${n} sheets, ${(h % 30 + 5) * 23} rows"
            "email" -> "email.draft -> ${n % 4 + 1} drafts saved to the outbox (not sent)"
            "helpdesk" -> "helpdesk.search -> ${n * 11} open tickets in the last 7 days"
            "translation" -> "translation -> ${n * 40} strings translated"
            "calendar" -> "calendar.freebusy -> ${n} candidate slots found"
            "generate_doc" -> "generate_doc -> document template loaded"
            else -> "$toolset -> completed ($n items)"
        }
    }

    private fun reasoning(task: WorkflowTask, vars: Map<String, String>): String {
        val inputs = if (vars.isEmpty()) "" else " Inputs available: ${vars.keys.joinToString(", ")}."
        return "The instruction is: \"${task.prompt.take(300)}\". I will work through it step by step, " +
            "check the figures against the tool results and keep the answer concise.$inputs"
    }

    private fun answer(task: WorkflowTask, workflowTitle: String, vars: Map<String, String>, h: Int): String {
        val points = findings.indices.map { findings[(h / 3 + it * 3) % findings.size] }.distinct().take(3)
        return buildString {
            append("## ").append(task.title).append("\n\n")
            append("Completed for \"").append(workflowTitle).append("\": ")
            append(task.prompt.trim().trimEnd('.').take(400)).append(".\n\n")
            if (vars.isNotEmpty()) {
                append("Using ")
                append(vars.entries.joinToString("; ") { "${it.key} = ${it.value.take(200)}" })
                append(".\n\n")
            }
            points.forEach { append("- ").append(it).append('\n') }
            append("\nNext step: hand these results to the following task in the workflow.")
        }
    }

    private fun csv(task: WorkflowTask, h: Int): String = buildString {
        append("item,category,value,change_pct,note\n")
        val categories = listOf("Outerwear", "Footwear", "Accessories", "Basics", "Kids", "Outdoor gear")
        for (i in 1..8) {
            val v = (h / (i + 1)) % 9000 + 500
            val ch = ((h / (i + 3)) % 300 - 120) / 10.0
            append("${task.taskId}-$i,${categories[(h + i) % categories.size]},$v,$ch,${if (ch < 0) "review" else "ok"}\n")
        }
    }

    private fun json(task: WorkflowTask, workflowTitle: String, executionId: String, h: Int): String =
        """{"workflow":"${esc(workflowTitle)}","task":"${esc(task.title)}","executionId":"$executionId",""" +
            """"items":[{"priority":"high","count":${h % 12 + 1}},{"priority":"medium","count":${h % 20 + 4}},""" +
            """{"priority":"low","count":${h % 30 + 9}}]}""" + "\n"

    private fun esc(s: String) = s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;")

    private val findings = listOf(
        "Revenue is concentrated in the top three categories, which account for roughly two thirds of the total.",
        "Two suppliers show lead times above the agreed 21 days and should be contacted this week.",
        "Customer sentiment improved month over month, driven by faster delivery times.",
        "Stock cover for the best sellers drops below two weeks before the next replenishment.",
        "Marketing spend on paid social returned less than email for the second month running.",
        "Three accounts show declining order frequency and are flagged for outreach.",
        "Pricing is within 3% of the main competitors on most comparable items.",
        "No blocking issues were found; the remaining items are minor and documented below.",
        "The data set had a few duplicates, which were removed before the analysis.",
        "Return rates are highest for footwear, mainly because of sizing questions.",
    )
}
