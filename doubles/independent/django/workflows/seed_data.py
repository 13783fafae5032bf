"""Seed accounts: tenant A (Larkspur Logistics, 17 workflows) and tenant B (Brightside Dental).

Durations are seconds at speed 1. `{{name}}` in titles, messages and files is replaced by
the run's variable values (file variables by the uploaded file names).
"""


def var(name, variable_type="string", required=False, options=None, default=None):
    return {"name": name, "variable_type": variable_type, "required": required,
            "options": list(options or []), "default_value": default}


def task(task_id, title, prompt, *, output, tools=(), deps=(), dur=2.0, plan=None, tool_result=None,
         reasoning="", files=(), fail=""):
    messages = []
    if tools:
        messages.append({"type": "ai", "content": plan or f"Calling {tools[0]} to {title[0].lower() + title[1:]}.",
                         "at": 0.0})
        messages.append({"type": "tool", "content": tool_result or f"{tools[0]}: ok", "at": 0.35})
    messages.append({"type": "ai", "content": output, "reasoning": reasoning, "at": 0.45 if tools else 0.0,
                     "stream": True})
    return {
        "task_id": task_id, "title": title, "prompt": prompt, "toolsets": list(tools),
        "dependent_tasks": list(deps), "duration_seconds": dur, "messages": messages,
        "files": [{"name": n, "type": t, "content": c} for n, t, c in files], "fail_message": fail,
    }


def workflow(canvas_id, title, tasks, variables=(), api_enabled=True, created_days_ago=30, updated_days_ago=2):
    return {"canvas_id": canvas_id, "title": title, "tasks": tasks, "variables": list(variables),
            "api_enabled": api_enabled, "created_days_ago": created_days_ago, "updated_days_ago": updated_days_ago}


MD, CSV, HTML, TXT = "text/markdown", "text/csv", "text/html", "text/plain"

