package com.example.workflow.seed

import com.example.workflow.domain.VariableType

data class SeedFile(val name: String, val type: String)

data class SeedTask(
    val id: String,
    val title: String,
    val prompt: String,
    val toolsets: List<String> = emptyList(),
    val deps: List<String> = emptyList(),
    val ms: Long = 700,
    val file: SeedFile? = null,
    val fails: String? = null,
)

data class SeedVariable(
    val name: String,
    val type: VariableType = VariableType.STRING,
    val required: Boolean = false,
    val options: List<String> = emptyList(),
)

data class SeedWorkflow(
    val canvasId: String,
    val title: String,
    val tasks: List<SeedTask>,
    val variables: List<SeedVariable> = emptyList(),
    val apiEnabled: Boolean = true,
)

private const val MD = "text/markdown"
private const val CSV = "text/csv"
private const val JSON = "application/json"
private const val HTML = "text/html"

/** Builds a linear chain: each task depends on the one before it. */
private fun chain(vararg tasks: SeedTask): List<SeedTask> =
    tasks.mapIndexed { i, t -> if (i == 0 || t.deps.isNotEmpty()) t else t.copy(deps = listOf(tasks[i - 1].id)) }

private fun str(name: String, required: Boolean = false) = SeedVariable(name, VariableType.STRING, required)
private fun opt(name: String, required: Boolean, vararg options: String) = SeedVariable(name, VariableType.OPTION, required, options.toList())
private fun res(name: String, required: Boolean) = SeedVariable(name, VariableType.RESOURCE, required)

