package main

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

var allowedLocales = []string{"en", "zh-CN", "ja", "zh-Hant", "fr", "de-DE", "ko", "hi", "es", "ru", "de", "it", "tr", "pt", "vi", "id", "th", "ar", "mn", "fa"}

const (
	maxGeneratedTasks   = 20
	generatedTaskMs     = 1500
	maxGeneratedVars    = 50
	maxGeneratedOptions = 50
)

type generateData struct {
	CanvasID     string       `json:"canvasId"`
	WorkflowPlan workflowPlan `json:"workflowPlan"`
}

func (s *Server) handleGenerate(c *reqCtx, _ []string) {
	bad := func(code, format string, args ...any) {
		e := errf(http.StatusBadRequest, code, format, args...)
		e.Generate = true
		c.fail(e)
	}
	body, berr := readBody(c.r)
	if berr != nil {
		berr.Generate = true
		c.fail(berr)
		return
	}
	obj, empty, perr := parseJSONObject(body)
	if perr != nil {
		perr.Generate = true
		c.fail(perr)
		return
	}
	if empty {
		bad("INVALID_REQUEST_BODY", "'query' is required")
		return
	}
	qv, ok := obj["query"]
	if !ok || qv == nil {
		bad("INVALID_REQUEST_BODY", "'query' is required")
		return
	}
	query, ok := qv.(string)
	if !ok {
		bad("INVALID_REQUEST_BODY", "'query' must be a string, got %s", jsonTypeName(qv))
		return
	}
	if n := utf8.RuneCountInString(query); n > maxContentChars {
		bad("E2004", "content too large: 'query' has %d characters; maximum length is 100k (%d) characters", n, maxContentChars)
		return
	}
	if strings.TrimSpace(query) == "" {
		bad("INVALID_REQUEST_BODY", "'query' must not be empty")
		return
	}
	locale := "en"
	if lv, ok := obj["locale"]; ok && lv != nil {
		ls, ok := lv.(string)
		if !ok {
			bad("INVALID_REQUEST_BODY", "'locale' must be a string, got %s", jsonTypeName(lv))
			return
		}
		ls = strings.TrimSpace(ls)
		if ls != "" {
			match := ""
			for _, l := range allowedLocales {
				if strings.EqualFold(l, ls) {
					match = l
				}
			}
			if match == "" {
				bad("INVALID_REQUEST_BODY", "unsupported locale '%s'; allowed values: %s", sanitizeForMsg(ls, 50), strings.Join(allowedLocales, ", "))
				return
			}
			locale = match
		}
	}
	canvasID := ""
	if cv, ok := obj["canvasId"]; ok && cv != nil {
		cs, ok := cv.(string)
		if !ok {
			bad("INVALID_REQUEST_BODY", "'canvasId' must be a string, got %s", jsonTypeName(cv))
			return
		}
		canvasID = strings.TrimSpace(cs)
	}

	title, tasks, vars := buildPlan(query, locale)
	if len(tasks) == 0 {
		bad("INVALID_REQUEST_BODY", "workflow generation failed: no actionable step could be derived from the query (it contains no words)")
		return
	}

	now := time.Now()
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	var w *Workflow
	if canvasID != "" {
		w = st.workflowFor(c.tenant, canvasID)
		if w == nil {
			c.fail(errf(http.StatusNotFound, "CANVAS_NOT_FOUND", "canvas not found: %s", sanitizeForMsg(canvasID, 100)))
			return
		}
		w.Title, w.Tasks, w.Vars, w.Locale, w.UpdatedAt = title, tasks, vars, locale, now
		s.log.Printf("tenant=%s generate overwrite canvas=%s tasks=%d", c.tenant.Name, w.ID, len(tasks))
	} else {
		if len(st.tenantWorkflows(c.tenant)) >= maxWorkflowsTenant {
			bad("E2001", "storage quota exceeded: at most %d workflows per API key", maxWorkflowsTenant)
			return
		}
		w = &Workflow{ID: "c-" + randHex(10), Tenant: c.tenant, Title: title, Tasks: tasks, Vars: vars,
			APIEnabled: true, Locale: locale, CreatedAt: now, UpdatedAt: now}
		st.workflows[w.ID] = w
		s.log.Printf("tenant=%s generate new canvas=%s tasks=%d", c.tenant.Name, w.ID, len(tasks))
	}
	c.ok(generateData{CanvasID: w.ID, WorkflowPlan: planOf(w)})
}

