"""Seed data for the Workflow Automation Service.

Every workflow is a dict with:
  canvasId, title, apiEnabled, createdAt/updatedAt (ISO strings, fixed so that
  ordering is deterministic), variables, tasks.

Variables: name, variableType (string | option | resource), required, options
(option only) and an internal ``default`` that is used when an optional
variable is not supplied (``default`` is never exposed by the API).

Tasks: id, title, prompt, toolsets, dependentTasks, plus internal simulation
data that is never exposed by the API:
  duration  - seconds at --speed 1.0
  tool      - content of the "tool" message (only when the task has toolsets)
  reasoning - reasoningContent of the "ai" message
  output    - content of the "ai" message
  files     - list of (file name, MIME type, content template)
  fail      - error message; when present the node always fails
  failAt    - fraction of the node's run after which its output stops growing

Templates may contain {{variable}} placeholders that are replaced by the
values given to the run endpoint (or by the variable defaults).
"""

TENANT_A_WORKFLOWS = [
    # ------------------------------------------------------------------ #
    # Multi-task workflow with a dependency graph (fan-out / fan-in).
    {
        "canvasId": "c-q7hm2zk9wr4xt1vd",
        "title": "Weekly Competitor Pricing Digest",
        "apiEnabled": True,
        "createdAt": "2025-03-03T09:12:44.000Z",
        "updatedAt": "2025-06-02T08:30:10.000Z",
        "variables": [
            {"name": "competitors", "variableType": "string", "required": False,
             "default": "Northwind Traders, Contoso Retail, Fabrikam Outdoor"},
            {"name": "region", "variableType": "option", "required": False,
             "options": ["North America", "Europe", "Asia Pacific"],
             "default": "North America"},
        ],
        "tasks": [
            {"id": "task-1", "title": "Collect competitor price lists",
             "prompt": "Visit the public price pages of {{competitors}} for the {{region}} market and capture list prices for every comparable SKU.",
             "toolsets": ["web_search", "web_scraper"], "dependentTasks": [],
             "duration": 2.0,
             "tool": "web_scraper: fetched 3 pricing pages for {{competitors}} ({{region}}), 142 price rows extracted.",
             "reasoning": "I need a like-for-like SKU list before any comparison can be made.",
             "output": "Captured 142 list prices across {{competitors}} in {{region}}. 9 SKUs had no public price and were flagged for manual follow-up."},
            {"id": "task-2", "title": "Normalize prices to a common currency",
             "prompt": "Convert all captured prices to USD using today's reference rates and align pack sizes.",
             "toolsets": ["code_interpreter"], "dependentTasks": ["task-1"],
             "duration": 1.5,
             "tool": "code_interpreter: normalized 142 rows, 3 currencies converted, 11 pack sizes re-based.",
             "reasoning": "Prices must be comparable per unit, otherwise bundle sizes distort the picture.",
             "output": "All prices are now expressed in USD per unit. Largest conversion adjustment: 4.2% on EUR-denominated SKUs."},
            {"id": "task-3", "title": "Detect promotions and bundle changes",
             "prompt": "Search for running promotions, coupon codes and bundle changes announced by {{competitors}} this week.",
             "toolsets": ["web_search"], "dependentTasks": ["task-1"],
             "duration": 1.5,
             "tool": "web_search: 18 results reviewed, 4 active promotions found.",
             "reasoning": "Temporary promotions explain most week-over-week price swings.",
             "output": "Found 4 active promotions, including a 15% spring bundle discount and a free-shipping threshold drop from $75 to $50."},
            {"id": "task-4", "title": "Compare against our price book",
             "prompt": "Compare normalized competitor prices and promotions with our current price book and compute the price index per category.",
             "toolsets": ["code_interpreter"], "dependentTasks": ["task-2", "task-3"],
             "duration": 2.0,
             "tool": "code_interpreter: joined 131 matched SKUs with the internal price book, computed 6 category indices.",
             "reasoning": "A category-level index is easier to act on than individual SKU gaps.",
             "output": "We are priced 3.8% above the market on average; the largest gap is in Camping Gear (+9.1%).",
             "files": [("pricing-matrix.csv", "text/csv",
                        "category,our_index,market_index,gap_pct\n"
                        "Camping Gear,109.1,100.0,9.1\nFootwear,101.2,100.0,1.2\n"
                        "Apparel,98.7,100.0,-1.3\nAccessories,104.4,100.0,4.4\n"
                        "Climbing,102.9,100.0,2.9\nWater Sports,106.5,100.0,6.5\n")]},
            {"id": "task-5", "title": "Write the weekly digest",
             "prompt": "Write a one-page pricing digest for the commercial team with the key moves, risks and recommended responses.",
             "toolsets": [], "dependentTasks": ["task-4"],
             "duration": 2.0,
             "reasoning": "The audience is the commercial team; lead with the decisions they need to make.",
             "output": "Weekly pricing digest ({{region}}): our Camping Gear prices sit 9.1% above {{competitors}}. Recommendation: match the spring bundle discount on tents and review the free-shipping threshold.",
             "files": [("weekly-pricing-digest.md", "text/markdown",
                        "# Weekly Competitor Pricing Digest\n\nRegion: {{region}}\n"
                        "Competitors: {{competitors}}\n\n## Key moves\n"
                        "- Spring bundle discount of 15% on tents\n"
                        "- Free-shipping threshold lowered to $50\n\n"
                        "## Recommendation\nMatch the tent bundle and review our shipping threshold.\n")]},
        ],
    },
    # ------------------------------------------------------------------ #
    # File variable (variableType resource).
    {
        "canvasId": "c-b3ne8ya5lc6pu2sf",
        "title": "Vendor Contract Risk Review",
        "apiEnabled": True,
        "createdAt": "2025-03-10T14:05:00.000Z",
        "updatedAt": "2025-05-28T16:41:27.000Z",
        "variables": [
            {"name": "contract", "variableType": "resource", "required": True},
            {"name": "governing_law", "variableType": "string", "required": False,
             "default": "State of New York"},
        ],
        "tasks": [
            {"id": "task-1", "title": "Extract key clauses",
             "prompt": "Read the uploaded contract {{contract}} and extract term, termination, liability, indemnity and data-protection clauses.",
             "toolsets": ["document_reader"], "dependentTasks": [],
             "duration": 2.0,
             "tool": "document_reader: parsed {{contract}}, 27 clauses identified.",
             "reasoning": "Only five clause families drive most vendor risk; extract those first.",
             "output": "Extracted 27 clauses from {{contract}}. Liability is capped at 12 months of fees; termination for convenience requires 90 days notice."},
            {"id": "task-2", "title": "Score clause risk",
             "prompt": "Score each extracted clause against our vendor playbook under the law of {{governing_law}}.",
             "toolsets": [], "dependentTasks": ["task-1"],
             "duration": 2.0,
             "reasoning": "Compare each clause with the playbook fallback positions.",
             "output": "2 high-risk clauses (uncapped indemnity, unilateral price changes), 4 medium, 21 low under {{governing_law}} law."},
            {"id": "task-3", "title": "Draft the review memo",
             "prompt": "Draft a review memo for legal with the risk summary and proposed redlines.",
             "toolsets": [], "dependentTasks": ["task-2"],
             "duration": 2.0,
             "reasoning": "Legal wants the redlines first, the rationale second.",
             "output": "Memo drafted with 6 proposed redlines for {{contract}}.",
             "files": [("contract-risk-memo.md", "text/markdown",
                        "# Contract Risk Memo\n\nDocument: {{contract}}\nGoverning law: {{governing_law}}\n\n"
                        "## High risk\n1. Uncapped indemnity (section 11.2)\n2. Unilateral price changes (section 4.5)\n\n"
                        "## Proposed redlines\n- Cap indemnity at 2x annual fees\n- Require 60 days notice for price changes\n")]},
        ],
    },
    # ------------------------------------------------------------------ #
    # Option variable (required) plus an optional option variable.
    {
        "canvasId": "c-m5tr9gw2hq8kz3jn",
        "title": "Social Media Campaign Drafts",
        "apiEnabled": True,
        "createdAt": "2025-03-18T11:20:31.000Z",
        "updatedAt": "2025-05-20T10:02:45.000Z",
        "variables": [
            {"name": "channel", "variableType": "option", "required": True,
             "options": ["LinkedIn", "X", "Instagram", "Facebook"]},
            {"name": "tone", "variableType": "option", "required": False,
             "options": ["Professional", "Friendly", "Playful"], "default": "Professional"},
            {"name": "product_name", "variableType": "string", "required": False,
             "default": "our spring collection"},
        ],
        "tasks": [
            {"id": "task-1", "title": "Research trending angles",
             "prompt": "Find what audiences on {{channel}} are currently engaging with around {{product_name}}.",
             "toolsets": ["web_search"], "dependentTasks": [],
             "duration": 1.5,
             "tool": "web_search: 24 recent {{channel}} posts analysed for engagement.",
             "reasoning": "Start from what already resonates on {{channel}}.",
             "output": "Top angles on {{channel}}: behind-the-scenes stories, customer results, limited-time offers."},
            {"id": "task-2", "title": "Write post drafts",
             "prompt": "Write five {{tone}} posts for {{channel}} promoting {{product_name}}.",
             "toolsets": [], "dependentTasks": ["task-1"],
             "duration": 2.0,
             "reasoning": "Keep each post within the {{channel}} length norms and the {{tone}} voice.",
             "output": "Five {{tone}} drafts for {{channel}} are ready, each with a hook, a proof point and a call to action for {{product_name}}.",
             "files": [("campaign-drafts.md", "text/markdown",
                        "# {{channel}} campaign drafts ({{tone}})\n\n"
                        "1. Meet {{product_name}}: built for the way you work.\n"
                        "2. Three customers, three results with {{product_name}}.\n"
                        "3. Behind the scenes: how {{product_name}} was made.\n"
                        "4. Limited time: early access to {{product_name}}.\n"
                        "5. Your questions about {{product_name}}, answered.\n")]},
            {"id": "task-3", "title": "Suggest a posting schedule",
             "prompt": "Propose a two-week posting schedule for the drafts on {{channel}}.",
             "toolsets": [], "dependentTasks": ["task-2"],
             "duration": 1.0,
             "reasoning": "Spread posts over peak engagement windows.",
             "output": "Post on Tuesday and Thursday at 09:00 and Saturday at 11:00 over two weeks on {{channel}}."},
        ],
    },
    # ------------------------------------------------------------------ #
    # Required string variable.
    {
        "canvasId": "c-d8xk4vp7sa1ye6wc",
        "title": "Customer Support Reply Assistant",
        "apiEnabled": True,
        "createdAt": "2025-04-01T08:00:00.000Z",
        "updatedAt": "2025-05-15T13:37:12.000Z",
        "variables": [
            {"name": "ticket_text", "variableType": "string", "required": True},
            {"name": "customer_name", "variableType": "string", "required": False,
             "default": "there"},
        ],
        "tasks": [
            {"id": "task-1", "title": "Classify the ticket",
             "prompt": "Classify this support ticket by topic, urgency and sentiment: {{ticket_text}}",
             "toolsets": [], "dependentTasks": [],
             "duration": 1.0,
             "reasoning": "Urgency decides the reply template.",
             "output": "Ticket classified. Topic: account and billing. Urgency: normal. Sentiment: frustrated. Ticket text: {{ticket_text}}"},
            {"id": "task-2", "title": "Draft the reply",
             "prompt": "Draft an empathetic reply to {{customer_name}} that resolves the ticket.",
             "toolsets": ["knowledge_base"], "dependentTasks": ["task-1"],
             "duration": 1.5,
             "tool": "knowledge_base: 3 help-center articles matched.",
             "reasoning": "Acknowledge the frustration, then give concrete steps.",
             "output": "Hi {{customer_name}},\n\nThanks for reaching out, and sorry for the trouble. Here is what we will do next: we have reviewed your request and applied the fix on our side. You should see the change within 24 hours.\n\nBest regards,\nThe Support Team"},
        ],
    },
    # ------------------------------------------------------------------ #
    # Failing workflow: node task-3 always fails.
    {
        "canvasId": "c-f2wz6nb9kt3mh7qr",
        "title": "Monthly Sales Forecast Refresh",
        "apiEnabled": True,
        "createdAt": "2025-04-07T07:45:00.000Z",
        "updatedAt": "2025-05-30T07:45:00.000Z",
        "variables": [
            {"name": "month", "variableType": "string", "required": False,
             "default": "last month"},
        ],
        "tasks": [
            {"id": "task-1", "title": "Export the CRM pipeline",
             "prompt": "Export all open and closed opportunities for {{month}} from the CRM.",
             "toolsets": ["crm_connector"], "dependentTasks": [],
             "duration": 2.0,
             "tool": "crm_connector: exported 1,284 opportunities for {{month}}.",
             "reasoning": "The forecast needs both open pipeline and closed history.",
             "output": "Exported 1,284 opportunities (932 open, 352 closed) for {{month}}."},
            {"id": "task-2", "title": "Clean and deduplicate records",
             "prompt": "Remove duplicate opportunities and fill missing close dates.",
             "toolsets": ["code_interpreter"], "dependentTasks": ["task-1"],
             "duration": 1.5,
             "tool": "code_interpreter: removed 41 duplicates, imputed 17 close dates.",
             "reasoning": "Duplicates inflate the pipeline value.",
             "output": "Clean data set: 1,243 opportunities. 17 close dates were imputed from stage history."},
            {"id": "task-3", "title": "Fit the forecast model",
             "prompt": "Fit a seasonal forecast model on closed-won revenue and project the next two quarters.",
             "toolsets": ["code_interpreter"], "dependentTasks": ["task-2"],
             "duration": 2.5,
             "tool": "code_interpreter: running seasonal decomposition on closed_won_amount ...",
             "reasoning": "A seasonal model needs at least 24 monthly observations of closed-won revenue.",
             "output": "Fitting the seasonal model on closed-won revenue. Preparing monthly series from the clean data set and checking for gaps before projecting the next two quarters.",
             "fail": "Tool call failed (E3012): code_interpreter raised ValueError: cannot fit seasonal model, column 'closed_won_amount' is empty for 3 of the last 6 months",
             "failAt": 0.7},
            {"id": "task-4", "title": "Publish the forecast dashboard",
             "prompt": "Publish the forecast to the revenue dashboard and notify the sales leadership channel.",
             "toolsets": ["dashboard_publisher", "slack"], "dependentTasks": ["task-3"],
             "duration": 1.5,
             "tool": "dashboard_publisher: forecast published.",
             "reasoning": "Leadership reviews the dashboard every Monday.",
             "output": "Forecast published and leadership notified.",
             "files": [("sales-forecast.csv", "text/csv", "month,forecast\n")]},
        ],
    },
    # ------------------------------------------------------------------ #
    # Slow workflow: 22 seconds in total at --speed 1.0.
    {
        "canvasId": "c-r6jc1xs8pe5vn4gb",
        "title": "Quarterly Market Research Report",
        "apiEnabled": True,
        "createdAt": "2025-04-14T10:30:00.000Z",
        "updatedAt": "2025-06-01T18:22:05.000Z",
        "variables": [
            {"name": "industry", "variableType": "string", "required": False,
             "default": "B2B SaaS"},
            {"name": "quarter", "variableType": "string", "required": False,
             "default": "Q2 2025"},
        ],
        "tasks": [
            {"id": "task-1", "title": "Gather analyst and news sources",
             "prompt": "Collect analyst notes, earnings calls and news about the {{industry}} market for {{quarter}}.",
             "toolsets": ["web_search"], "dependentTasks": [],
             "duration": 3.0,
             "tool": "web_search: 64 sources collected for {{industry}} ({{quarter}}).",
             "reasoning": "Breadth first: the later steps filter aggressively.",
             "output": "Collected 64 sources: 12 analyst notes, 9 earnings call transcripts, 43 news articles.",
             "files": [("sources.json", "application/json",
                        "{\"industry\": \"{{industry}}\", \"quarter\": \"{{quarter}}\", \"sources\": 64}\n")]},
            {"id": "task-2", "title": "Size the market",
             "prompt": "Estimate total addressable market and growth for {{industry}} using the collected sources.",
             "toolsets": ["code_interpreter"], "dependentTasks": ["task-1"],
             "duration": 4.0,
             "tool": "code_interpreter: triangulated 5 market-size estimates.",
             "reasoning": "Triangulate top-down and bottom-up estimates.",
             "output": "The {{industry}} market is estimated at $214B, growing 13.4% year over year."},
            {"id": "task-3", "title": "Profile the leading vendors",
             "prompt": "Profile the ten leading vendors: positioning, pricing, recent launches.",
             "toolsets": ["web_search"], "dependentTasks": ["task-1"],
             "duration": 5.0,
             "tool": "web_search: 10 vendor profiles compiled.",
             "reasoning": "Focus on what changed this quarter.",
             "output": "Ten vendor profiles compiled; three vendors launched AI assistants this quarter."},
            {"id": "task-4", "title": "Identify trends and risks",
             "prompt": "Identify the five most important trends and risks for {{quarter}}.",
             "toolsets": [], "dependentTasks": ["task-2", "task-3"],
             "duration": 4.0,
             "reasoning": "Rank by impact on buyers, not by media attention.",
             "output": "Top trends: consolidation, usage-based pricing, AI copilots, vertical suites, security-led buying."},
            {"id": "task-5", "title": "Draft the report",
             "prompt": "Draft the quarterly market research report with an executive summary.",
             "toolsets": [], "dependentTasks": ["task-4"],
             "duration": 3.0,
             "reasoning": "Executives read the first page only.",
             "output": "Report drafted: 14 pages with an executive summary, market sizing, vendor landscape and outlook."},
            {"id": "task-6", "title": "Review and publish",
             "prompt": "Proofread the report, check every figure against its source and publish it to the shared drive.",
             "toolsets": [], "dependentTasks": ["task-5"],
             "duration": 3.0,
             "reasoning": "Every number needs a source reference.",
             "output": "Report reviewed and published.",
             "files": [("market-research-report.md", "text/markdown",
                        "# {{industry}} Market Research Report, {{quarter}}\n\n"
                        "## Executive summary\nThe market is estimated at $214B (+13.4% YoY).\n\n"
                        "## Trends\n1. Consolidation\n2. Usage-based pricing\n3. AI copilots\n"
                        "4. Vertical suites\n5. Security-led buying\n")]},
        ],
    },
    # ------------------------------------------------------------------ #
    # Workflow whose API access is disabled: run answers 403.
    {
        "canvasId": "c-h9pa3ud6ym2cb8ke",
        "title": "Overdue Invoice Reminders",
        "apiEnabled": False,
        "createdAt": "2025-04-22T15:10:00.000Z",
        "updatedAt": "2025-05-05T09:14:51.000Z",
        "variables": [
            {"name": "days_overdue", "variableType": "string", "required": False,
             "default": "30"},
        ],
        "tasks": [
            {"id": "task-1", "title": "Find overdue invoices",
             "prompt": "List invoices that are more than {{days_overdue}} days overdue.",
             "toolsets": ["accounting_connector"], "dependentTasks": [],
             "duration": 1.5,
             "tool": "accounting_connector: 23 overdue invoices found.",
             "reasoning": "Only invoices past the threshold get a reminder.",
             "output": "23 invoices are more than {{days_overdue}} days overdue."},
            {"id": "task-2", "title": "Send reminder emails",
             "prompt": "Send a polite reminder email to each customer with an overdue invoice.",
             "toolsets": ["send_email"], "dependentTasks": ["task-1"],
             "duration": 1.5,
             "tool": "send_email: 23 reminders queued.",
             "reasoning": "Keep the tone polite for the first reminder.",
             "output": "23 reminder emails sent."},
        ],
    },
    # ------------------------------------------------------------------ #
    {
        "canvasId": "c-w4gs7lf1nd9zq5xa",
        "title": "Meeting Notes to Action Items",
        "apiEnabled": True,
        "createdAt": "2025-05-02T12:00:00.000Z",
        "updatedAt": "2025-05-12T12:48:33.000Z",
        "variables": [
            {"name": "notes", "variableType": "string", "required": False,
             "default": "Discussed Q3 roadmap. Anna to draft the launch plan by Friday. Ben to confirm budget."},
        ],
        "tasks": [
            {"id": "task-1", "title": "Extract action items",
             "prompt": "Extract every action item with its owner and due date from these notes: {{notes}}",
             "toolsets": [], "dependentTasks": [],
             "duration": 1.0,
             "reasoning": "An action item needs an owner and a verb.",
             "output": "Action items extracted from the notes: {{notes}}",
             "files": [("action-items.md", "text/markdown",
                        "# Action items\n\nSource notes:\n\n> {{notes}}\n")]},
        ],
    },
    # ------------------------------------------------------------------ #
    # Several file keys in one variable, option and required string.
    {
        "canvasId": "c-k1vy5ot3ej7rw9mh",
        "title": "Candidate Resume Screening",
        "apiEnabled": True,
        "createdAt": "2025-05-08T09:30:00.000Z",
        "updatedAt": "2025-05-25T17:05:19.000Z",
        "variables": [
            {"name": "resumes", "variableType": "resource", "required": True},
            {"name": "role_title", "variableType": "string", "required": True},
            {"name": "seniority", "variableType": "option", "required": False,
             "options": ["Junior", "Mid-level", "Senior", "Lead"], "default": "Mid-level"},
        ],
        "tasks": [
            {"id": "task-1", "title": "Parse resumes",
             "prompt": "Parse the uploaded resumes {{resumes}} into a structured profile per candidate.",
             "toolsets": ["document_reader"], "dependentTasks": [],
             "duration": 1.5,
             "tool": "document_reader: parsed {{resumes}}.",
             "reasoning": "Normalize job titles and years of experience first.",
             "output": "Parsed candidate profiles from {{resumes}}."},
            {"id": "task-2", "title": "Score against the role",
             "prompt": "Score every candidate against the {{seniority}} {{role_title}} role profile.",
             "toolsets": [], "dependentTasks": ["task-1"],
             "duration": 1.5,
             "reasoning": "Weight must-have skills twice as much as nice-to-haves.",
             "output": "Candidates scored for the {{seniority}} {{role_title}} role."},
            {"id": "task-3", "title": "Build the shortlist",
             "prompt": "Produce a ranked shortlist with a one-line rationale per candidate.",
             "toolsets": [], "dependentTasks": ["task-2"],
             "duration": 1.0,
             "reasoning": "Hiring managers want the rationale next to the score.",
             "output": "Shortlist ready for the {{seniority}} {{role_title}} role.",
             "files": [("shortlist.csv", "text/csv",
                        "rank,source_file,role,score\n1,{{resumes}},{{role_title}},87\n")]},
        ],
    },
]

