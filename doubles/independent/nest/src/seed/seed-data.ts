import type { FileTemplate, WorkflowVariableDef } from '../database/plan.types.js';

/**
 * The demo accounts created at start-up. Durations are nominal (speed 1);
 * {{name}} placeholders in outputs are filled from the run's variables.
 */

export interface SeedTask {
  id: string;
  title: string;
  prompt: string;
  toolsets: string[];
  deps?: string[];
  ms: number;
  tool?: string;
  reasoning?: string;
  ai?: string;
  files?: FileTemplate[];
  fail?: { message: string; at: number };
}

export interface SeedWorkflow {
  key: string;
  title: string;
  apiEnabled?: boolean;
  variables?: WorkflowVariableDef[];
  /** How long ago the workflow was created / last edited. */
  createdDaysAgo: number;
  updatedDaysAgo: number;
  tasks: SeedTask[];
}

export interface SeedTenant {
  id: string;
  name: string;
  keyEnv: 'A' | 'B';
  workflows: SeedWorkflow[];
}

const md = (name: string, content: string): FileTemplate => ({ name, type: 'text/markdown', content });
const csv = (name: string, content: string): FileTemplate => ({ name, type: 'text/csv', content });

const northwind: SeedWorkflow[] = [
  {
    key: 'weekly-sales-digest',
    title: 'Weekly Sales Performance Digest',
    createdDaysAgo: 182,
    updatedDaysAgo: 2,
    tasks: [
      {
        id: 'task-1',
        title: 'Pull weekly sales figures',
        prompt: 'Query the sales warehouse for last week\'s revenue, orders and average order value per store and channel.',
        toolsets: ['code_interpreter'],
        ms: 800,
        tool: 'sales_warehouse.query: 7 stores + webshop, 1,284 orders, week 38',
        ai: 'Week 38 revenue was $412,380 (+6.2% week over week) across 1,284 orders. Average order value rose to $321. The webshop contributed 44% of revenue; the Portland store led retail with $61,900.',
      },
      {
        id: 'task-2',
        title: 'Write the sales digest',
        prompt: 'Write a one-page digest for the leadership team highlighting winners, laggards and notable trends.',
        toolsets: ['document_writer'],
        deps: ['task-1'],
        ms: 900,
        reasoning: 'Leadership wants the headline number first, then store movements, then one recommendation.',
        ai: 'Digest ready. Headline: revenue up 6.2% on strong outerwear demand. Laggard: the Boise store (-9%), mostly footwear. Recommendation: move 120 pairs of trail runners from Portland to Boise before the weekend.',
        files: [
          md(
            'weekly-sales-digest.md',
            '# Weekly Sales Digest — Week 38\n\n| Metric | Value | WoW |\n|---|---|---|\n| Revenue | $412,380 | +6.2% |\n| Orders | 1,284 | +3.9% |\n| AOV | $321 | +2.2% |\n\n## Highlights\n- Outerwear +18%, driven by the Ridgeline rain shell.\n- Webshop share 44%.\n\n## Watch\n- Boise store -9% (footwear).\n',
          ),
        ],
      },
    ],
  },
  {
    key: 'supplier-contract-review',
    title: 'Supplier Contract Clause Review',
    variables: [{ name: 'contract', variableType: 'resource', required: true }],
    createdDaysAgo: 140,
    updatedDaysAgo: 11,
    tasks: [
      {
        id: 'task-1',
        title: 'Extract key clauses',
        prompt: 'Read the uploaded contract {{contract}} and extract payment terms, liability caps, termination and exclusivity clauses.',
        toolsets: ['document_reader'],
        ms: 800,
        tool: 'document_reader.parse: {{contract}} — 14 sections, 9 pages',
        ai: 'Extracted 14 clauses from {{contract}}. Payment terms: net 60. Liability cap: 1x annual fees. Termination: 90 days\' notice, no termination for convenience in year one. Exclusivity: none.',
      },
      {
        id: 'task-2',
        title: 'Flag risky terms',
        prompt: 'Compare the extracted clauses with our standard supplier terms and flag deviations by severity.',
        toolsets: [],
        deps: ['task-1'],
        ms: 900,
        reasoning: 'Our standard is net 45 and a 2x liability cap; anything weaker for us is a deviation.',
        ai: 'Three deviations found: (1) HIGH — liability cap at 1x fees vs our 2x standard; (2) MEDIUM — net 60 payment terms vs net 45; (3) LOW — auto-renewal for 24 months without price protection.',
      },
      {
        id: 'task-3',
        title: 'Draft review memo',
        prompt: 'Draft a short memo for procurement with the deviations and proposed counter-language.',
        toolsets: ['document_writer'],
        deps: ['task-2'],
        ms: 700,
        ai: 'Memo drafted with counter-language for all three deviations; recommended to sign only after the liability cap is raised.',
        files: [
          md(
            'contract-review-memo.md',
            '# Contract Review — {{contract}}\n\n## Deviations\n1. **High** — Liability cap 1x annual fees. Proposed: 2x.\n2. **Medium** — Net 60 payment terms. Proposed: net 45.\n3. **Low** — 24-month auto-renewal. Proposed: 12 months with CPI cap.\n\n## Recommendation\nSign after the liability cap is raised.\n',
          ),
        ],
      },
    ],
  },
  {
    key: 'social-media-calendar',
    title: 'Social Media Content Calendar',
    variables: [
      { name: 'channel', variableType: 'option', required: true, options: ['LinkedIn', 'Instagram', 'Facebook', 'X'] },
      { name: 'campaign_theme', variableType: 'string', required: false, fallback: 'the autumn trail collection' },
    ],
    createdDaysAgo: 96,
    updatedDaysAgo: 5,
    tasks: [
      {
        id: 'task-1',
        title: 'Brainstorm post ideas',
        prompt: 'Propose ten post ideas for {{channel}} around {{campaign_theme}}, matching the channel\'s tone.',
        toolsets: [],
        ms: 900,
        reasoning: '{{channel}} audiences respond best to concrete gear stories and user photos.',
        ai: 'Ten {{channel}} post ideas for {{campaign_theme}}: staff trail picks, a layering guide, a customer summit photo, a care-and-repair tip, a behind-the-seams video, a weekend forecast post, two product spotlights, a poll and a giveaway.',
      },
      {
        id: 'task-2',
        title: 'Build the posting calendar',
        prompt: 'Lay the ideas out over the next four weeks with dates, times and captions.',
        toolsets: ['code_interpreter'],
        deps: ['task-1'],
        ms: 800,
        ai: 'Calendar built: 10 posts over 4 weeks on {{channel}}, Tuesday/Thursday mornings plus one weekend post.',
        files: [
          csv(
            'content-calendar.csv',
            'week,day,time,channel,post\n1,Tue,09:00,{{channel}},Staff trail picks\n1,Thu,09:00,{{channel}},Layering guide\n2,Tue,09:00,{{channel}},Customer summit photo\n2,Sat,10:00,{{channel}},Weekend forecast\n3,Tue,09:00,{{channel}},Care and repair tip\n3,Thu,09:00,{{channel}},Behind the seams\n4,Tue,09:00,{{channel}},Product spotlight: Ridgeline shell\n4,Thu,09:00,{{channel}},Giveaway\n',
          ),
        ],
      },
    ],
  },
  {
    key: 'competitor-pricing',
    title: 'Competitor Pricing Snapshot',
    variables: [
      { name: 'competitor', variableType: 'string', required: true },
      {
        name: 'product_category',
        variableType: 'option',
        required: false,
        options: ['Jackets', 'Footwear', 'Backpacks', 'Tents'],
        fallback: 'Jackets',
      },
    ],
    createdDaysAgo: 75,
    updatedDaysAgo: 9,
    tasks: [
      {
        id: 'task-1',
        title: 'Collect competitor prices',
        prompt: 'Search {{competitor}}\'s public store for current {{product_category}} prices and promotions.',
        toolsets: ['web_search', 'web_reader'],
        ms: 900,
        tool: 'web_search: 12 results for "{{competitor}} {{product_category}} price"',
        ai: 'Collected 18 {{product_category}} prices from {{competitor}}. Two items are on a 20% promotion until Sunday.',
      },
      {
        id: 'task-2',
        title: 'Compare with our prices',
        prompt: 'Match comparable products and compute the price gap per item.',
        toolsets: ['code_interpreter'],
        deps: ['task-1'],
        ms: 800,
        ai: 'Matched 11 comparable {{product_category}} items. On average we are 4.8% above {{competitor}}; the largest gap is 14% on entry-level items.',
      },
      {
        id: 'task-3',
        title: 'Summarize pricing gaps',
        prompt: 'Summarize where we should react and where we can hold price.',
        toolsets: ['document_writer'],
        deps: ['task-2'],
        ms: 600,
        ai: 'Recommendation: hold price on premium {{product_category}} (gap under 3%), review the three entry-level items where {{competitor}} is 10–14% cheaper.',
        files: [
          csv(
            'pricing-snapshot.csv',
            'item,our_price,competitor,competitor_price,gap_pct\nEntry shell,129.00,{{competitor}},113.00,14.2\nMid shell,189.00,{{competitor}},179.00,5.6\nPremium shell,349.00,{{competitor}},339.00,2.9\n',
          ),
        ],
      },
    ],
  },
  {
    key: 'quarterly-board-report',
    title: 'Quarterly Board Report',
    createdDaysAgo: 210,
    updatedDaysAgo: 20,
    tasks: [
      {
        id: 'task-1',
        title: 'Collect financial statements',
        prompt: 'Pull the quarter\'s P&L, balance sheet and cash flow from the finance system.',
        toolsets: ['code_interpreter'],
        ms: 700,
        tool: 'finance.export: Q3 P&L, balance sheet, cash flow',
        ai: 'Q3 revenue $5.31M (+8% YoY), gross margin 47.2%, EBITDA $0.62M. Cash at quarter end $2.4M.',
      },
      {
        id: 'task-2',
        title: 'Collect operations KPIs',
        prompt: 'Gather inventory turns, fulfilment lead time and store traffic for the quarter.',
        toolsets: ['code_interpreter'],
        ms: 600,
        ai: 'Inventory turns 3.1 (target 3.4); average fulfilment lead time 1.8 days; store traffic +4%.',
      },
      {
        id: 'task-3',
        title: 'Collect customer metrics',
        prompt: 'Gather NPS, repeat purchase rate and loyalty programme growth.',
        toolsets: ['code_interpreter'],
        ms: 800,
        ai: 'NPS 58 (+3), repeat purchase rate 37%, loyalty members 41,200 (+2,900 in the quarter).',
      },
      {
        id: 'task-4',
        title: 'Analyze budget variances',
        prompt: 'Compare financials and operations KPIs with the budget and explain variances over 5%.',
        toolsets: ['code_interpreter'],
        deps: ['task-1', 'task-2'],
        ms: 700,
        reasoning: 'Only marketing and freight exceed the 5% threshold; both have known causes.',
        ai: 'Two variances over 5%: marketing spend +9% (autumn campaign brought forward) and freight +12% (carrier surcharge). Revenue is 2% ahead of budget.',
      },
      {
        id: 'task-5',
        title: 'Draft board narrative',
        prompt: 'Write the CEO narrative covering performance, variances, customers and outlook.',
        toolsets: ['document_writer'],
        deps: ['task-3', 'task-4'],
        ms: 800,
        ai: 'Narrative drafted: a strong quarter led by outerwear, margin held despite freight costs, loyalty growth on track, cautious Q4 outlook because of inventory turns.',
      },
      {
        id: 'task-6',
        title: 'Assemble board pack',
        prompt: 'Assemble the narrative and KPI tables into the board pack.',
        toolsets: ['document_writer'],
        deps: ['task-5'],
        ms: 500,
        ai: 'Board pack assembled: narrative plus KPI summary table.',
        files: [
          md(
            'q3-board-report.md',
            '# Q3 Board Report\n\n## Performance\nRevenue $5.31M (+8% YoY); gross margin 47.2%; EBITDA $0.62M.\n\n## Variances\n- Marketing +9% (campaign timing)\n- Freight +12% (carrier surcharge)\n\n## Customers\nNPS 58; loyalty members 41,200.\n\n## Outlook\nCautious Q4: inventory turns below target.\n',
          ),
          csv(
            'q3-kpi-summary.csv',
            'kpi,value,target\nrevenue_musd,5.31,5.20\ngross_margin_pct,47.2,47.0\ninventory_turns,3.1,3.4\nnps,58,55\nrepeat_purchase_pct,37,35\n',
          ),
        ],
      },
    ],
  },
  {
    key: 'crm-lead-enrichment',
    title: 'CRM Lead Enrichment',
    createdDaysAgo: 60,
    updatedDaysAgo: 1,
    tasks: [
      {
        id: 'task-1',
        title: 'Import new wholesale leads',
        prompt: 'Export leads created in the CRM during the last 7 days that have no company profile.',
        toolsets: ['crm'],
        ms: 600,
        tool: 'crm.export: 86 new leads without company profile',
        ai: 'Imported 86 new wholesale leads; 71 have a company domain, 15 only a personal e-mail address.',
      },
      {
        id: 'task-2',
        title: 'Enrich company profiles',
        prompt: 'Look up each lead\'s company in the business registry and add size, industry and address.',
        toolsets: ['company_registry'],
        deps: ['task-1'],
        ms: 1200,
        tool: 'company_registry.lookup: batch of 71 domains submitted',
        ai: 'Enriching company profiles: 23 of 71 companies matched so far (outdoor retail 14, sporting goods 6, other 3)…',
        fail: {
          message: 'Tool call failed (E3012): company registry lookup returned HTTP 503 Service Unavailable after 3 retries',
          at: 0.6,
        },
      },
      {
        id: 'task-3',
        title: 'Score and route leads',
        prompt: 'Score enriched leads and assign them to the regional wholesale reps.',
        toolsets: ['crm'],
        deps: ['task-2'],
        ms: 700,
        ai: 'Scored and routed the enriched leads to the regional reps.',
      },
    ],
  },
  {
    key: 'erp-data-migration',
    title: 'Legacy ERP Data Migration',
    createdDaysAgo: 33,
    updatedDaysAgo: 3,
    tasks: [
      {
        id: 'task-1',
        title: 'Export legacy ERP tables',
        prompt: 'Export customers, products, open orders and stock levels from the legacy ERP.',
        toolsets: ['database'],
        ms: 1400,
        tool: 'legacy_erp.export: customers 18,402; products 3,911; open orders 612; stock rows 27,377',
        ai: 'Exported 4 tables (50,302 rows) from the legacy ERP.',
      },
      {
        id: 'task-2',
        title: 'Map fields to the new schema',
        prompt: 'Map every legacy column to the new ERP schema and list unmapped columns.',
        toolsets: ['code_interpreter'],
        deps: ['task-1'],
        ms: 1500,
        reasoning: 'Legacy customer codes are 8 characters; the new ERP needs 10 with a region prefix.',
        ai: 'Mapped 143 of 149 columns. Six legacy columns are obsolete and will not be migrated. Customer codes get a two-letter region prefix.',
      },
      {
        id: 'task-3',
        title: 'Transform and cleanse records',
        prompt: 'Apply the mapping, normalise addresses and remove duplicate customers.',
        toolsets: ['code_interpreter'],
        deps: ['task-2'],
        ms: 2000,
        ai: 'Transformed 50,302 rows; merged 214 duplicate customers; normalised 3,087 addresses.',
      },
      {
        id: 'task-4',
        title: 'Load records into the new ERP',
        prompt: 'Load the cleansed records into the new ERP in batches of 1,000.',
        toolsets: ['database'],
        deps: ['task-3'],
        ms: 1800,
        tool: 'new_erp.bulk_load: 51 batches committed',
        ai: 'Loaded 50,088 records in 51 batches with no rejected rows.',
      },
      {
        id: 'task-5',
        title: 'Reconcile migrated totals',
        prompt: 'Reconcile record counts and stock value between the legacy and the new ERP.',
        toolsets: ['code_interpreter'],
        deps: ['task-4'],
        ms: 1300,
        ai: 'Reconciliation passed: counts match after de-duplication; stock value $3,482,115.40 in both systems.',
        files: [
          csv(
            'migration-reconciliation.csv',
            'table,legacy_rows,migrated_rows,difference,note\ncustomers,18402,18188,-214,duplicates merged\nproducts,3911,3911,0,\nopen_orders,612,612,0,\nstock,27377,27377,0,\n',
          ),
        ],
      },
    ],
  },
  {
    key: 'payroll-variance-check',
    title: 'Payroll Variance Check',
    apiEnabled: false,
    createdDaysAgo: 120,
    updatedDaysAgo: 30,
    tasks: [
      {
        id: 'task-1',
        title: 'Compare payroll runs',
        prompt: 'Compare this month\'s payroll run with last month\'s by employee and cost centre.',
        toolsets: ['code_interpreter'],
        ms: 900,
        ai: 'Payroll total $684,210 vs $679,950 last month (+0.6%).',
      },
      {
        id: 'task-2',
        title: 'Explain variances',
        prompt: 'Explain individual variances over 10% (new hires, leavers, overtime).',
        toolsets: [],
        deps: ['task-1'],
        ms: 700,
        ai: 'Four employees over 10%: two new hires, one leaver payout, one overtime spike in the Reno warehouse.',
      },
    ],
  },
  {
    key: 'support-ticket-triage',
    title: 'Customer Support Ticket Triage',
    createdDaysAgo: 150,
    updatedDaysAgo: 4,
    tasks: [
      {
        id: 'task-1',
        title: 'Classify open tickets',
        prompt: 'Classify open support tickets by topic and urgency.',
        toolsets: ['helpdesk'],
        ms: 700,
        tool: 'helpdesk.list: 57 open tickets',
        ai: '57 open tickets: 24 order status, 13 returns, 9 sizing questions, 7 damaged items, 4 warranty claims. 6 are urgent.',
      },
      {
        id: 'task-2',
        title: 'Suggest replies for urgent tickets',
        prompt: 'Draft suggested replies for the urgent tickets.',
        toolsets: [],
        deps: ['task-1'],
        ms: 800,
        ai: 'Drafted 6 replies: 4 damaged-item replacements with prepaid labels and 2 delayed-order apologies with a 10% voucher.',
      },
    ],
  },
  {
    key: 'product-description-writer',
    title: 'Product Description Writer',
    variables: [
      { name: 'tone', variableType: 'option', required: false, options: ['Friendly', 'Technical', 'Premium'], fallback: 'Friendly' },
    ],
    createdDaysAgo: 88,
    updatedDaysAgo: 14,
    tasks: [
      {
        id: 'task-1',
        title: 'Write product descriptions',
        prompt: 'Write web descriptions for the new arrivals in a {{tone}} tone, 80–120 words each.',
        toolsets: ['document_writer'],
        ms: 1200,
        ai: 'Wrote {{tone}} descriptions for 5 new arrivals: Ridgeline Rain Shell, Summit 35 Pack, Cascade Trail Runner, Basecamp Fleece, Alpine 2P Tent.',
        files: [
          md(
            'new-arrivals-descriptions.md',
            '# New Arrivals ({{tone}})\n\n## Ridgeline Rain Shell\nA fully taped 3-layer shell that keeps you dry from trailhead to summit.\n\n## Summit 35 Pack\nA 35-litre pack with a ventilated back panel and hip-belt pockets.\n',
          ),
        ],
      },
    ],
  },
  {
    key: 'inventory-reorder-forecast',
    title: 'Inventory Reorder Forecast',
    createdDaysAgo: 170,
    updatedDaysAgo: 6,
    tasks: [
      {
        id: 'task-1',
        title: 'Load stock and sales history',
        prompt: 'Load current stock and 12 weeks of sales per SKU.',
        toolsets: ['code_interpreter'],
        ms: 600,
        ai: 'Loaded 3,911 SKUs with 12 weeks of sales history.',
      },
      {
        id: 'task-2',
        title: 'Forecast demand',
        prompt: 'Forecast the next 6 weeks of demand per SKU with seasonality.',
        toolsets: ['code_interpreter'],
        deps: ['task-1'],
        ms: 700,
        ai: 'Forecast done; 142 SKUs will fall below safety stock within 3 weeks.',
      },
      {
        id: 'task-3',
        title: 'Propose purchase orders',
        prompt: 'Propose reorder quantities grouped by supplier.',
        toolsets: ['code_interpreter'],
        deps: ['task-2'],
        ms: 600,
        ai: 'Proposed 9 purchase orders totalling $186,400 across 6 suppliers.',
        files: [
          csv(
            'reorder-proposal.csv',
            'supplier,skus,units,value_usd\nPeakTex,38,2140,52300\nTrailWorks,27,1320,41800\nNorthFoam,19,900,22100\n',
          ),
        ],
      },
    ],
  },
  {
    key: 'monthly-newsletter',
    title: 'Monthly Customer Newsletter',
    createdDaysAgo: 200,
    updatedDaysAgo: 27,
    tasks: [
      {
        id: 'task-1',
        title: 'Gather newsletter topics',
        prompt: 'Collect this month\'s launches, events and staff picks.',
        toolsets: [],
        ms: 700,
        ai: 'Topics: Ridgeline shell launch, two in-store repair clinics, staff picks for shoulder-season hiking.',
      },
      {
        id: 'task-2',
        title: 'Draft the newsletter',
        prompt: 'Draft the newsletter with a subject line and three sections.',
        toolsets: ['document_writer'],
        deps: ['task-1'],
        ms: 1000,
        ai: 'Draft ready. Subject line: "Stay dry, stay out longer".',
        files: [
          md(
            'newsletter-draft.md',
            '# Stay dry, stay out longer\n\n## New: Ridgeline Rain Shell\n...\n\n## Repair clinics\nPortland (12th) and Boise (19th).\n\n## Staff picks\nShoulder-season essentials.\n',
          ),
        ],
      },
    ],
  },
  {
    key: 'leadership-meeting-notes',
    title: 'Leadership Meeting Notes Summary',
    createdDaysAgo: 45,
    updatedDaysAgo: 7,
    tasks: [
      {
        id: 'task-1',
        title: 'Summarize meeting notes',
        prompt: 'Summarize the leadership meeting notes into decisions, owners and deadlines.',
        toolsets: [],
        ms: 1000,
        ai: 'Decisions: (1) open the Spokane store in March — owner: Dana, due 15 Jan; (2) pause the loyalty app rewrite — owner: Raj; (3) approve freight tender — owner: Mei, due 30 Nov.',
      },
    ],
  },
  {
    key: 'vendor-onboarding-checklist',
    title: 'Vendor Onboarding Checklist',
    createdDaysAgo: 130,
    updatedDaysAgo: 40,
    tasks: [
      {
        id: 'task-1',
        title: 'Check vendor documents',
        prompt: 'Check that tax forms, insurance certificate and bank details are complete.',
        toolsets: ['document_reader'],
        ms: 700,
        ai: 'Tax form and bank details complete; insurance certificate expires in 40 days.',
      },
      {
        id: 'task-2',
        title: 'Create onboarding checklist',
        prompt: 'Create the onboarding checklist with open items.',
        toolsets: ['document_writer'],
        deps: ['task-1'],
        ms: 600,
        ai: 'Checklist created with 1 open item (renewed insurance certificate).',
        files: [md('vendor-onboarding-checklist.md', '# Vendor onboarding\n\n- [x] W-9\n- [x] Bank details\n- [ ] Renewed insurance certificate\n')],
      },
    ],
  },
  {
    key: 'seo-keyword-research',
    title: 'SEO Keyword Research',
    createdDaysAgo: 110,
    updatedDaysAgo: 16,
    tasks: [
      {
        id: 'task-1',
        title: 'Research seed keywords',
        prompt: 'Search for high-intent keywords around rain jackets and hiking packs.',
        toolsets: ['web_search'],
        ms: 700,
        tool: 'web_search: 40 keyword suggestions',
        ai: 'Found 40 candidate keywords; "waterproof hiking jacket women" has the best volume-to-difficulty ratio.',
      },
      {
        id: 'task-2',
        title: 'Analyze ranking difficulty',
        prompt: 'Estimate ranking difficulty and current positions.',
        toolsets: ['web_search', 'code_interpreter'],
        deps: ['task-1'],
        ms: 700,
        ai: 'We rank in the top 20 for 6 of the 40 keywords; 11 are realistic targets within a quarter.',
      },
      {
        id: 'task-3',
        title: 'Prioritize keyword list',
        prompt: 'Produce a prioritized keyword list with target pages.',
        toolsets: ['code_interpreter'],
        deps: ['task-2'],
        ms: 500,
        ai: 'Prioritized 11 keywords and mapped each to a target page.',
        files: [
          csv(
            'keyword-priorities.csv',
            'keyword,monthly_volume,difficulty,target_page\nwaterproof hiking jacket women,5400,34,/women/jackets\nlightweight daypack 30l,2900,28,/packs/daypacks\n',
          ),
        ],
      },
    ],
  },
  {
    key: 'job-posting-generator',
    title: 'Job Posting Generator',
    variables: [{ name: 'role_title', variableType: 'string', required: false, fallback: 'Store Associate' }],
    createdDaysAgo: 70,
    updatedDaysAgo: 22,
    tasks: [
      {
        id: 'task-1',
        title: 'Write job posting',
        prompt: 'Write a job posting for a {{role_title}} with responsibilities, requirements and benefits.',
        toolsets: ['document_writer'],
        ms: 1100,
        ai: 'Job posting for {{role_title}} written: 5 responsibilities, 4 requirements, benefits include gear discount and 2 paid outdoor days.',
      },
    ],
  },
  {
    key: 'store-opening-announcement',
    title: 'Store Opening Announcement',
    createdDaysAgo: 25,
    updatedDaysAgo: 25,
    tasks: [
      {
        id: 'task-1',
        title: 'Draft opening announcement',
        prompt: 'Draft a short announcement for the Spokane store opening for e-mail and social media.',
        toolsets: [],
        ms: 900,
        ai: 'Announcement drafted: "Spokane, we\'re coming! Northwind Outfitters opens on Main Avenue on 14 March — join us for trail talks and opening-day offers."',
      },
    ],
  },
  {
    key: 'returns-reason-analysis',
    title: 'Returns Reason Analysis',
    createdDaysAgo: 155,
    updatedDaysAgo: 12,
    tasks: [
      {
        id: 'task-1',
        title: 'Categorize return reasons',
        prompt: 'Categorize last month\'s returns by stated reason and product line.',
        toolsets: ['code_interpreter'],
        ms: 800,
        ai: '612 returns: sizing 46%, changed mind 21%, defect 12%, late delivery 9%, other 12%.',
      },
      {
        id: 'task-2',
        title: 'Recommend fixes',
        prompt: 'Recommend the three changes with the biggest expected reduction in returns.',
        toolsets: [],
        deps: ['task-1'],
        ms: 700,
        ai: 'Top fixes: add a fit guide to footwear pages, flag the Basecamp Fleece sizing as "runs small", review the defective zipper batch with PeakTex.',
        files: [md('returns-analysis.md', '# Returns analysis\n\n| Reason | Share |\n|---|---|\n| Sizing | 46% |\n| Changed mind | 21% |\n| Defect | 12% |\n')],
      },
    ],
  },
  {
    key: 'industry-news-brief',
    title: 'Daily Outdoor Industry News Brief',
    createdDaysAgo: 90,
    updatedDaysAgo: 1,
    tasks: [
      {
        id: 'task-1',
        title: 'Search industry news',
        prompt: 'Search the last 24 hours of outdoor retail and apparel news.',
        toolsets: ['web_search'],
        ms: 800,
        tool: 'web_search: 23 articles from the last 24 hours',
        ai: 'Found 23 relevant articles; 5 are worth a mention.',
      },
      {
        id: 'task-2',
        title: 'Write the news brief',
        prompt: 'Write a five-bullet brief with links.',
        toolsets: ['document_writer'],
        deps: ['task-1'],
        ms: 700,
        ai: 'Brief: a large competitor announces a resale programme; cotton prices down 3%; new PFAS rules take effect in two states; a trail-running brand raises Series B; freight rates ease.',
      },
    ],
  },
  {
    key: 'new-hire-onboarding',
    title: 'New Hire Onboarding Plan',
    createdDaysAgo: 65,
    updatedDaysAgo: 18,
    tasks: [
      {
        id: 'task-1',
        title: 'Outline first-week schedule',
        prompt: 'Outline the first week for a new store associate.',
        toolsets: ['calendar'],
        ms: 800,
        ai: 'First week outlined: day 1 welcome and safety, days 2–3 product training, day 4 POS shadowing, day 5 first supervised shift.',
      },
      {
        id: 'task-2',
        title: 'Write the onboarding plan',
        prompt: 'Write a 30-day onboarding plan with goals.',
        toolsets: ['document_writer'],
        deps: ['task-1'],
        ms: 700,
        ai: 'Onboarding plan written with goals for day 7, 14 and 30.',
        files: [md('onboarding-plan.md', '# 30-day onboarding plan\n\n- Day 7: knows the top 20 products\n- Day 14: runs the till alone\n- Day 30: leads a fitting session\n')],
      },
    ],
  },
  {
    key: 'review-sentiment-report',
    title: 'Customer Review Sentiment Report',
    createdDaysAgo: 100,
    updatedDaysAgo: 8,
    tasks: [
      {
        id: 'task-1',
        title: 'Collect product reviews',
        prompt: 'Collect last month\'s reviews from the webshop and marketplaces.',
        toolsets: ['web_reader'],
        ms: 600,
        ai: 'Collected 1,046 reviews.',
      },
      {
        id: 'task-2',
        title: 'Score review sentiment',
        prompt: 'Score sentiment per review and per product line.',
        toolsets: ['code_interpreter'],
        deps: ['task-1'],
        ms: 800,
        ai: 'Average sentiment 0.71; tents highest (0.83), footwear lowest (0.58).',
      },
      {
        id: 'task-3',
        title: 'Write sentiment report',
        prompt: 'Write the sentiment report with quotes.',
        toolsets: ['document_writer'],
        deps: ['task-2'],
        ms: 600,
        ai: 'Report written with 6 representative quotes.',
        files: [md('review-sentiment-report.md', '# Review sentiment\n\nOverall 0.71. Tents 0.83. Footwear 0.58.\n\n> "Warmest fleece I own." — verified buyer\n')],
      },
    ],
  },
  {
    key: 'nightly-catalog-sync',
    title: 'Nightly Catalog Sync',
    createdDaysAgo: 300,
    updatedDaysAgo: 60,
    tasks: [
      {
        id: 'task-1',
        title: 'Sync product catalog to marketplaces',
        prompt: 'Push price and stock changes from the ERP to the marketplace listings.',
        toolsets: ['marketplace_api'],
        ms: 900,
      },
      {
        id: 'task-2',
        title: 'Refresh search index',
        prompt: 'Rebuild the webshop search index for changed products.',
        toolsets: ['webshop_api'],
        deps: ['task-1'],
        ms: 600,
      },
    ],
  },
  {
    key: 'holiday-promotion-planner',
    title: 'Holiday Promotion Planner',
    variables: [
      {
        name: 'region',
        variableType: 'option',
        required: false,
        options: ['North America', 'Europe', 'Asia Pacific'],
        fallback: 'North America',
      },
    ],
    createdDaysAgo: 50,
    updatedDaysAgo: 10,
    tasks: [
      {
        id: 'task-1',
        title: 'Review last year\'s promotions',
        prompt: 'Review last year\'s holiday promotions in {{region}} and their margin impact.',
        toolsets: ['code_interpreter'],
        ms: 800,
        ai: 'Last year in {{region}}: 25% off outerwear drove +31% units but cost 6 margin points; bundles performed better.',
      },
      {
        id: 'task-2',
        title: 'Plan this year\'s promotions',
        prompt: 'Propose a promotion calendar for {{region}} that protects margin.',
        toolsets: ['document_writer'],
        deps: ['task-1'],
        ms: 900,
        ai: 'Plan for {{region}}: bundle offers in weeks 47–48, loyalty double points in week 50, no blanket discounts.',
        files: [md('holiday-promotion-plan.md', '# Holiday promotions — {{region}}\n\n| Week | Offer |\n|---|---|\n| 47–48 | Jacket + base layer bundle |\n| 50 | Double loyalty points |\n')],
      },
    ],
  },
  {
    key: 'supplier-scorecard',
    title: 'Supplier Performance Scorecard',
    createdDaysAgo: 190,
    updatedDaysAgo: 35,
    tasks: [
      {
        id: 'task-1',
        title: 'Collect delivery data',
        prompt: 'Collect on-time delivery and fill rates per supplier for the quarter.',
        toolsets: ['code_interpreter'],
        ms: 600,
        ai: 'Collected delivery data for 14 suppliers (2,318 purchase order lines).',
      },
      {
        id: 'task-2',
        title: 'Collect quality data',
        prompt: 'Collect defect and return rates per supplier.',
        toolsets: ['code_interpreter'],
        ms: 500,
        ai: 'Defect rates range from 0.2% to 3.1%; PeakTex has the defective zipper batch.',
      },
      {
        id: 'task-3',
        title: 'Score suppliers',
        prompt: 'Score each supplier on delivery, quality and cost.',
        toolsets: ['code_interpreter'],
        deps: ['task-1', 'task-2'],
        ms: 700,
        ai: 'Scorecard ready: TrailWorks leads (92/100); PeakTex drops to 71 because of quality.',
        files: [csv('supplier-scorecard.csv', 'supplier,delivery,quality,cost,total\nTrailWorks,95,93,88,92\nNorthFoam,90,89,86,88\nPeakTex,84,58,80,71\n')],
      },
    ],
  },
  {
    key: 'press-release-drafter',
    title: 'Press Release Drafter',
    createdDaysAgo: 40,
    updatedDaysAgo: 15,
    tasks: [
      {
        id: 'task-1',
        title: 'Collect announcement facts',
        prompt: 'Collect facts, quotes and figures for the sustainability announcement.',
        toolsets: [],
        ms: 600,
        ai: 'Facts collected: 60% recycled materials across outerwear by 2026, repair programme in all stores, quote from the CEO.',
      },
      {
        id: 'task-2',
        title: 'Draft press release',
        prompt: 'Draft a press release in AP style.',
        toolsets: ['document_writer'],
        deps: ['task-1'],
        ms: 1000,
        ai: 'PORTLAND, Ore. — Northwind Outfitters today announced that 60% of its outerwear will use recycled materials by 2026 and that free repairs are now offered in every store.',
      },
    ],
  },
];