/** Tenant A: Northwind Outfitters, an apparel and outdoor-gear retailer (30 workflows, newest first). */
val TENANT_A_WORKFLOWS: List<SeedWorkflow> = listOf(
    SeedWorkflow("c-e32tlv2ya31w28hl", "Weekly Sales Performance Digest", chain(
        SeedTask("pull-sales", "Pull weekly sales figures", "Load last week's sales by store and channel from the sales export and compute totals.", listOf("data_analysis"), ms = 700),
        SeedTask("compare-targets", "Compare against targets", "Compare each store's weekly revenue with its target and the same week last year.", listOf("data_analysis"), ms = 600),
        SeedTask("write-digest", "Write the sales digest", "Write a one-page digest for the leadership team with highlights, laggards and actions.", listOf("generate_doc"), ms = 700, file = SeedFile("weekly-sales-digest.md", MD)),
    )),
    SeedWorkflow("c-3oc7fphcexcja0kj", "Supplier Contract Review", chain(
        SeedTask("extract-clauses", "Extract key clauses", "Read the uploaded supplier contract and extract payment terms, liability caps, termination and exclusivity clauses.", listOf("document_reader"), ms = 900),
        SeedTask("assess-risk", "Assess contractual risk", "Rate each extracted clause against Northwind's standard supplier terms and flag deviations.", ms = 700),
        SeedTask("draft-memo", "Draft review memo", "Draft a review memo for procurement with the flagged clauses and suggested counter-proposals.", listOf("generate_doc"), ms = 700, file = SeedFile("contract-review-memo.md", MD)),
    ), variables = listOf(res("contract_file", required = true), opt("jurisdiction", false, "United States", "European Union", "United Kingdom"))),
    SeedWorkflow("c-ekeqbqrmjusyvvqg", "Social Media Campaign Posts", chain(
        SeedTask("research-trends", "Research current trends", "Find trending topics and hashtags relevant to the campaign theme on the chosen platform.", listOf("web_search"), ms = 700),
        SeedTask("write-posts", "Write campaign posts", "Write five ready-to-publish posts for the chosen platform in the requested tone, with hashtags.", ms = 600),
    ), variables = listOf(opt("platform", true, "LinkedIn", "Instagram", "X", "Facebook"), opt("tone", false, "Professional", "Friendly", "Playful"), str("campaign_theme"))),
    SeedWorkflow("c-l2ts66obex4wt6gh", "Customer Welcome Email Sequence", chain(
        SeedTask("profile-customer", "Profile the new customer", "Look up the customer's first orders and preferences in the CRM.", listOf("crm"), ms = 600),
        SeedTask("draft-emails", "Draft welcome emails", "Draft a three-email welcome sequence personalised for the customer, with care tips and a loyalty-programme invitation.", listOf("email"), ms = 800, file = SeedFile("welcome-email-sequence.md", MD)),
    ), variables = listOf(str("customer_name", required = true), opt("loyalty_tier", false, "Bronze", "Silver", "Gold"))),
    SeedWorkflow("c-0pjv0wht4n5j4ycp", "Quarterly Board Report Preparation", listOf(
        SeedTask("collect-financials", "Collect quarterly financials", "Collect revenue, gross margin and operating expenses for the quarter from the finance exports.", listOf("spreadsheet"), ms = 700),
        SeedTask("collect-kpis", "Collect operational KPIs", "Collect store traffic, conversion, online share and inventory turnover for the quarter.", listOf("data_analysis"), ms = 600),
        SeedTask("analyze-variance", "Analyse budget variance", "Explain the main variances between actuals and budget.", listOf("data_analysis"), deps = listOf("collect-financials"), ms = 600),
        SeedTask("summarize-customers", "Summarise customer trends", "Summarise customer acquisition, retention and satisfaction trends from the KPIs.", deps = listOf("collect-kpis"), ms = 500),
        SeedTask("draft-narrative", "Draft board narrative", "Draft the board narrative combining the variance analysis and the customer trends.", listOf("generate_doc"), deps = listOf("analyze-variance", "summarize-customers"), ms = 800),
        SeedTask("assemble-pack", "Assemble board pack", "Assemble the final board pack with an executive summary and appendix tables.", listOf("generate_doc"), deps = listOf("draft-narrative"), ms = 500, file = SeedFile("board-pack-q3.md", MD)),
    )),
    SeedWorkflow("c-7zcx73qbule5bubt", "CRM Lead Enrichment", chain(
        SeedTask("import-leads", "Import new leads", "Import the wholesale leads captured this week from the trade-show form.", listOf("crm"), ms = 600),
        SeedTask("enrich-firmographics", "Enrich company data", "Enrich each lead with company size, industry and website, and write the results back to the CRM.", listOf("web_search", "crm"), ms = 900,
            fails = "Tool call failed (E3012): CRM connector returned HTTP 503 Service Unavailable while updating lead records"),
        SeedTask("score-leads", "Score leads", "Score each enriched lead for wholesale potential and export the ranked list.", ms = 500, file = SeedFile("lead-scores.csv", CSV)),
    )),
    SeedWorkflow("c-6ma94f9qspvynghy", "Competitor Market Research", chain(
        SeedTask("identify-competitors", "Identify competitors", "Identify the main competitors in outdoor apparel in our markets, including online-only brands.", listOf("web_search"), ms = 1500),
        SeedTask("gather-pricing", "Gather pricing and assortment", "Gather current pricing and assortment depth for jackets, footwear and backpacks at each competitor.", listOf("web_search"), ms = 1500),
        SeedTask("analyze-positioning", "Analyse positioning", "Compare positioning, price ladders and promotions against Northwind's assortment.", listOf("data_analysis"), ms = 1500),
        SeedTask("write-report", "Write market research report", "Write a market research report with a competitor landscape, opportunities and recommendations.", listOf("generate_doc"), ms = 1500, file = SeedFile("competitor-landscape-report.md", MD)),
    )),
    SeedWorkflow("c-la29yw3qdlrz3iq1", "Payroll Reconciliation", chain(
        SeedTask("import-payroll", "Import payroll register", "Import this month's payroll register from the payroll provider.", listOf("spreadsheet"), ms = 600),
        SeedTask("match-ledger", "Match against general ledger", "Match payroll totals against the general-ledger postings by cost centre.", listOf("data_analysis"), ms = 700),
        SeedTask("flag-discrepancies", "Flag discrepancies", "List every discrepancy above 50 EUR with the likely cause.", ms = 500, file = SeedFile("payroll-discrepancies.csv", CSV)),
    ), apiEnabled = false),
    SeedWorkflow("c-aihn6tfdasfff51k", "Inventory Restock Forecast", chain(
        SeedTask("load-stock", "Load stock levels", "Load current stock levels and open purchase orders per SKU and warehouse.", listOf("spreadsheet"), ms = 600),
        SeedTask("forecast-demand", "Forecast demand", "Forecast six-week demand per SKU from the last twelve months of sales and seasonality.", listOf("data_analysis"), ms = 800),
        SeedTask("propose-orders", "Propose restock orders", "Propose restock quantities per SKU so that cover stays above four weeks.", ms = 500, file = SeedFile("restock-forecast.csv", CSV)),
    )),
    SeedWorkflow("c-ly4wri4oyxdp2w7c", "Product Description Writer", chain(
        SeedTask("collect-specs", "Collect product specs", "Collect materials, fit and care details for the product from the product information system.", ms = 500),
        SeedTask("write-description", "Write product description", "Write an SEO-friendly product description and five bullet points for the web shop.", ms = 600),
    ), variables = listOf(str("product_name", required = true), str("keywords"))),
    SeedWorkflow("c-0macaxmd6fhho996", "Customer Feedback Sentiment Analysis", chain(
        SeedTask("collect-reviews", "Collect reviews", "Collect this month's product reviews and post-purchase survey comments.", listOf("web_search"), ms = 600),
        SeedTask("classify-sentiment", "Classify sentiment", "Classify each comment by sentiment and topic (fit, quality, delivery, price).", listOf("data_analysis"), ms = 700),
        SeedTask("summarize-feedback", "Summarise feedback", "Summarise the main themes with example quotes and suggested actions.", listOf("generate_doc"), ms = 500, file = SeedFile("sentiment-summary.md", MD)),
    )),
    SeedWorkflow("c-ma75dptwtcxfu3vq", "Meeting Notes Summarizer", chain(
        SeedTask("read-notes", "Read meeting notes", "Read the meeting transcript or notes and identify decisions, owners and deadlines.", listOf("document_reader"), ms = 500),
        SeedTask("write-summary", "Write meeting summary", "Write a short summary with decisions and an action-item table.", ms = 500),
    ), variables = listOf(res("transcript", required = false))),
    SeedWorkflow("c-1dbt7f2wwvo8vkij", "Job Posting Drafter", chain(
        SeedTask("research-role", "Research the role", "Research comparable job postings and salary ranges for the role in our region.", listOf("web_search"), ms = 600),
        SeedTask("draft-posting", "Draft job posting", "Draft an inclusive job posting with responsibilities, requirements and benefits.", listOf("generate_doc"), ms = 600, file = SeedFile("job-posting.md", MD)),
    ), variables = listOf(str("role_title", required = true), opt("seniority", false, "Junior", "Mid-level", "Senior", "Lead"))),
    SeedWorkflow("c-w7hbmka4f3lnlspu", "Invoice Data Extraction", chain(
        SeedTask("read-invoices", "Read invoices", "Read the uploaded supplier invoices and extract supplier, invoice number, date, totals and VAT.", listOf("document_reader"), ms = 800),
        SeedTask("export-table", "Export invoice table", "Validate the totals and export one row per invoice for the accounts-payable import.", listOf("spreadsheet"), ms = 500, file = SeedFile("extracted-invoices.csv", CSV)),
    ), variables = listOf(res("invoices", required = true))),
    SeedWorkflow("c-o8ly1okktlx38p2w", "SEO Blog Article Writer", chain(
        SeedTask("keyword-research", "Keyword research", "Find search keywords and questions people ask about the topic.", listOf("web_search"), ms = 600),
        SeedTask("outline", "Create outline", "Create an article outline with H2/H3 headings that covers the keywords.", ms = 400),
        SeedTask("draft-article", "Draft article", "Draft a 1,200-word article in Northwind's voice following the outline.", listOf("generate_doc"), ms = 900),
        SeedTask("seo-check", "SEO check", "Check headings, meta description and internal links, and finalise the article.", ms = 400, file = SeedFile("blog-article.md", MD)),
    ), variables = listOf(str("topic", required = true))),
    SeedWorkflow("c-p0tm0qldrk1q820s", "Press Release Drafter", chain(
        SeedTask("gather-facts", "Gather announcement facts", "Gather the facts, quotes and dates for the announcement.", ms = 500),
        SeedTask("draft-release", "Draft press release", "Draft a press release in AP style with a headline, lead paragraph, quotes and boilerplate.", listOf("generate_doc"), ms = 700, file = SeedFile("press-release.md", MD)),
    )),
    SeedWorkflow("c-8m5fvikr8swajfck", "Daily Retail News Briefing", chain(
        SeedTask("scan-news", "Scan retail news", "Scan today's retail and apparel industry news and select the ten most relevant stories.", listOf("web_search"), ms = 700),
        SeedTask("write-briefing", "Write the briefing", "Write a short morning briefing with one-line takeaways for each story.", ms = 500),
    )),
    SeedWorkflow("c-1o94acoz44518hpp", "Support Ticket Triage", chain(
        SeedTask("fetch-tickets", "Fetch open tickets", "Fetch unassigned support tickets from the last 24 hours.", listOf("helpdesk"), ms = 500),
        SeedTask("categorize", "Categorise tickets", "Categorise each ticket (order status, returns, product question, complaint) and set a priority.", ms = 600),
        SeedTask("route-tickets", "Route tickets", "Propose an assignee team for each ticket and summarise the queue.", ms = 400, file = SeedFile("triage-summary.json", JSON)),
    )),
    SeedWorkflow("c-93k7389ycl2ozvxj", "Expense Report Audit", chain(
        SeedTask("load-expenses", "Load expense reports", "Load this month's submitted expense reports.", listOf("spreadsheet"), ms = 500),
        SeedTask("check-policy", "Check against policy", "Check every line against the travel and expense policy (limits, receipts, approvals).", listOf("data_analysis"), ms = 700),
        SeedTask("list-exceptions", "List exceptions", "List policy exceptions with the employee, amount and rule broken.", ms = 400, file = SeedFile("expense-exceptions.csv", CSV)),
    )),
    SeedWorkflow("c-wovd2o279wq0fxog", "Monthly Customer Newsletter", chain(
        SeedTask("pick-stories", "Pick newsletter stories", "Pick the month's product launches, staff picks and store events for the newsletter.", ms = 500),
        SeedTask("write-copy", "Write newsletter copy", "Write the newsletter copy with a subject line, intro and three sections.", listOf("email"), ms = 700),
        SeedTask("build-html", "Build newsletter HTML", "Lay out the copy as a simple HTML email.", ms = 400, file = SeedFile("newsletter-draft.html", HTML)),
    )),
    SeedWorkflow("c-osr7wiahwd1kabf2", "Sales Call Prep Brief", chain(
        SeedTask("account-history", "Review account history", "Review the wholesale account's order history and open opportunities in the CRM.", listOf("crm"), ms = 500),
        SeedTask("write-brief", "Write call brief", "Write a one-page call brief with talking points and likely objections.", ms = 500),
    ), variables = listOf(str("account_name", required = true))),
    SeedWorkflow("c-gyps5fq384jeg0xq", "Brand Mention Monitor", chain(
        SeedTask("search-mentions", "Search brand mentions", "Search news, blogs and forums for mentions of Northwind Outfitters in the last week.", listOf("web_search"), ms = 700),
        SeedTask("summarize-mentions", "Summarise mentions", "Summarise the mentions by sentiment and flag any that need a response.", ms = 500),
    )),
    SeedWorkflow("c-vxbd5sqde7imxde2", "Employee Engagement Survey Insights", chain(
        SeedTask("load-survey", "Load survey results", "Load the engagement survey export.", listOf("spreadsheet"), ms = 500),
        SeedTask("analyze-scores", "Analyse scores", "Analyse engagement scores by team and question, compared with last year.", listOf("data_analysis"), ms = 700),
        SeedTask("write-insights", "Write insights", "Write the key insights and three recommended actions for HR.", listOf("generate_doc"), ms = 500, file = SeedFile("survey-insights.md", MD)),
    ), variables = listOf(res("survey_export", required = false))),
    SeedWorkflow("c-93idwcmdgkzclj4m", "Product Launch Checklist", listOf(
        SeedTask("build-checklist", "Build launch checklist", "Build a launch checklist covering merchandising, marketing, e-commerce and store operations for the new collection.", ms = 600),
    )),
    SeedWorkflow("c-p8udd0wbvkrr53e6", "Vendor Comparison Matrix", chain(
        SeedTask("collect-quotes", "Collect vendor quotes", "Collect the received quotes for the new packaging supplier.", listOf("document_reader"), ms = 500),
        SeedTask("score-vendors", "Score vendors", "Score each vendor on price, lead time, sustainability and minimum order quantity.", listOf("data_analysis"), ms = 600),
        SeedTask("build-matrix", "Build comparison matrix", "Build the comparison matrix and recommend a vendor.", ms = 400, file = SeedFile("vendor-comparison.csv", CSV)),
    )),
    SeedWorkflow("c-njn9p2yc1vt3w00t", "Product Catalog Translation", chain(
        SeedTask("extract-catalog", "Extract catalog texts", "Extract product names, descriptions and size guides from the catalog.", ms = 500),
        SeedTask("translate-catalog", "Translate catalog", "Translate the catalog texts into the target language, keeping product names unchanged.", listOf("translation"), ms = 800, file = SeedFile("catalog-translation.csv", CSV)),
    ), variables = listOf(opt("target_language", true, "French", "German", "Spanish", "Italian", "Japanese"))),
    SeedWorkflow("c-2lcqmwp0nyzksqqz", "Store Opening Event Plan", chain(
        SeedTask("venue-logistics", "Plan logistics", "Plan staffing, opening hours and logistics for the store opening weekend.", listOf("calendar"), ms = 500),
        SeedTask("plan-promotions", "Plan promotions", "Plan opening promotions and partner activities.", ms = 500),
        SeedTask("write-plan", "Write event plan", "Write the event plan with a timeline and a budget summary.", listOf("generate_doc"), ms = 500, file = SeedFile("store-opening-plan.md", MD)),
    )),
    SeedWorkflow("c-1zhjb97ffv84pm40", "Customer Churn Risk Review", chain(
        SeedTask("load-accounts", "Load loyalty accounts", "Load loyalty-programme accounts with their purchase history.", listOf("crm"), ms = 500),
        SeedTask("score-churn", "Score churn risk", "Score churn risk from recency, frequency and return behaviour.", listOf("data_analysis"), ms = 700),
        SeedTask("list-at-risk", "List at-risk customers", "List the at-risk customers with a suggested win-back offer.", ms = 400, file = SeedFile("churn-risk-accounts.csv", CSV)),
    )),
    SeedWorkflow("c-21s86x0b20g06oia", "Competitor Price Watch", chain(
        SeedTask("check-prices", "Check competitor prices", "Check competitor prices for our top 50 SKUs.", listOf("web_search"), ms = 700),
        SeedTask("price-report", "Write price report", "Report the SKUs where we are more than 5% above the market.", ms = 400, file = SeedFile("price-watch.csv", CSV)),
    )),
    SeedWorkflow("c-783cck9kwlf2un1a", "Returns Policy FAQ Builder", chain(
        SeedTask("read-policy", "Read returns policy", "Read the current returns and exchange policy.", ms = 400),
        SeedTask("write-faq", "Write FAQ", "Write a customer-facing FAQ with the ten most common questions about returns.", ms = 500),
    )),
)