TENANT_B_WORKFLOWS = [
    {
        "canvasId": "c-p2ub8cx4fq6sl3wy",
        "title": "Weekly Restaurant Menu Planner",
        "apiEnabled": True,
        "createdAt": "2025-03-05T06:00:00.000Z",
        "updatedAt": "2025-05-31T06:10:00.000Z",
        "variables": [
            {"name": "cuisine", "variableType": "option", "required": True,
             "options": ["Italian", "Mexican", "Japanese", "Mediterranean"]},
            {"name": "covers", "variableType": "string", "required": False, "default": "120"},
        ],
        "tasks": [
            {"id": "task-1", "title": "Check seasonal produce",
             "prompt": "List seasonal produce available from our suppliers this week for a {{cuisine}} menu.",
             "toolsets": ["web_search"], "dependentTasks": [],
             "duration": 1.5,
             "tool": "web_search: 3 supplier availability lists checked.",
             "reasoning": "Seasonal produce keeps food cost down.",
             "output": "Seasonal picks: asparagus, new potatoes, strawberries, spring onions."},
            {"id": "task-2", "title": "Compose the menu",
             "prompt": "Compose a seven-day {{cuisine}} menu for about {{covers}} covers a day.",
             "toolsets": [], "dependentTasks": ["task-1"],
             "duration": 2.0,
             "reasoning": "Balance one vegetarian main per day.",
             "output": "Seven-day {{cuisine}} menu composed for {{covers}} covers a day.",
             "files": [("menu-plan.md", "text/markdown",
                        "# {{cuisine}} menu plan\n\nCovers per day: {{covers}}\n")]},
            {"id": "task-3", "title": "Estimate food cost",
             "prompt": "Estimate food cost per cover for the menu.",
             "toolsets": ["code_interpreter"], "dependentTasks": ["task-2"],
             "duration": 1.0,
             "tool": "code_interpreter: costed 21 dishes.",
             "reasoning": "Target food cost is 28%.",
             "output": "Estimated food cost: 27.4% of menu price."},
        ],
    },
    {
        "canvasId": "c-t8fn3ri6bz1ko5dv",
        "title": "Property Listing Description Writer",
        "apiEnabled": True,
        "createdAt": "2025-03-21T10:00:00.000Z",
        "updatedAt": "2025-05-19T10:00:00.000Z",
        "variables": [
            {"name": "address", "variableType": "string", "required": True},
            {"name": "highlights", "variableType": "string", "required": False,
             "default": "bright living room, renovated kitchen"},
        ],
        "tasks": [
            {"id": "task-1", "title": "Research the neighbourhood",
             "prompt": "Research schools, transport and amenities near {{address}}.",
             "toolsets": ["web_search"], "dependentTasks": [],
             "duration": 1.5,
             "tool": "web_search: 12 nearby amenities found for {{address}}.",
             "reasoning": "Buyers care about commute and schools.",
             "output": "Near {{address}}: 2 primary schools, a train station at 6 minutes walk, weekly farmers market."},
            {"id": "task-2", "title": "Write the listing",
             "prompt": "Write a 150-word listing for {{address}} featuring {{highlights}}.",
             "toolsets": [], "dependentTasks": ["task-1"],
             "duration": 1.5,
             "reasoning": "Lead with the strongest feature.",
             "output": "Welcome to {{address}}: {{highlights}}, close to schools and the train station."},
        ],
    },
    {
        "canvasId": "c-y5ql9em2vh7aj4cs",
        "title": "Podcast Show Notes Builder",
        "apiEnabled": True,
        "createdAt": "2025-04-11T19:00:00.000Z",
        "updatedAt": "2025-05-22T19:30:00.000Z",
        "variables": [
            {"name": "transcript", "variableType": "resource", "required": True},
        ],
        "tasks": [
            {"id": "task-1", "title": "Summarize the episode",
             "prompt": "Summarize the episode transcript {{transcript}} in five bullet points.",
             "toolsets": ["document_reader"], "dependentTasks": [],
             "duration": 1.5,
             "tool": "document_reader: read {{transcript}}.",
             "reasoning": "Listeners skim; keep bullets short.",
             "output": "Episode summarized in five bullet points."},
            {"id": "task-2", "title": "Add chapter markers",
             "prompt": "Create chapter markers with timestamps.",
             "toolsets": [], "dependentTasks": ["task-1"],
             "duration": 1.0,
             "reasoning": "One chapter per topic change.",
             "output": "7 chapter markers created."},
            {"id": "task-3", "title": "Publish show notes",
             "prompt": "Assemble the show notes with summary, chapters and links.",
             "toolsets": [], "dependentTasks": ["task-2"],
             "duration": 1.0,
             "reasoning": "Links go last.",
             "output": "Show notes assembled.",
             "files": [("show-notes.md", "text/markdown",
                        "# Show notes\n\nTranscript: {{transcript}}\n")]},
        ],
    },
]