const harbor: SeedWorkflow[] = [
  {
    key: 'appointment-reminders',
    title: 'Appointment Reminder Drafts',
    createdDaysAgo: 80,
    updatedDaysAgo: 2,
    tasks: [
      {
        id: 'task-1',
        title: 'List tomorrow\'s appointments',
        prompt: 'List tomorrow\'s appointments across all three clinics.',
        toolsets: ['practice_management'],
        ms: 600,
        tool: 'practice_management.schedule: 64 appointments',
        ai: '64 appointments tomorrow: 38 check-ups, 17 fillings, 6 crowns, 3 implant consultations.',
      },
      {
        id: 'task-2',
        title: 'Draft reminder messages',
        prompt: 'Draft friendly SMS reminders with date, time and clinic address.',
        toolsets: [],
        deps: ['task-1'],
        ms: 800,
        ai: 'Drafted 64 SMS reminders; 5 patients asked for e-mail instead and got e-mail drafts.',
      },
    ],
  },
  {
    key: 'insurance-claim-follow-up',
    title: 'Insurance Claim Follow-up',
    createdDaysAgo: 120,
    updatedDaysAgo: 6,
    tasks: [
      {
        id: 'task-1',
        title: 'Find unpaid claims',
        prompt: 'Find insurance claims unpaid for more than 30 days.',
        toolsets: ['practice_management'],
        ms: 700,
        ai: '27 claims unpaid for over 30 days, totalling $18,940.',
      },
      {
        id: 'task-2',
        title: 'Prepare follow-up letters',
        prompt: 'Prepare follow-up letters per insurer.',
        toolsets: ['document_writer'],
        deps: ['task-1'],
        ms: 800,
        ai: 'Prepared 6 letters, one per insurer.',
        files: [md('claim-follow-up-letters.md', '# Claim follow-ups\n\n- Delta Dental: 9 claims\n- MetLife: 7 claims\n- Cigna: 5 claims\n')],
      },
    ],
  },
  {
    key: 'monthly-practice-metrics',
    title: 'Monthly Practice Metrics',
    createdDaysAgo: 200,
    updatedDaysAgo: 12,
    tasks: [
      {
        id: 'task-1',
        title: 'Collect production figures',
        prompt: 'Collect production and collections per clinic.',
        toolsets: ['code_interpreter'],
        ms: 600,
        ai: 'Production $412k, collections $389k (94%).',
      },
      {
        id: 'task-2',
        title: 'Collect chair utilisation',
        prompt: 'Compute chair utilisation per clinic.',
        toolsets: ['code_interpreter'],
        ms: 500,
        ai: 'Chair utilisation 81% average; Harbor East lowest at 72%.',
      },
      {
        id: 'task-3',
        title: 'Build metrics table',
        prompt: 'Build the monthly metrics table.',
        toolsets: ['code_interpreter'],
        deps: ['task-1', 'task-2'],
        ms: 600,
        ai: 'Metrics table built.',
        files: [csv('practice-metrics.csv', 'clinic,production_usd,collections_pct,chair_utilisation_pct\nHarbor Central,168000,95,86\nHarbor West,139000,94,84\nHarbor East,105000,92,72\n')],
      },
    ],
  },
  {
    key: 'patient-feedback-summary',
    title: 'Patient Feedback Summary',
    createdDaysAgo: 60,
    updatedDaysAgo: 3,
    tasks: [
      {
        id: 'task-1',
        title: 'Summarize patient feedback',
        prompt: 'Summarize this month\'s patient survey responses and online reviews.',
        toolsets: [],
        ms: 1000,
        ai: '212 responses, average 4.7/5. Praise: gentle hygienists, short waits. Complaints: parking at Harbor Central, billing clarity.',
      },
    ],
  },
];

export const SEED_TENANTS: SeedTenant[] = [
  { id: 'tenant-a', name: 'Northwind Outfitters', keyEnv: 'A', workflows: northwind },
  { id: 'tenant-b', name: 'Harbor Dental Group', keyEnv: 'B', workflows: harbor },
];
