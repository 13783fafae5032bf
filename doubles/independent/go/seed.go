package main

import (
	"crypto/sha256"
	"encoding/hex"
	"time"
)

// seedID gives every seeded workflow a random-looking ID that is stable across restarts.
func seedID(tenant, title string) string {
	h := sha256.Sum256([]byte("wfserver-seed/" + tenant + "/" + title))
	return "c-" + hex.EncodeToString(h[:])[:20]
}

func seed(s *Store) {
	a := s.tenant("A")
	b := s.tenant("B")
	base := s.startedAt.Truncate(time.Hour).Add(-30 * 24 * time.Hour)
	n := 0
	add := func(t *Tenant, w *Workflow) {
		n++
		w.ID = seedID(t.Name, w.Title)
		w.Tenant = t
		w.Locale = "en"
		w.CreatedAt = base.Add(time.Duration(n) * 26 * time.Hour)
		w.UpdatedAt = w.CreatedAt.Add(time.Duration(n*37) * time.Minute)
		for i := range w.Tasks {
			if w.Tasks[i].DependentTasks == nil {
				w.Tasks[i].DependentTasks = []string{}
			}
			if w.Tasks[i].Toolsets == nil {
				w.Tasks[i].Toolsets = []string{}
			}
		}
		s.workflows[w.ID] = w
	}

	// ---------------- Tenant A ----------------

	// Role: file variable (variableType resource).
	add(a, &Workflow{
		Title:      "Supplier Invoice Reconciliation",
		APIEnabled: true,
		Vars: []VarDef{
			{Name: "invoiceFile", Type: "resource", Required: true},
			{Name: "supplierName", Type: "string", Required: false, Default: "the supplier named on the invoice"},
		},
		Tasks: []TaskDef{
			{
				ID: "extract-line-items", Title: "Extract invoice line items",
				Prompt:     "Read the uploaded invoice {{invoiceFile}} and extract every line item with quantity, unit price and total.",
				Toolsets:   []string{"document_reader"},
				DurationMs: 2000,
				Tool:       "document_reader: opened {{invoiceFile}}; detected a table with item, quantity, unit price and amount columns.",
				AI:         "I extracted the line items of the invoice from {{supplierName}}. Each row now carries a SKU, description, quantity, unit price and line total, ready for matching against purchase orders.",
				Reasoning:  "The invoice is the single source document; extracting structured rows first makes the matching step deterministic.",
			},
			{
				ID: "match-purchase-orders", Title: "Match against purchase orders",
				Prompt:         "Match each extracted line item against open purchase orders and goods receipts; flag price or quantity differences.",
				Toolsets:       []string{"erp_connector"},
				DependentTasks: []string{"extract-line-items"},
				DurationMs:     2000,
				Tool:           "erp_connector: looked up 3 open purchase orders and 5 goods receipts for the supplier.",
				AI:             "Matching done: most lines agree with the purchase orders. Two lines differ — one unit price is 2.5% above the agreed price and one quantity exceeds the goods receipt by 4 units.",
				Reasoning:      "A three-way match (invoice, purchase order, receipt) is the standard control before approving payment.",
			},
			{
				ID: "reconciliation-report", Title: "Prepare reconciliation report",
				Prompt:         "Summarise the matching results in a reconciliation report with an approval recommendation.",
				DependentTasks: []string{"match-purchase-orders"},
				DurationMs:     1500,
				AI:             "Reconciliation report ready. Recommendation: approve the matching lines and put the two differing lines on hold until the supplier confirms a credit note.",
				Files: []FileDef{{Name: "reconciliation_report.csv", Type: "text/csv",
					Content: "line,sku,invoice_qty,po_qty,invoice_price,po_price,status\n1,SKU-1042,10,10,24.00,24.00,matched\n2,SKU-2210,24,20,8.50,8.50,quantity difference\n3,SKU-3307,5,5,112.75,110.00,price difference\n4,SKU-4410,12,12,3.20,3.20,matched\n# source: {{invoiceFile}}\n"}},
			},
		},
	})

	// Role: option variable.
	add(a, &Workflow{
		Title:      "Weekly Social Media Content Planner",
		APIEnabled: true,
		Vars: []VarDef{
			{Name: "platform", Type: "option", Required: false, Options: []string{"LinkedIn", "Instagram", "X", "Facebook"}, Default: "LinkedIn"},
			{Name: "campaignTheme", Type: "string", Required: false, Default: "our latest product update"},
		},
		Tasks: []TaskDef{
			{
				ID: "research-trends", Title: "Research trending topics",
				Prompt:     "Find topics trending this week on {{platform}} that relate to {{campaignTheme}}.",
				Toolsets:   []string{"web_search"},
				DurationMs: 1500,
				Tool:       "web_search: 12 results for trending {{platform}} topics this week.",
				AI:         "Top themes on {{platform}} this week: behind-the-scenes stories, short how-to clips and customer success posts. All three fit {{campaignTheme}}.",
			},
			{
				ID: "draft-posts", Title: "Draft the weekly posts",
				Prompt:         "Write five {{platform}} posts for Monday to Friday about {{campaignTheme}}, each with a call to action.",
				DependentTasks: []string{"research-trends"},
				DurationMs:     2000,
				AI:             "Five {{platform}} posts drafted (Monday to Friday), each with a hook, a body adapted to {{platform}} conventions and a call to action. The calendar is saved to the drive.",
				Reasoning:      "Posting once a day on weekdays balances reach and audience fatigue.",
				Files: []FileDef{{Name: "content_calendar.md", Type: "text/markdown",
					Content: "# Content calendar — {{platform}}\n\nTheme: {{campaignTheme}}\n\n| Day | Format | Hook |\n|---|---|---|\n| Monday | Story | Meet the team behind it |\n| Tuesday | How-to | 3 tips in 30 seconds |\n| Wednesday | Customer story | How Acme saved 10 hours a week |\n| Thursday | Poll | Which feature should we build next? |\n| Friday | Recap | The week in 5 pictures |\n"}},
			},
		},
	})

	// Role: required string variable.
	add(a, &Workflow{
		Title:      "Competitor Pricing Research",
		APIEnabled: true,
		Vars: []VarDef{
			{Name: "companyName", Type: "string", Required: true},
			{Name: "market", Type: "string", Required: false, Default: "North America"},
		},
		Tasks: []TaskDef{
			{
				ID: "collect-pricing", Title: "Collect competitor pricing pages",
				Prompt:     "Search the web for the public pricing pages of {{companyName}} and its three closest competitors in {{market}}.",
				Toolsets:   []string{"web_search", "web_scraper"},
				DurationMs: 2000,
				Tool:       "web_search + web_scraper: fetched 4 pricing pages ({{companyName}} and 3 competitors) for {{market}}.",
				AI:         "Pricing pages collected for {{companyName}} and three competitors. Every vendor offers a free tier and two to three paid tiers billed per seat.",
			},
			{
				ID: "compare-tiers", Title: "Compare pricing tiers",
				Prompt:         "Normalise the plans to a per-seat monthly price and compare features tier by tier.",
				Toolsets:       []string{"code_interpreter"},
				DependentTasks: []string{"collect-pricing"},
				DurationMs:     1500,
				Tool:           "code_interpreter: normalised 11 plans to monthly per-seat prices.",
				AI:             "{{companyName}} is about 12% above the market median in the mid tier and priced in line in the entry tier.",
			},
			{
				ID: "pricing-brief", Title: "Write pricing brief",
				Prompt:         "Write a one-page brief with the positioning of {{companyName}} and pricing recommendations.",
				DependentTasks: []string{"compare-tiers"},
				DurationMs:     1500,
				AI:             "Brief written: keep the entry tier, add an annual discount to the mid tier, and bundle premium support into the top tier.",
				Files: []FileDef{{Name: "pricing_brief.md", Type: "text/markdown",
					Content: "# Pricing brief: {{companyName}} ({{market}})\n\n- Entry tier: in line with the market.\n- Mid tier: ~12% above median; add a 15% annual discount.\n- Top tier: bundle premium support.\n"}},
			},
		},
	})

	// Role: several tasks with dependencies (two independent roots joined later).
	add(a, &Workflow{
		Title:      "Quarterly Sales Performance Report",
		APIEnabled: true,
		Vars: []VarDef{
			{Name: "quarter", Type: "string", Required: false, Default: "the last quarter"},
		},
		Tasks: []TaskDef{
			{
				ID: "fetch-crm-deals", Title: "Fetch closed deals from CRM",
				Prompt:     "Export all deals closed in {{quarter}} from the CRM with owner, region and amount.",
				Toolsets:   []string{"crm_connector"},
				DurationMs: 1200,
				Tool:       "crm_connector: exported 214 closed deals for {{quarter}}.",
				AI:         "214 closed-won deals exported for {{quarter}}, total bookings 1.84M USD.",
			},
			{
				ID: "fetch-marketing-spend", Title: "Fetch marketing spend",
				Prompt:     "Export the marketing spend of {{quarter}} by channel from the ad platforms.",
				Toolsets:   []string{"ads_connector"},
				DurationMs: 1200,
				Tool:       "ads_connector: exported spend for 6 channels.",
				AI:         "Marketing spend for {{quarter}}: 312k USD across 6 channels; paid search is the largest at 41%.",
			},
			{
				ID: "merge-datasets", Title: "Merge and clean datasets",
				Prompt:         "Join deals and spend by region and month, remove duplicates and fix currency codes.",
				Toolsets:       []string{"code_interpreter"},
				DependentTasks: []string{"fetch-crm-deals", "fetch-marketing-spend"},
				DurationMs:     1200,
				Tool:           "code_interpreter: merged 214 deals with 18 spend rows; removed 3 duplicates.",
				AI:             "Datasets merged into one table by region and month; 3 duplicate deals removed and 2 currency codes corrected.",
			},
			{
				ID: "compute-kpis", Title: "Compute KPIs",
				Prompt:         "Compute bookings, win rate, average deal size and customer acquisition cost per region.",
				Toolsets:       []string{"code_interpreter"},
				DependentTasks: []string{"merge-datasets"},
				DurationMs:     1200,
				Tool:           "code_interpreter: computed 4 KPIs for 4 regions.",
				AI:             "KPIs computed: win rate 27%, average deal size 8.6k USD, CAC 1.46k USD. EMEA grew fastest (+18% quarter over quarter).",
				Files: []FileDef{{Name: "kpi_summary.csv", Type: "text/csv",
					Content: "region,bookings_usd,win_rate,avg_deal_usd,cac_usd\nNorth America,820000,0.29,9100,1380\nEMEA,540000,0.27,8400,1510\nAPAC,310000,0.24,7900,1620\nLATAM,170000,0.22,7200,1590\n"}},
			},
			{
				ID: "executive-summary", Title: "Write executive summary",
				Prompt:         "Write an executive summary of the quarter for the leadership team with the three key takeaways.",
				DependentTasks: []string{"compute-kpis"},
				DurationMs:     1200,
				AI:             "Executive summary for {{quarter}}: bookings up 11%, EMEA is the growth engine, and paid search CAC is rising — shift 10% of that budget to partner marketing.",
				Reasoning:      "Leadership needs the outcome, the driver and one decision; details stay in the attached KPI table.",
				Files: []FileDef{{Name: "sales_report.md", Type: "text/markdown",
					Content: "# Sales performance — {{quarter}}\n\n1. Bookings up 11% to 1.84M USD.\n2. EMEA grew fastest (+18%).\n3. Paid search CAC is rising; rebalance budget.\n"}},
			},
		},
	})

	// Role: execution fails at a node (third of four).
	add(a, &Workflow{
		Title:      "Nightly CRM Lead Sync",
		APIEnabled: true,
		Tasks: []TaskDef{
			{
				ID: "fetch-leads", Title: "Fetch new leads from web forms",
				Prompt:     "Collect all leads submitted through the website forms since the last sync.",
				Toolsets:   []string{"forms_connector"},
				DurationMs: 1500,
				Tool:       "forms_connector: 37 new submissions since the last sync.",
				AI:         "37 new leads collected from the contact, demo-request and newsletter forms.",
			},
			{
				ID: "enrich-leads", Title: "Enrich and deduplicate leads",
				Prompt:         "Enrich leads with company data and drop duplicates of existing contacts.",
				Toolsets:       []string{"web_search"},
				DependentTasks: []string{"fetch-leads"},
				DurationMs:     1500,
				Tool:           "web_search: enriched 31 of 37 leads with company size and industry.",
				AI:             "Leads enriched; 6 duplicates of existing contacts removed, 31 leads remain.",
			},
			{
				ID: "push-to-crm", Title: "Push leads to CRM",
				Prompt:         "Create or update the 31 leads in the CRM and assign them to the owner of their territory.",
				Toolsets:       []string{"crm_connector"},
				DependentTasks: []string{"enrich-leads"},
				DurationMs:     1500,
				Tool:           "crm_connector: POST /contacts/batch → 401 Unauthorized",
				AI:             "Creating 31 leads in the CRM. The CRM rejected the batch request; retrying once…",
				Fail:           "Tool call failed (E3012): CRM API returned 401 Unauthorized — the OAuth token of the CRM connection has expired. Reconnect the CRM integration and run the workflow again.",
				FailFrac:       0.8,
			},
			{
				ID: "notify-sales", Title: "Post sync summary to sales channel",
				Prompt:         "Post a summary of the synced leads to the sales team channel.",
				Toolsets:       []string{"slack"},
				DependentTasks: []string{"push-to-crm"},
				DurationMs:     1000,
				AI:             "Summary posted to #sales-leads.",
			},
		},
	})

	// Role: slow workflow (5 nodes x 5 s = 25 s at -speed 1).
	add(a, &Workflow{
		Title:      "Website SEO Audit",
		APIEnabled: true,
		Vars: []VarDef{
			{Name: "websiteUrl", Type: "string", Required: false, Default: "https://www.example.com"},
		},
		Tasks: []TaskDef{
			{
				ID: "crawl-site", Title: "Crawl website pages",
				Prompt:     "Crawl {{websiteUrl}} up to depth 3 and collect status codes, titles and meta descriptions.",
				Toolsets:   []string{"web_scraper"},
				DurationMs: 5000,
				Tool:       "web_scraper: crawled 148 pages of {{websiteUrl}} (depth 3).",
				AI:         "Crawl of {{websiteUrl}} complete: 148 pages, 139 returned 200, 6 redirects and 3 broken pages (404).",
			},
			{
				ID: "page-speed", Title: "Measure page speed",
				Prompt:         "Measure Core Web Vitals for the 20 most visited pages.",
				Toolsets:       []string{"pagespeed"},
				DependentTasks: []string{"crawl-site"},
				DurationMs:     5000,
				Tool:           "pagespeed: measured LCP, CLS and INP for 20 pages.",
				AI:             "Median LCP is 3.1 s (needs improvement); 7 pages load hero images larger than 500 KB.",
			},
			{
				ID: "metadata-links", Title: "Check metadata and broken links",
				Prompt:         "Find missing or duplicate titles and meta descriptions, and list broken internal links.",
				DependentTasks: []string{"crawl-site"},
				DurationMs:     5000,
				AI:             "14 pages have duplicate titles, 22 lack a meta description and 9 internal links point to the 3 broken pages.",
			},
			{
				ID: "keyword-gap", Title: "Analyse keyword gaps",
				Prompt:         "Compare ranking keywords of {{websiteUrl}} with two competitors and list the biggest gaps.",
				Toolsets:       []string{"web_search"},
				DependentTasks: []string{"crawl-site"},
				DurationMs:     5000,
				Tool:           "web_search: compared 1,240 ranking keywords.",
				AI:             "35 high-intent keywords rank for competitors but not for {{websiteUrl}}; the biggest cluster is pricing comparisons.",
			},
			{
				ID: "audit-report", Title: "Compile audit report",
				Prompt:         "Compile all findings into a prioritised SEO audit report.",
				DependentTasks: []string{"page-speed", "metadata-links", "keyword-gap"},
				DurationMs:     5000,
				AI:             "Audit report compiled with 12 prioritised actions; the top three are fixing the broken pages, compressing hero images and writing comparison pages.",
				Files: []FileDef{{Name: "seo_audit_report.md", Type: "text/markdown",
					Content: "# SEO audit — {{websiteUrl}}\n\n1. Fix 3 broken pages and 9 links to them.\n2. Compress 7 hero images (LCP 3.1 s).\n3. Write comparison pages for 35 keyword gaps.\n"}},
			},
		},
	})

	// Role: workflow API disabled (run → 403).
	add(a, &Workflow{
		Title:      "Payroll Export to Accounting",
		APIEnabled: false,
		Vars: []VarDef{
			{Name: "payPeriod", Type: "string", Required: false, Default: "the current pay period"},
		},
		Tasks: []TaskDef{
			{
				ID: "export-payroll", Title: "Export payroll journal",
				Prompt:     "Export the payroll journal of {{payPeriod}} from the HR system.",
				Toolsets:   []string{"hr_connector"},
				DurationMs: 1500,
				AI:         "Payroll journal exported for {{payPeriod}}.",
			},
			{
				ID: "post-journal", Title: "Post journal entries to accounting",
				Prompt:         "Map payroll lines to general ledger accounts and post the journal entries.",
				Toolsets:       []string{"accounting_connector"},
				DependentTasks: []string{"export-payroll"},
				DurationMs:     1500,
				AI:             "Journal entries posted to the general ledger.",
			},
		},
	})

	// Simple single-node workflow without variables.
	add(a, &Workflow{
		Title:      "Daily Industry News Digest",
		APIEnabled: true,
		Tasks: []TaskDef{
			{
				ID: "news-digest", Title: "Compile news digest",
				Prompt:     "Search today's news about logistics and supply chain, and summarise the five most relevant stories.",
				Toolsets:   []string{"web_search"},
				DurationMs: 2000,
				Tool:       "web_search: 46 articles published in the last 24 hours.",
				AI:         "Today's digest: port congestion eases on the US west coast; two carriers announce new Asia–Europe rates; a warehouse robotics start-up raises a Series B; EU finalises packaging rules; diesel prices fall for the third week.",
				Reasoning:  "Stories were ranked by relevance to supply-chain operations and by source reliability.",
				Files: []FileDef{{Name: "news_digest.md", Type: "text/markdown",
					Content: "# Daily industry news digest\n\n1. Port congestion eases on the US west coast.\n2. New Asia–Europe container rates announced.\n3. Warehouse robotics start-up raises Series B.\n4. EU finalises packaging regulation.\n5. Diesel prices fall for the third week.\n"}},
			},
		},
	})

	// Mixed variables: required string, optional file, optional option.
	add(a, &Workflow{
		Title:      "Candidate Resume Screening",
		APIEnabled: true,
		Vars: []VarDef{
			{Name: "jobTitle", Type: "string", Required: true},
			{Name: "resume", Type: "resource", Required: false, Default: "(no resume provided)"},
			{Name: "seniority", Type: "option", Required: false, Options: []string{"Junior", "Mid-level", "Senior", "Lead"}, Default: "Mid-level"},
		},
		Tasks: []TaskDef{
			{
				ID: "parse-resume", Title: "Parse resume",
				Prompt:     "Extract experience, skills and education from the resume {{resume}}.",
				Toolsets:   []string{"document_reader"},
				DurationMs: 1500,
				Tool:       "document_reader: parsed {{resume}}.",
				AI:         "Resume parsed: 6 years of experience, 14 skills and a degree in computer science.",
			},
			{
				ID: "score-candidate", Title: "Score against job requirements",
				Prompt:         "Score the candidate against the requirements of a {{seniority}} {{jobTitle}} role.",
				DependentTasks: []string{"parse-resume"},
				DurationMs:     1500,
				AI:             "Match score for {{seniority}} {{jobTitle}}: 78/100. Strong on core skills, lighter on leadership experience.",
			},
			{
				ID: "screening-notes", Title: "Write screening notes",
				Prompt:         "Write screening notes with interview questions for the hiring manager.",
				DependentTasks: []string{"score-candidate"},
				DurationMs:     1000,
				AI:             "Screening notes written with five interview questions focused on leadership and system design.",
				Files: []FileDef{{Name: "screening_notes.md", Type: "text/markdown",
					Content: "# Screening notes — {{seniority}} {{jobTitle}}\n\nResume: {{resume}}\nScore: 78/100\n"}},
			},
		},
	})

	// ---------------- Tenant B ----------------

	add(b, &Workflow{
		Title:      "Restaurant Reservation Reminders",
		APIEnabled: true,
		Tasks: []TaskDef{
			{
				ID: "load-bookings", Title: "Load tomorrow's bookings",
				Prompt:     "Load all reservations for tomorrow from the booking system.",
				Toolsets:   []string{"booking_connector"},
				DurationMs: 1000,
				Tool:       "booking_connector: 42 reservations for tomorrow.",
				AI:         "42 reservations loaded for tomorrow (18 lunch, 24 dinner).",
			},
			{
				ID: "send-reminders", Title: "Send reminder messages",
				Prompt:         "Send each guest a reminder with the time, party size and a link to cancel.",
				Toolsets:       []string{"sms"},
				DependentTasks: []string{"load-bookings"},
				DurationMs:     1500,
				Tool:           "sms: 42 messages queued.",
				AI:             "Reminders sent to 42 guests.",
			},
		},
	})

	add(b, &Workflow{
		Title:      "Inventory Reorder Alerts",
		APIEnabled: true,
		Vars: []VarDef{
			{Name: "warehouse", Type: "option", Required: false, Options: []string{"Rotterdam", "Leipzig", "Lyon"}, Default: "Rotterdam"},
		},
		Tasks: []TaskDef{
			{
				ID: "read-stock", Title: "Read stock levels",
				Prompt:     "Read current stock levels of the {{warehouse}} warehouse.",
				Toolsets:   []string{"wms_connector"},
				DurationMs: 1000,
				AI:         "Stock levels read for 1,320 SKUs in {{warehouse}}.",
			},
			{
				ID: "forecast-demand", Title: "Forecast demand",
				Prompt:         "Forecast demand for the next four weeks per SKU.",
				Toolsets:       []string{"code_interpreter"},
				DependentTasks: []string{"read-stock"},
				DurationMs:     1500,
				AI:             "Demand forecast computed; 27 SKUs will fall below safety stock within two weeks.",
			},
			{
				ID: "reorder-list", Title: "Build reorder list",
				Prompt:         "List the SKUs to reorder with suggested quantities and suppliers.",
				DependentTasks: []string{"forecast-demand"},
				DurationMs:     1000,
				AI:             "Reorder list with 27 SKUs saved to the drive.",
				Files: []FileDef{{Name: "reorder_list.csv", Type: "text/csv",
					Content: "sku,warehouse,on_hand,reorder_qty,supplier\nBX-100,{{warehouse}},40,200,Packwell\nTP-220,{{warehouse}},12,150,Sealtec\n"}},
			},
		},
	})

	add(b, &Workflow{
		Title:      "Property Listing Description Writer",
		APIEnabled: true,
		Vars: []VarDef{
			{Name: "propertyAddress", Type: "string", Required: true},
			{Name: "listingStyle", Type: "option", Required: false, Options: []string{"Luxury", "Family", "Investor"}, Default: "Family"},
		},
		Tasks: []TaskDef{
			{
				ID: "gather-details", Title: "Gather property details",
				Prompt:     "Gather public details about {{propertyAddress}}: size, rooms, neighbourhood and nearby amenities.",
				Toolsets:   []string{"web_search"},
				DurationMs: 1500,
				AI:         "Details gathered for {{propertyAddress}}: 3 bedrooms, 2 bathrooms, 142 m², near a park and two schools.",
			},
			{
				ID: "write-listing", Title: "Write listing description",
				Prompt:         "Write a {{listingStyle}} style listing description of about 150 words.",
				DependentTasks: []string{"gather-details"},
				DurationMs:     1500,
				AI:             "Listing description written in {{listingStyle}} style for {{propertyAddress}}.",
				Files: []FileDef{{Name: "listing_description.txt", Type: "text/plain",
					Content: "Bright 3-bedroom home at {{propertyAddress}}, steps from the park and two well-rated schools.\n"}},
			},
		},
	})
}