var (
	listMarkerRe = regexp.MustCompile(`(?i)^\s*(?:step\s*\d{1,3}\s*[:.)\-]?|\d{1,3}\s*[.)、:]|[-*•·]|[a-z]\))\s*`)
	sentenceRe   = regexp.MustCompile(`[.!?;]+(?:\s+|$)|[。！？；]+`)
	connectorRe  = regexp.MustCompile(`(?i),?\s+and\s+then\s+|,?\s+then,?\s+|,?\s+after\s+that,?\s+|,?\s+afterwards,?\s+|,?\s+finally,?\s+|\s*(?:->|→|=>)\s*|然后|接着|之后|最后|,?\s+puis\s+|,?\s+ensuite\s+|,?\s+dann\s+|,?\s+danach\s+|,?\s+luego\s+|,?\s+después\s+|,?\s+depois\s+|,?\s+poi\s+|,?\s+затем\s+|,?\s+потом\s+|その後|次に`)
	leadingRe    = regexp.MustCompile(`(?i)^(?:(?:and|then|finally|lastly|first|firstly|second|secondly|third|thirdly|next|also|after that|afterwards)\b[,:]?\s*)+`)
	varNameRe    = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.\-]{0,63}$`)
)

var toolKeywords = []struct {
	toolset  string
	prefixes []string
}{
	{"web_search", []string{"search", "research", "find", "look", "google", "browse", "news", "investigat", "discover", "trend"}},
	{"web_scraper", []string{"scrap", "crawl", "website", "url", "webpage", "page", "site"}},
	{"document_reader", []string{"pdf", "document", "docx", "csv", "excel", "spreadsheet", "file", "read", "extract", "parse", "invoice", "resume"}},
	{"code_interpreter", []string{"calculat", "compute", "analy", "chart", "graph", "plot", "statistic", "python", "code", "forecast"}},
	{"image_generation", []string{"image", "picture", "photo", "logo", "illustrat", "draw"}},
	{"translator", []string{"translat"}},
	{"calendar", []string{"meeting", "calendar", "schedul"}},
	{"email", []string{"email", "e-mail", "mail", "send", "notify"}},
	{"slack", []string{"slack"}},
}

func hasWordChar(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return true
		}
	}
	return false
}

func capitalizeFirst(s string) string {
	r, size := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError {
		return s
	}
	return string(unicode.ToUpper(r)) + s[size:]
}

func shortTitle(piece string, maxWords, maxRunes int) string {
	words := strings.Fields(piece)
	t := piece
	cut := false
	if len(words) > maxWords {
		t = strings.Join(words[:maxWords], " ")
		cut = true
	} else {
		t = strings.Join(words, " ")
	}
	if utf8.RuneCountInString(t) > maxRunes {
		t = truncRunes(t, maxRunes)
		cut = true
	}
	if cut {
		if o, c := strings.LastIndex(t, "{{"), strings.LastIndex(t, "}}"); o > c {
			t = t[:o]
		}
	}
	t = strings.TrimRight(t, " ,;:-")
	if cut {
		t += "…"
	}
	return capitalizeFirst(t)
}

func toolsetsFor(text string) []string {
	tokens := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-')
	})
	out := []string{}
	for _, tk := range toolKeywords {
	next:
		for _, tok := range tokens {
			for _, p := range tk.prefixes {
				if strings.HasPrefix(tok, p) {
					out = append(out, tk.toolset)
					break next
				}
			}
		}
	}
	return out
}

func slugify(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
		if b.Len() >= 40 {
			break
		}
	}
	out := strings.Trim(b.String(), "-")
	if out == "" {
		return "workflow-result"
	}
	return out
}

// compactPlaceholders rewrites "{{name: a | b}}" as "{{name}}" (for titles).
func compactPlaceholders(s string) string {
	return placeholderRe.ReplaceAllStringFunc(s, func(m string) string {
		sub := placeholderRe.FindStringSubmatch(m)
		if len(sub) < 2 {
			return m
		}
		name, _, _ := placeholderName(sub[1])
		return "{{" + name + "}}"
	})
}

// splitSteps derives the ordered list of steps of a query.
func splitSteps(query string) []string {
	// Protect {{placeholders}} from the splitting rules.
	var saved []string
	protected := placeholderRe.ReplaceAllStringFunc(query, func(m string) string {
		saved = append(saved, m)
		return fmt.Sprintf("\x00%d\x00", len(saved)-1)
	})
	restore := func(s string) string {
		for i, m := range saved {
			s = strings.ReplaceAll(s, fmt.Sprintf("\x00%d\x00", i), m)
		}
		return s
	}
	protected = strings.ReplaceAll(protected, "\r\n", "\n")
	protected = strings.ReplaceAll(protected, "\r", "\n")
	var steps []string
	for _, line := range strings.Split(protected, "\n") {
		line = listMarkerRe.ReplaceAllString(line, "")
		for _, sentence := range sentenceRe.Split(line, -1) {
			for _, piece := range connectorRe.Split(sentence, -1) {
				piece = strings.TrimSpace(piece)
				piece = strings.Trim(piece, " \t,;:、，")
				piece = strings.TrimSpace(leadingRe.ReplaceAllString(piece, ""))
				piece = strings.Trim(piece, " \t,;:、，")
				if piece == "" {
					continue
				}
				piece = strings.Join(strings.Fields(restore(piece)), " ")
				if hasWordChar(piece) {
					steps = append(steps, piece)
				}
			}
		}
	}
	if len(steps) > maxGeneratedTasks {
		rest := strings.Join(steps[maxGeneratedTasks-1:], "; ")
		steps = append(steps[:maxGeneratedTasks-1], rest)
	}
	return steps
}

// buildPlan deterministically turns a natural-language query into a plan.
func buildPlan(query, locale string) (string, []TaskDef, []VarDef) {
	steps := splitSteps(query)
	if len(steps) == 0 {
		return "", nil, nil
	}
	var vars []VarDef
	seen := map[string]bool{}
	for _, m := range placeholderRe.FindAllStringSubmatch(query, -1) {
		name, kind, options := placeholderName(m[1])
		if !varNameRe.MatchString(name) || seen[name] || len(vars) >= maxGeneratedVars {
			continue
		}
		seen[name] = true
		v := VarDef{Name: name, Type: kind, Required: true}
		if kind == "option" {
			for _, o := range options {
				if !contains(v.Options, o) && len(v.Options) < maxGeneratedOptions {
					v.Options = append(v.Options, o)
				}
			}
		}
		vars = append(vars, v)
	}

	n := len(steps)
	first := shortTitle(compactPlaceholders(steps[0]), 6, 50)
	title := first
	if n > 1 {
		title = first + " → " + shortTitle(compactPlaceholders(steps[n-1]), 6, 50)
	}

	var tasks []TaskDef
	var summary strings.Builder
	for i, step := range steps {
		id := fmt.Sprintf("task-%d", i+1)
		tt := shortTitle(compactPlaceholders(step), 8, 80)
		t := TaskDef{
			ID:             id,
			Title:          tt,
			Prompt:         step,
			Toolsets:       toolsetsFor(step),
			DependentTasks: []string{},
			DurationMs:     generatedTaskMs,
		}
		if i > 0 {
			t.DependentTasks = []string{fmt.Sprintf("task-%d", i)}
		}
		if len(t.Toolsets) > 0 {
			t.Tool = fmt.Sprintf("[%s] executed for %q: %d results collected and normalised.", strings.Join(t.Toolsets, ", "), tt, 2+utf8.RuneCountInString(step)%7)
		}
		t.AI = fmt.Sprintf("Step %d of %d: %s\n\nInstruction: %s\n\nOutcome: the step was completed and its result was handed over to the next step.", i+1, n, tt, step)
		if i == n-1 {
			t.AI = fmt.Sprintf("Step %d of %d: %s\n\nInstruction: %s\n\nOutcome: all steps are complete; the final result has been saved to the drive.", i+1, n, tt, step)
		}
		if i == 0 {
			t.Reasoning = "This is the first step; it starts from the workflow inputs."
		} else {
			t.Reasoning = fmt.Sprintf("This step builds on the result of task-%d.", i)
		}
		fmt.Fprintf(&summary, "%d. %s\n", i+1, step)
		tasks = append(tasks, t)
	}
	tasks[n-1].Files = []FileDef{{
		Name:    slugify(title) + ".md",
		Type:    "text/markdown",
		Content: fmt.Sprintf("# %s\n\nLocale: %s\n\n## Steps\n\n%s", title, locale, summary.String()),
	}}
	return title, tasks, vars
}