/** Tenant B: Lumen Dental Group, a small chain of dental clinics. */
val TENANT_B_WORKFLOWS: List<SeedWorkflow> = listOf(
    SeedWorkflow("c-g1uxdj7fc4ux5y0p", "Patient Appointment Reminders", chain(
        SeedTask("load-appointments", "Load tomorrow's appointments", "Load tomorrow's appointments for the selected clinic.", listOf("calendar"), ms = 500),
        SeedTask("draft-reminders", "Draft reminder messages", "Draft a friendly reminder message for each patient with time and preparation notes.", listOf("email"), ms = 600),
    ), variables = listOf(opt("clinic_location", true, "Downtown", "Riverside", "Westgate"))),
    SeedWorkflow("c-fvfoq2dj8oyk4q64", "Monthly Clinic Revenue Summary", chain(
        SeedTask("load-billing", "Load billing data", "Load the month's billing data for all clinics.", listOf("spreadsheet"), ms = 500),
        SeedTask("analyze-revenue", "Analyse revenue", "Analyse revenue by clinic, treatment type and insurer.", listOf("data_analysis"), ms = 600),
        SeedTask("write-summary", "Write revenue summary", "Write the monthly revenue summary for the practice owners.", listOf("generate_doc"), ms = 500, file = SeedFile("clinic-revenue-summary.md", MD)),
    )),
    SeedWorkflow("c-gnaffkzdg3pd99gw", "Dental Supply Reorder Check", chain(
        SeedTask("check-supplies", "Check supply levels", "Check stock of consumables (gloves, anaesthetics, composites) at each clinic.", listOf("spreadsheet"), ms = 500),
        SeedTask("reorder-list", "Prepare reorder list", "Prepare the reorder list for items below minimum stock.", ms = 400, file = SeedFile("supply-reorder.csv", CSV)),
    )),
    SeedWorkflow("c-iyu84pi3h19p11x2", "Patient Review Responses", chain(
        SeedTask("collect-reviews", "Collect new reviews", "Collect new online patient reviews from the last week.", listOf("web_search"), ms = 500),
        SeedTask("draft-responses", "Draft responses", "Draft a professional, privacy-compliant response to each review.", ms = 500),
    )),
    SeedWorkflow("c-hkt7rwpex0pdt3ru", "Insurance Claim Pre-Check", chain(
        SeedTask("read-claim", "Read claim documents", "Read the uploaded claim documents and extract treatment codes and amounts.", listOf("document_reader"), ms = 600),
        SeedTask("precheck", "Pre-check claim", "Check the claim for missing information before submission to the insurer.", ms = 500),
    ), variables = listOf(res("claim_documents", required = true))),
)