TENANT_A = {
    "slug": "larkspur-logistics",
    "name": "Larkspur Logistics",
    "env_key": "WF_KEY_A",
    "default_key": "wfk_live_larkspur_3f9c2e7a81d44b6c",
    "workflows": [
        workflow("c-9xul4hskjn46sq4qxanq", "Weekly Sales Pipeline Digest", [
            task("pull-opportunities", "Pull open opportunities",
                 "Fetch all open opportunities for {{region}} from the CRM, with stage, amount and last activity.",
                 tools=["crm_connector"], dur=1.5,
                 tool_result="crm_connector.query_opportunities: 142 open opportunities returned (region: {{region}}).",
                 reasoning="I need the full open pipeline before I can say anything about movement this week.",
                 output="The {{region}} pipeline holds 142 open opportunities worth $4.8M. 23 moved stage this week, "
                        "9 were added and 4 closed-won ($312K)."),
            task("flag-stalled", "Flag stalled deals",
                 "List opportunities with no activity in the last 21 days and an amount above $20K.",
                 deps=["pull-opportunities"], dur=1.5,
                 output="11 deals are stalled (no activity for 21+ days, $846K in total). The largest are "
                        "Meridian Foods ($140K, proposal) and Oakridge Retail ($95K, negotiation)."),
            task("write-digest", "Write the weekly digest",
                 "Write a one-page digest for the sales leadership: headline numbers, movement, stalled deals.",
                 tools=["generate_doc"], deps=["flag-stalled"], dur=2.0,
                 tool_result="generate_doc: weekly-pipeline-digest.md created (1 page).",
                 output="The weekly pipeline digest for {{region}} is ready: $4.8M open, $312K won, 11 stalled "
                        "deals to review in Monday's forecast call.",
                 files=[("weekly-pipeline-digest.md", MD,
                         "# Weekly Sales Pipeline Digest — {{region}}\n\n"
                         "- Open pipeline: 142 opportunities, $4.8M\n- Closed-won this week: 4 ($312K)\n"
                         "- Stage movements: 23\n\n## Stalled deals\n\n| Account | Amount | Stage |\n|---|---|---|\n"
                         "| Meridian Foods | $140K | Proposal |\n| Oakridge Retail | $95K | Negotiation |\n")]),
        ], variables=[var("region", default="All regions")], created_days_ago=120, updated_days_ago=3),

        workflow("c-vy76f7pl9u9qapydybw0", "Contract Clause Review", [
            task("extract-clauses", "Extract key clauses",
                 "Read {{contract}} and extract the liability, termination, renewal, payment and indemnity clauses.",
                 tools=["document_reader"], dur=2.0,
                 tool_result="document_reader: parsed {{contract}} (14 pages, 38 clauses).",
                 output="Extracted 5 key clauses from {{contract}}: limitation of liability (§9.2), termination "
                        "for convenience (§12.1, 60 days), auto-renewal (§3.4, 12 months), payment terms (net 45) "
                        "and a mutual indemnity (§10)."),
            task("assess-risk", "Assess contractual risk",
                 "Rate each extracted clause against our contracting playbook ({{reviewDepth}} review).",
                 deps=["extract-clauses"], dur=2.0,
                 reasoning="Compare each clause with the playbook positions: liability cap, notice periods, renewal.",
                 output="Risk assessment ({{reviewDepth}}): liability cap of 1x annual fees is below our 2x "
                        "standard (medium risk); auto-renewal lacks a notice window (high risk); other clauses "
                        "are within playbook."),
            task("draft-memo", "Draft review memo",
                 "Draft a review memo for the legal team with findings and proposed redlines.",
                 tools=["generate_doc"], deps=["assess-risk"], dur=1.5,
                 tool_result="generate_doc: contract-review-memo.md created.",
                 output="The review memo for {{contract}} is ready with 2 proposed redlines (§3.4 renewal notice, "
                        "§9.2 liability cap).",
                 files=[("contract-review-memo.md", MD,
                         "# Contract review memo\n\nDocument: {{contract}}\nReview depth: {{reviewDepth}}\n\n"
                         "## Findings\n1. §3.4 auto-renewal has no notice window — **high risk**.\n"
                         "2. §9.2 liability cap at 1x fees — medium risk.\n\n## Proposed redlines\n"
                         "- §3.4: add 60-day written notice before renewal.\n- §9.2: raise cap to 2x annual fees.\n")]),
        ], variables=[var("contract", "resource", required=True),
                      var("reviewDepth", "option", options=["Standard", "Detailed"], default="Standard")],
           created_days_ago=95, updated_days_ago=10),

        workflow("c-gmxijxxyirgz6am6iwqp", "Support Ticket Triage", [
            task("collect-tickets", "Collect new tickets",
                 "Fetch all tickets opened in the last 24 hours from the help desk.",
                 tools=["helpdesk_connector"], dur=1.0,
                 tool_result="helpdesk_connector.list_tickets: 57 tickets opened in the last 24 hours.",
                 output="57 new tickets were opened in the last 24 hours (31 shipment tracking, 14 billing, "
                        "12 damaged goods)."),
            task("classify-tickets", "Classify by urgency",
                 "Classify each ticket by urgency and keep those at or above {{priorityLevel}} priority.",
                 deps=["collect-tickets"], dur=1.5,
                 reasoning="Damaged goods and missed deliveries for key accounts rank highest.",
                 output="18 tickets are at or above {{priorityLevel}} priority; 6 concern damaged pallets for "
                        "key accounts and need a call back today."),
            task("post-summary", "Post triage summary",
                 "Post the triage summary to the #support-leads channel.",
                 tools=["slack"], deps=["classify-tickets"], dur=1.0,
                 tool_result="slack.post_message: posted to #support-leads (ts 1718.22).",
                 output="Triage summary posted to #support-leads: 18 tickets at {{priorityLevel}} priority or "
                        "above, 6 call-backs assigned."),
        ], variables=[var("priorityLevel", "option", options=["Low", "Medium", "High", "Urgent"], default="High")],
           created_days_ago=88, updated_days_ago=1),

        workflow("c-g32nstz059bte7yqujx5", "Competitor Pricing Snapshot", [
            task("research-prices", "Research published prices",
                 "Search the web for the published freight and warehousing rates of {{competitor}}.",
                 tools=["web_search"], dur=2.0,
                 tool_result="web_search: 9 results for \"{{competitor}} freight rates 2025\".",
                 output="{{competitor}} publishes LTL rates from $1.92 per mile and pallet storage from "
                        "$14.50 per pallet per month; fuel surcharge is 28%."),
            task("compare-prices", "Compare with our price list",
                 "Compare {{competitor}}'s rates with the Larkspur 2025 price list lane by lane.",
                 tools=["spreadsheet"], deps=["research-prices"], dur=1.5,
                 tool_result="spreadsheet: compared 12 lanes.",
                 output="Across 12 lanes we are 4% cheaper on average than {{competitor}} for LTL, but 9% "
                        "more expensive on pallet storage."),
            task("summarize-positioning", "Summarize positioning",
                 "Summarize our price positioning against {{competitor}} for the sales team.",
                 deps=["compare-prices"], dur=1.0,
                 output="Lead with LTL price advantage against {{competitor}}; bundle storage with transport to "
                        "offset the 9% storage gap.",
                 files=[("pricing-comparison.csv", CSV,
                         "service,larkspur,{{competitor}},difference_pct\nLTL per mile,1.84,1.92,-4.2\n"
                         "Pallet storage per month,15.80,14.50,9.0\nFuel surcharge pct,26,28,-2.0\n")]),
        ], variables=[var("competitor", required=True)], created_days_ago=70, updated_days_ago=6),

        workflow("c-6t5nyrnrnuglckqka9ga", "Quarterly Board Report Pack", [
            task("financials", "Gather financial results",
                 "Pull revenue, gross margin and EBITDA for {{quarter}} from the finance workbook.",
                 tools=["spreadsheet"], dur=2.0,
                 tool_result="spreadsheet.read_range: FY25 Finance!A1:M40 (40 rows).",
                 output="{{quarter}}: revenue $18.4M (+11% YoY), gross margin 23.8%, EBITDA $2.1M."),
            task("headcount", "Gather headcount figures",
                 "Pull headcount, hires and attrition for {{quarter}} from the HR system.",
                 tools=["hris_connector"], dur=1.5,
                 tool_result="hris_connector.headcount_report: 412 employees.",
                 output="Headcount 412 (+18 net), 31 hires, annualised attrition 9.6%."),
            task("customer-kpis", "Summarize customer KPIs",
                 "Summarize on-time delivery, NPS and key account churn for {{quarter}}.",
                 tools=["crm_connector"], dur=2.5,
                 tool_result="crm_connector.kpi_snapshot: 3 KPIs.",
                 output="On-time delivery 96.2%, NPS 47 (+5), no key account churn."),
            task("narrative", "Draft executive narrative",
                 "Write the CEO's narrative combining the financial, people and customer results.",
                 deps=["financials", "headcount", "customer-kpis"], dur=2.0,
                 reasoning="Open with growth, then margin pressure from fuel, then people and customers.",
                 output="{{quarter}} was a strong quarter: 11% growth with stable margins despite fuel costs, "
                        "a record on-time rate and no key account losses."),
            task("assemble-pack", "Assemble board pack",
                 "Assemble the board pack and the KPI appendix.",
                 tools=["generate_doc"], deps=["narrative"], dur=1.5,
                 tool_result="generate_doc: board-pack.md and kpi-appendix.csv created.",
                 output="The {{quarter}} board pack is assembled (narrative, financials, people, customers) "
                        "with a KPI appendix.",
                 files=[("board-pack.md", MD,
                         "# Board Report Pack — {{quarter}}\n\n## Executive summary\n{{quarter}} revenue "
                         "$18.4M (+11% YoY), EBITDA $2.1M.\n\n## People\nHeadcount 412, attrition 9.6%.\n\n"
                         "## Customers\nOn-time delivery 96.2%, NPS 47.\n"),
                        ("kpi-appendix.csv", CSV,
                         "kpi,value\nrevenue_musd,18.4\ngross_margin_pct,23.8\nebitda_musd,2.1\nheadcount,412\n"
                         "on_time_pct,96.2\nnps,47\n")]),
        ], variables=[var("quarter", "option", options=["Q1", "Q2", "Q3", "Q4"], default="Q3")],
           created_days_ago=200, updated_days_ago=14),

        workflow("c-qew0s59kfl4qn5u85i24", "CRM Contact Enrichment", [
            task("find-gaps", "Find contacts missing firmographics",
                 "List CRM contacts created this month that lack company size, industry or country.",
                 tools=["crm_connector"], dur=1.5,
                 tool_result="crm_connector.search_contacts: 86 contacts with missing firmographics.",
                 output="86 contacts created this month are missing firmographics (54 lack industry, "
                        "41 lack company size)."),
            task("sync-records", "Sync enriched records to CRM",
                 "Enrich the contacts from the data provider and write the fields back to the CRM.",
                 tools=["crm_connector"], deps=["find-gaps"], dur=2.0,
                 tool_result="crm_connector.bulk_update: HTTP 503 Service Unavailable (3 attempts).",
                 output="Enriched 86 contacts from the data provider. Writing the records back to the CRM",
                 fail="Tool call failed (E3012): crm_connector.bulk_update returned 503 Service Unavailable "
                      "after 3 attempts."),
            task("email-summary", "Email enrichment summary",
                 "Email the enrichment summary to the marketing operations team.",
                 tools=["send_email"], deps=["sync-records"], dur=1.0,
                 tool_result="send_email: sent to marketing-ops@larkspur.example.",
                 output="Enrichment summary sent to marketing operations."),
        ], created_days_ago=60, updated_days_ago=4),

        workflow("c-0wyvp0tnbe7ok60jo706", "Annual Compliance Audit", [
            task("collect-policies", "Collect policy documents",
                 "Collect the current versions of all information-security and data-protection policies.",
                 tools=["document_reader"], dur=2.0,
                 tool_result="document_reader: 23 policy documents indexed.",
                 output="23 policies collected; 3 are past their annual review date (Access Control, "
                        "Vendor Management, Incident Response)."),
            task("access-evidence", "Check access control evidence",
                 "Check user access reviews, joiner/mover/leaver tickets and admin account inventory.",
                 tools=["iam_connector"], deps=["collect-policies"], dur=3.0,
                 tool_result="iam_connector.access_review_report: 1,204 accounts, 4 quarterly reviews.",
                 output="Quarterly access reviews were completed 4 of 4 times; 7 leaver accounts were disabled "
                        "later than 24 hours."),
            task("data-protection", "Review data protection controls",
                 "Review encryption, retention schedules and the records of processing activities.",
                 deps=["access-evidence"], dur=3.0,
                 reasoning="Check encryption at rest, retention enforcement and whether the RoPA is current.",
                 output="Encryption at rest is enabled on all production stores; the retention schedule for "
                        "driver telematics is not enforced (finding)."),
            task("vendor-risk", "Assess vendor risk",
                 "Check that every critical vendor has a current security assessment and DPA.",
                 tools=["spreadsheet"], deps=["data-protection"], dur=2.5,
                 tool_result="spreadsheet.read_range: Vendor Register!A1:H58 (58 vendors).",
                 output="52 of 58 vendors have a current assessment; 2 critical vendors lack a signed DPA."),
            task("audit-report", "Write audit findings report",
                 "Write the audit findings report with severity, owners and due dates.",
                 tools=["generate_doc"], deps=["vendor-risk"], dur=1.5,
                 tool_result="generate_doc: compliance-audit-findings.md and evidence-index.csv created.",
                 output="The annual compliance audit found 4 issues (1 high, 2 medium, 1 low); owners and due "
                        "dates are in the findings report.",
                 files=[("compliance-audit-findings.md", MD,
                         "# Annual Compliance Audit — Findings\n\n| # | Finding | Severity | Owner | Due |\n"
                         "|---|---|---|---|---|\n| 1 | Telematics retention not enforced | High | Data Eng | 30 days |\n"
                         "| 2 | Late leaver deprovisioning (7) | Medium | IT Ops | 45 days |\n"
                         "| 3 | 2 critical vendors without DPA | Medium | Procurement | 30 days |\n"
                         "| 4 | 3 policies past review date | Low | Security | 60 days |\n"),
                        ("evidence-index.csv", CSV,
                         "evidence_id,control,source\nEV-001,Access reviews,iam_connector\n"
                         "EV-002,Encryption at rest,cloud console export\nEV-003,Vendor register,spreadsheet\n")]),
        ], created_days_ago=300, updated_days_ago=20),

        workflow("c-nj2xxukzt1fxcxrfusmo", "Vendor Invoice Reconciliation", [
            task("match-invoices", "Match invoices to purchase orders",
                 "Match this month's vendor invoices to purchase orders and goods receipts.",
                 tools=["erp_connector"], dur=2.0,
                 tool_result="erp_connector.three_way_match: 318 invoices processed.",
                 output="301 of 318 invoices match their PO and receipt; 17 have price or quantity differences."),
            task("report-exceptions", "Report exceptions",
                 "List the unmatched invoices with the difference and the buyer responsible.",
                 deps=["match-invoices"], dur=1.5,
                 output="17 exceptions totalling $23,410 were routed to 6 buyers.",
                 files=[("invoice-exceptions.csv", CSV,
                         "invoice,vendor,difference_usd,buyer\nINV-88213,Apex Pallets,1240.00,M. Chen\n"
                         "INV-88257,Northline Fuel,3980.50,R. Ortiz\n")]),
        ], api_enabled=False, created_days_ago=150, updated_days_ago=30),

        workflow("c-sj5cabi7qbf80qh6i5xv", "Social Media Content Calendar", [
            task("pick-themes", "Pick monthly themes",
                 "Pick four weekly themes for next month's LinkedIn posts based on company news.",
                 dur=1.5,
                 reasoning="Tie themes to the new Rotterdam hub, driver recognition and sustainability numbers.",
                 output="Themes: Rotterdam hub opening, Driver of the Month, electric fleet milestone, "
                        "peak-season readiness."),
            task("write-calendar", "Write the content calendar",
                 "Write eight post drafts (two per theme) with dates and a content calendar.",
                 tools=["generate_doc"], deps=["pick-themes"], dur=2.0,
                 tool_result="generate_doc: content-calendar.csv created (8 rows).",
                 output="Eight LinkedIn posts are drafted and scheduled, two per week.",
                 files=[("content-calendar.csv", CSV,
                         "date,theme,draft\n2025-07-01,Rotterdam hub,\"Our new Rotterdam cross-dock opens today…\"\n"
                         "2025-07-08,Driver of the Month,\"Meet Sofia, 12 years without an incident…\"\n")]),
        ], created_days_ago=45, updated_days_ago=5),

        workflow("c-yjr9n6644iwgaaesfyvr", "Job Description Writer", [
            task("draft-jd", "Draft job description",
                 "Write a job description for a {{roleTitle}} at Larkspur Logistics with responsibilities, "
                 "requirements and benefits.",
                 dur=2.0,
                 reasoning="Keep it concise, inclusive and specific to a logistics operations context.",
                 output="**{{roleTitle}} — Larkspur Logistics**\n\nYou will coordinate daily dispatch, work with "
                        "carriers and warehouse teams, and keep customers informed. You bring 2+ years in "
                        "logistics operations and are comfortable with TMS tools. We offer hybrid work, "
                        "a 6% pension match and 27 days of leave."),
        ], variables=[var("roleTitle", default="Operations Coordinator")], created_days_ago=40, updated_days_ago=9),

        workflow("c-72ps178xxbucfmn60ubm", "Meeting Notes Summary", [
            task("summarize-notes", "Summarize meeting notes",
                 "Summarize the notes of the weekly operations meeting into decisions and action items.",
                 dur=1.5,
                 output="Decisions: move the Leeds cut-off to 17:30; trial two electric vans on the Bristol "
                        "route. Actions: Priya to update carrier SLAs by Friday; Tom to brief night shift."),
            task("share-actions", "Share action items",
                 "Send the action items to the attendees.",
                 tools=["send_email"], deps=["summarize-notes"], dur=1.0,
                 tool_result="send_email: sent to 9 attendees.",
                 output="Action items were sent to the 9 attendees."),
        ], created_days_ago=35, updated_days_ago=8),

        workflow("c-lg570lkb02ulzy46c5bm", "Inventory Reorder Forecast", [
            task("demand-forecast", "Forecast demand",
                 "Forecast the next 8 weeks of demand per SKU from 52 weeks of shipments.",
                 tools=["code_interpreter"], dur=2.5,
                 tool_result="code_interpreter: fitted seasonal model for 640 SKUs (MAPE 8.7%).",
                 output="Demand forecast done for 640 SKUs; packaging materials peak in week 6."),
            task("reorder-plan", "Build reorder plan",
                 "Compute reorder quantities against stock on hand and supplier lead times.",
                 deps=["demand-forecast"], dur=1.5,
                 output="38 SKUs need a reorder this week; 5 are at risk of stock-out before delivery.",
                 files=[("reorder-plan.csv", CSV,
                         "sku,description,on_hand,reorder_qty,risk\nPKG-1001,Stretch film 500mm,120,600,high\n"
                         "PKG-1044,Pallet labels A5,3000,10000,medium\nPAL-2001,EUR pallet,410,800,low\n")]),
        ], created_days_ago=80, updated_days_ago=2),

        workflow("c-6rng4c5kwnes7qjwbbr8", "Customer Churn Risk Report", [
            task("usage-signals", "Collect usage signals",
                 "Collect shipment volumes, complaints and late payments per account for the last 90 days.",
                 tools=["crm_connector"], dur=2.0,
                 tool_result="crm_connector.account_signals: 214 accounts.",
                 output="Signals collected for 214 accounts."),
            task("score-accounts", "Score churn risk",
                 "Score each account's churn risk from the signals.",
                 tools=["code_interpreter"], deps=["usage-signals"], dur=2.0,
                 tool_result="code_interpreter: risk scores computed.",
                 output="12 accounts score as high risk, mostly due to falling volumes (-30% or more)."),
            task("churn-report", "Write churn risk report",
                 "Write a report with the high-risk accounts and a suggested save action for each.",
                 deps=["score-accounts"], dur=1.5,
                 output="The churn risk report lists 12 high-risk accounts with save actions.",
                 files=[("churn-risk-report.md", MD,
                         "# Customer Churn Risk\n\n| Account | Risk | Signal | Save action |\n|---|---|---|---|\n"
                         "| Fenwick Home | 0.82 | volume -41% | QBR with ops director |\n"
                         "| Castle Brews | 0.77 | 3 complaints | service recovery call |\n")]),
        ], created_days_ago=65, updated_days_ago=12),

        workflow("c-sld0kq450k46gz3g28ew", "Press Release Draft", [
            task("draft-release", "Draft press release",
                 "Draft a press release announcing: {{headline}}.",
                 dur=2.0,
                 output="FOR IMMEDIATE RELEASE — {{headline}}. Larkspur Logistics today announced… "
                        "The release includes a quote from the CEO and a boilerplate paragraph."),
            task("review-tone", "Review tone and facts",
                 "Check the draft for tone, claims that need sources, and house style.",
                 deps=["draft-release"], dur=1.0,
                 output="Tone is on brand; two figures need a source before publishing."),
        ], variables=[var("headline", default="Larkspur opens new cross-dock hub in Rotterdam")],
           created_days_ago=25, updated_days_ago=7),

        workflow("c-6sicaundpuhecu1kz32p", "New Hire Onboarding Checklist", [
            task("collect-role-info", "Collect role information",
                 "Collect the new hire's role, team, start date and equipment needs from the HR system.",
                 tools=["hris_connector"], dur=1.0,
                 tool_result="hris_connector.get_new_hires: 3 starters next week.",
                 output="3 starters next week: 2 warehouse supervisors (Leeds), 1 data analyst (London)."),
            task("build-checklist", "Build onboarding checklist",
                 "Build a checklist covering IT accounts, safety induction, equipment and a buddy.",
                 tools=["generate_doc"], deps=["collect-role-info"], dur=1.5,
                 tool_result="generate_doc: onboarding-checklist.md created.",
                 output="Onboarding checklists are ready for the 3 starters.",
                 files=[("onboarding-checklist.md", MD,
                         "# Onboarding checklist\n\n- [ ] Create IT accounts (day -3)\n- [ ] Order PPE and "
                         "laptop\n- [ ] Book safety induction (day 1)\n- [ ] Assign a buddy\n- [ ] 30-day "
                         "check-in\n")]),
        ], created_days_ago=55, updated_days_ago=15),

        workflow("c-hwnsxv6u58w862wae2ta", "Website SEO Health Check", [
            task("crawl-site", "Crawl the website",
                 "Crawl larkspur.example and collect titles, meta descriptions, status codes and load times.",
                 tools=["web_crawler"], dur=2.5,
                 tool_result="web_crawler: 312 pages crawled, 6 returned 404.",
                 output="312 pages crawled; 6 broken links and 19 pages without a meta description."),
            task("keyword-check", "Check target keywords",
                 "Check rankings for our 20 target keywords.",
                 tools=["web_search"], dur=2.0,
                 tool_result="web_search: rankings for 20 keywords.",
                 output="We rank on page 1 for 11 of 20 target keywords; \"pallet storage Leeds\" dropped to #14."),
            task("seo-report", "Write SEO report",
                 "Write a prioritised list of SEO fixes.",
                 deps=["crawl-site", "keyword-check"], dur=1.5,
                 output="The SEO report lists 3 priority fixes: broken links, missing meta descriptions and "
                        "the Leeds storage landing page.",
                 files=[("seo-health-check.md", MD,
                         "# SEO health check\n\n1. Fix 6 broken links (404).\n2. Add meta descriptions to 19 "
                         "pages.\n3. Refresh the Leeds pallet storage landing page.\n")]),
        ], created_days_ago=50, updated_days_ago=11),

        workflow("c-t4cbl17hzwtrjxuet32q", "Monthly Expense Summary", [
            task("load-expenses", "Load expense claims",
                 "Load all approved expense claims for last month from the expenses system.",
                 tools=["expenses_connector"], dur=1.5,
                 tool_result="expenses_connector.list_claims: 466 approved claims.",
                 output="466 approved claims totalling $61,870."),
            task("summarize-expenses", "Summarize by category",
                 "Summarize spend by category and cost centre and flag policy exceptions.",
                 tools=["spreadsheet"], deps=["load-expenses"], dur=1.5,
                 tool_result="spreadsheet: pivot by category and cost centre.",
                 output="Largest categories: fuel ($24.1K), lodging ($14.9K), meals ($7.2K). 9 claims were "
                        "above policy limits.",
                 files=[("expense-summary.csv", CSV,
                         "category,amount_usd,claims\nfuel,24100,188\nlodging,14900,61\nmeals,7200,143\n"
                         "other,15670,74\n")]),
        ], created_days_ago=100, updated_days_ago=18),
    ],
}

TENANT_B = {
    "slug": "brightside-dental",
    "name": "Brightside Dental Group",
    "env_key": "WF_KEY_B",
    "default_key": "wfk_live_brightside_8a2d5f0c9e174e3b",
    "workflows": [
        workflow("c-38xke5xi4lhvatiok2c6", "Patient Appointment Reminders", [
            task("list-appointments", "List tomorrow's appointments",
                 "List all appointments booked for tomorrow across the clinics.",
                 tools=["practice_management"], dur=1.0,
                 tool_result="practice_management.appointments: 94 appointments.",
                 output="94 appointments are booked for tomorrow across 4 clinics."),
            task("send-reminders", "Send reminders",
                 "Send an SMS reminder to every patient with a link to confirm or reschedule.",
                 tools=["sms_gateway"], deps=["list-appointments"], dur=1.5,
                 tool_result="sms_gateway.send_batch: 94 queued, 92 delivered.",
                 output="Reminders sent: 92 delivered, 2 numbers invalid (flagged to reception)."),
        ], created_days_ago=90, updated_days_ago=2),
        workflow("c-ddbo846solw717yfji9d", "Clinic Supply Reorder", [
            task("check-stock", "Check supply levels",
                 "Check stock of consumables at {{clinic}} against minimum levels.",
                 tools=["inventory_connector"], dur=1.5,
                 tool_result="inventory_connector.stock_levels: 120 items.",
                 output="At {{clinic}}, 14 consumables are below minimum (gloves M, prophy paste, X-ray sleeves)."),
            task("order-list", "Prepare order list",
                 "Prepare the order list for the dental supplier.",
                 deps=["check-stock"], dur=1.0,
                 output="Order list for {{clinic}} prepared: 14 lines, $1,980.",
                 files=[("supply-order.csv", CSV,
                         "item,quantity\nNitrile gloves M,20 boxes\nProphy paste mint,6 tubs\nX-ray sleeves,4 packs\n")]),
        ], variables=[var("clinic", "option", options=["Riverside", "Old Town", "Hillcrest", "Harbour"],
                          required=True)], created_days_ago=60, updated_days_ago=5),
        workflow("c-fl42hdlzv7rzn90t7r8p", "Patient Feedback Digest", [
            task("collect-reviews", "Collect reviews",
                 "Collect last month's patient reviews from the survey tool and Google reviews.",
                 tools=["web_search"], dur=1.5,
                 tool_result="web_search: 138 reviews.",
                 output="138 reviews collected, average rating 4.6."),
            task("digest", "Write feedback digest",
                 "Summarize praise and complaints by clinic.",
                 deps=["collect-reviews"], dur=1.5,
                 output="Patients praise hygienists at Riverside; waiting times at Old Town are the top complaint."),
        ], created_days_ago=45, updated_days_ago=9),
        workflow("c-8qud4llr29dl8f8q93lw", "Insurance Claim Follow-up", [
            task("open-claims", "Find open claims",
                 "Find insurance claims open for more than 30 days.",
                 tools=["practice_management"], dur=1.5,
                 tool_result="practice_management.claims: 27 claims older than 30 days.",
                 output="27 claims are open for more than 30 days ($8,430)."),
            task("draft-followups", "Draft follow-up letters",
                 "Draft follow-up letters to each insurer.",
                 deps=["open-claims"], dur=1.5,
                 output="Follow-up letters drafted for 5 insurers."),
        ], created_days_ago=30, updated_days_ago=3),
    ],
}

TENANTS = [TENANT_A, TENANT_B]
