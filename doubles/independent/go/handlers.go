package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

func ts(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// ---------- run ----------

type runData struct {
	ExecutionID string `json:"executionId"`
	Status      string `json:"status"`
}

func (s *Server) handleRun(c *reqCtx, p []string) {
	canvasID := p[0]
	body, berr := readBody(c.r)
	now := time.Now()

	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()

	w := st.workflowFor(c.tenant, canvasID)
	if w == nil {
		c.fail(errf(http.StatusNotFound, "CANVAS_NOT_FOUND", "workflow not found: %s", sanitizeForMsg(canvasID, 100)))
		return
	}
	if !w.APIEnabled {
		c.fail(errf(http.StatusForbidden, "WEBHOOK_DISABLED", "the API of workflow %s is disabled; enable it in the workflow's Integration settings", w.ID))
		return
	}
	if berr != nil {
		c.fail(berr)
		return
	}
	obj, _, perr := parseJSONObject(body)
	if perr != nil {
		c.fail(perr)
		return
	}
	// Legacy top-level fields first, then the recommended "variables" wrapper (wins on conflict).
	input := map[string]any{}
	for k, v := range obj {
		if k != "variables" {
			input[k] = v
		}
	}
	if raw, ok := obj["variables"]; ok && raw != nil {
		vm, ok := raw.(map[string]any)
		if !ok {
			c.fail(errf(http.StatusBadRequest, "INVALID_REQUEST_BODY", "'variables' must be a JSON object of name/value pairs, got %s", jsonTypeName(raw)))
			return
		}
		for k, v := range vm {
			input[k] = v
		}
	}
	vals, used, verr := st.resolveVariables(c.tenant, w.Vars, input, now)
	if verr != nil {
		c.fail(verr)
		return
	}
	for _, u := range used {
		u.Used = true
	}
	e := st.newExecution(w, vals, now)
	st.addExecution(e)
	status, _ := e.State(time.Now())
	s.log.Printf("tenant=%s run canvas=%s execution=%s", c.tenant.Name, w.ID, e.ID)
	c.ok(runData{ExecutionID: e.ID, Status: status})
}

// scalarText converts a JSON scalar to text; ok is false for arrays/objects.
func scalarText(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case json.Number:
		return x.String(), true
	case bool:
		return strconv.FormatBool(x), true
	}
	return "", false
}

func (st *Store) resolveVariables(t *Tenant, defs []VarDef, input map[string]any, now time.Time) (map[string]string, []*Upload, *apiError) {
	vals := map[string]string{}
	var used []*Upload
	bad := func(format string, args ...any) *apiError {
		return errf(http.StatusBadRequest, "INVALID_REQUEST_BODY", format, args...)
	}
	for _, d := range defs {
		v := input[d.Name]
		provided := false
		switch d.Type {
		case "resource":
			var keys []string
			switch x := v.(type) {
			case nil:
			case string:
				if strings.TrimSpace(x) != "" {
					keys = append(keys, strings.TrimSpace(x))
				}
			case []any:
				for _, el := range x {
					s, ok := el.(string)
					if !ok {
						return nil, nil, bad("variable '%s' is a file variable: its value must be a fileKey or an array of fileKeys, found an element of type %s", d.Name, jsonTypeName(el))
					}
					if strings.TrimSpace(s) != "" {
						keys = append(keys, strings.TrimSpace(s))
					}
				}
			default:
				return nil, nil, bad("variable '%s' is a file variable: its value must be a fileKey or an array of fileKeys, got %s", d.Name, jsonTypeName(v))
			}
			if len(keys) == 0 {
				break
			}
			provided = true
			var parts []string
			for _, k := range keys {
				u := st.uploadFor(t, k, now)
				if u == nil {
					return nil, nil, errf(http.StatusBadRequest, "E1012", "upload file not found: fileKey '%s' of variable '%s' is unknown or expired", sanitizeForMsg(k, 100), d.Name)
				}
				used = append(used, u)
				parts = append(parts, describeUpload(u))
			}
			vals[d.Name] = strings.Join(parts, ", ")
		case "option":
			var raw []string
			switch x := v.(type) {
			case nil:
			case []any:
				for _, el := range x {
					s, ok := scalarText(el)
					if !ok {
						return nil, nil, bad("variable '%s' is an option variable: its value must be one of the options (or an array of them), found an element of type %s", d.Name, jsonTypeName(el))
					}
					raw = append(raw, s)
				}
			default:
				s, ok := scalarText(v)
				if !ok {
					return nil, nil, bad("variable '%s' is an option variable: its value must be one of the options, got %s", d.Name, jsonTypeName(v))
				}
				raw = append(raw, s)
			}
			var chosen []string
			for _, r := range raw {
				r = strings.TrimSpace(r)
				if r == "" {
					continue
				}
				match := ""
				for _, o := range d.Options {
					if strings.EqualFold(o, r) {
						match = o
						break
					}
				}
				if match == "" {
					return nil, nil, bad("value '%s' is not an allowed option of variable '%s'; allowed: %s", sanitizeForMsg(r, 100), d.Name, strings.Join(d.Options, ", "))
				}
				if !contains(chosen, match) {
					chosen = append(chosen, match)
				}
			}
			if len(chosen) == 0 {
				break
			}
			provided = true
			vals[d.Name] = strings.Join(chosen, ", ")
		default: // string
			if v == nil {
				break
			}
			s, ok := scalarText(v)
			if !ok {
				return nil, nil, bad("variable '%s' is a string variable: its value must be a string, number or boolean, got %s", d.Name, jsonTypeName(v))
			}
			if utf8.RuneCountInString(s) > maxContentChars {
				return nil, nil, errf(http.StatusBadRequest, "E2004", "content too large: variable '%s' has %d characters; maximum length is 100k (%d) characters", d.Name, utf8.RuneCountInString(s), maxContentChars)
			}
			if strings.TrimSpace(s) == "" {
				break
			}
			provided = true
			vals[d.Name] = s
		}
		if !provided {
			if d.Required {
				return nil, nil, bad("required variable '%s' is missing or empty", d.Name)
			}
			vals[d.Name] = d.Default
		}
	}
	return vals, used, nil
}

func describeUpload(u *Upload) string {
	desc := fmt.Sprintf("%s (%d bytes", u.Name, len(u.Data))
	if utf8.Valid(u.Data) && len(u.Data) > 0 && !bytes.ContainsRune(u.Data, 0) {
		lines := bytes.Count(u.Data, []byte("\n"))
		if !bytes.HasSuffix(u.Data, []byte("\n")) {
			lines++
		}
		desc += fmt.Sprintf(", %d lines", lines)
	}
	return desc + ")"
}

// ---------- abort ----------

func (s *Server) handleAbort(c *reqCtx, p []string) {
	// The body is ignored (the operation takes none); drain a bounded amount.
	if c.r.Body != nil {
		_, _ = io.CopyN(io.Discard, c.r.Body, drainLimit)
	}
	now := time.Now()
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	e := st.executionFor(c.tenant, p[0])
	if e == nil {
		c.fail(errf(http.StatusNotFound, "E1021", "workflow execution not found: %s", sanitizeForMsg(p[0], 100)))
		return
	}
	if e.AbortedAt == nil && !e.Terminal(now) {
		e.AbortedAt = &now
		s.log.Printf("tenant=%s abort execution=%s", c.tenant.Name, e.ID)
	}
	c.ok(nil)
}

// ---------- status ----------

type nodeExecution struct {
	NodeID       string `json:"nodeId"`
	Status       string `json:"status"`
	Title        string `json:"title"`
	ErrorMessage string `json:"errorMessage,omitempty"`
}

type statusData struct {
	ExecutionID    string          `json:"executionId"`
	Status         string          `json:"status"`
	NodeExecutions []nodeExecution `json:"nodeExecutions"`
	CreatedAt      string          `json:"createdAt"`
}

func (s *Server) handleStatus(c *reqCtx, p []string) {
	now := time.Now()
	st := s.store
	st.mu.RLock()
	defer st.mu.RUnlock()
	e := st.executionFor(c.tenant, p[0])
	if e == nil {
		c.fail(errf(http.StatusNotFound, "E1021", "workflow execution not found: %s", sanitizeForMsg(p[0], 100)))
		return
	}
	status, states := e.State(now)
	d := statusData{ExecutionID: e.ID, Status: status, NodeExecutions: []nodeExecution{}, CreatedAt: ts(e.CreatedAt)}
	for i, n := range e.Nodes {
		d.NodeExecutions = append(d.NodeExecutions, nodeExecution{NodeID: n.NodeID, Status: states[i].Status, Title: n.Title, ErrorMessage: states[i].ErrMsg})
	}
	c.ok(d)
}

// ---------- output ----------

type outMessage struct {
	MessageID        string `json:"messageId"`
	Content          string `json:"content"`
	ReasoningContent string `json:"reasoningContent,omitempty"`
	Type             string `json:"type"`
}

type outNode struct {
	NodeID       string       `json:"nodeId"`
	Title        string       `json:"title"`
	Status       string       `json:"status"`
	ErrorMessage string       `json:"errorMessage,omitempty"`
	StartTime    string       `json:"startTime,omitempty"`
	EndTime      string       `json:"endTime,omitempty"`
	Messages     []outMessage `json:"messages"`
}

type outFile struct {
	Name   string `json:"name"`
	Type   string `json:"type"`
	Size   int    `json:"size"`
	NodeID string `json:"nodeId"`
	URL    string `json:"url"`
}

type outputData struct {
	Output []outNode `json:"output"`
	Files  []outFile `json:"files"`
}

func (s *Server) handleOutput(c *reqCtx, p []string) {
	now := time.Now()
	st := s.store
	st.mu.RLock()
	defer st.mu.RUnlock()
	e := st.executionFor(c.tenant, p[0])
	if e == nil {
		c.fail(errf(http.StatusNotFound, "E1021", "workflow execution not found: %s", sanitizeForMsg(p[0], 100)))
		return
	}
	_, states := e.State(now)
	d := outputData{Output: []outNode{}, Files: []outFile{}}
	short := strings.TrimPrefix(e.ID, "we-")
	for i, n := range e.Nodes {
		ns := states[i]
		on := outNode{NodeID: n.NodeID, Title: n.Title, Status: ns.Status, ErrorMessage: ns.ErrMsg, Messages: []outMessage{}}
		if !ns.Start.IsZero() {
			on.StartTime = ts(ns.Start)
		}
		if !ns.End.IsZero() {
			on.EndTime = ts(ns.End)
		}
		if ns.executed {
			for j, m := range VisibleMessages(n, ns.Frac) {
				on.Messages = append(on.Messages, outMessage{
					MessageID:        fmt.Sprintf("msg-%s-%d-%d", short, i+1, j+1),
					Content:          m.Content,
					ReasoningContent: m.Reasoning,
					Type:             m.Type,
				})
			}
		}
		d.Output = append(d.Output, on)
		if ns.Status == StFinish {
			for _, f := range n.Files {
				d.Files = append(d.Files, outFile{
					Name:   f.Name,
					Type:   f.Type,
					Size:   len(f.Content),
					NodeID: n.NodeID,
					URL:    s.baseURL + "/openapi/drive/files/" + url.PathEscape(f.ID),
				})
			}
		}
	}
	c.ok(d)
}

// ---------- drive file download (URL of output files) ----------

func (s *Server) handleDriveFile(c *reqCtx, p []string) {
	now := time.Now()
	st := s.store
	st.mu.RLock()
	f := st.driveFiles[p[0]]
	var e *Execution
	if f != nil && f.Tenant == c.tenant {
		e = st.executionFor(c.tenant, f.ExecID)
	}
	visible := false
	if e != nil {
		_, states := e.State(now)
		visible = f.NodeIdx < len(states) && states[f.NodeIdx].Status == StFinish
	}
	st.mu.RUnlock()
	if !visible {
		c.fail(errf(http.StatusNotFound, "E1024", "drive file not found: %s", sanitizeForMsg(p[0], 100)))
		return
	}
	h := c.w.Header()
	h.Set("Content-Type", f.Type)
	h.Set("Content-Length", strconv.Itoa(len(f.Content)))
	if cd := mime.FormatMediaType("attachment", map[string]string{"filename": f.Name}); cd != "" {
		h.Set("Content-Disposition", cd)
	}
	h.Set("X-Content-Type-Options", "nosniff")
	c.wrote = true
	c.w.WriteHeader(http.StatusOK)
	if c.r.Method != http.MethodHead {
		_, _ = c.w.Write(f.Content)
	}
}

// ---------- search ----------

type searchItem struct {
	CanvasID  string `json:"canvasId"`
	Title     string `json:"title"`
	CreatedAt string `json:"createdAt"`
	UpdatedAt string `json:"updatedAt"`
}

// firstQuery returns the first value of a query parameter, tolerating a
// malformed query string.
func firstQuery(r *http.Request, name string) (string, bool) {
	q, _ := url.ParseQuery(r.URL.RawQuery) // keeps the well-formed pairs
	v, ok := q[name]
	if !ok || len(v) == 0 {
		return "", false
	}
	return v[0], true
}

// parsePositive parses an integer query value. ok=false means "absent or not
// an integer". Values larger than the int range saturate at maxInt.
func parsePositive(s string) (n int64, ok bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, false
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err == nil {
		return v, true
	}
	if ne, isNum := err.(*strconv.NumError); isNum && ne.Err == strconv.ErrRange {
		if strings.HasPrefix(s, "-") {
			return -1 << 62, true
		}
		return 1 << 62, true
	}
	// Integral values written as decimals or exponents ("2.0", "1e3").
	f, ferr := strconv.ParseFloat(s, 64)
	if ferr != nil || math.IsNaN(f) || math.IsInf(f, 0) || f != math.Trunc(f) {
		return 0, false
	}
	if f >= 1<<62 {
		return 1 << 62, true
	}
	if f <= -(1 << 62) {
		return -1 << 62, true
	}
	return int64(f), true
}

var orderAliases = map[string]string{
	"updationdesc": "updationDesc", "updatedatdesc": "updationDesc", "-updatedat": "updationDesc", "updatedat:desc": "updationDesc", "desc": "updationDesc", "newest": "updationDesc", "latest": "updationDesc",
	"updationasc": "updationAsc", "updatedatasc": "updationAsc", "updatedat": "updationAsc", "updatedat:asc": "updationAsc", "asc": "updationAsc", "oldest": "updationAsc",
	"creationdesc": "creationDesc", "createdatdesc": "creationDesc", "-createdat": "creationDesc", "createdat:desc": "creationDesc",
	"creationasc": "creationAsc", "createdatasc": "creationAsc", "createdat": "creationAsc", "createdat:asc": "creationAsc",
	"titleasc": "titleAsc", "title": "titleAsc", "title:asc": "titleAsc", "name": "titleAsc", "alphabetical": "titleAsc",
	"titledesc": "titleDesc", "-title": "titleDesc", "title:desc": "titleDesc",
}

func (s *Server) handleSearch(c *reqCtx, _ []string) {
	keyword, _ := firstQuery(c.r, "keyword")
	keyword = strings.TrimSpace(strings.ToValidUTF8(keyword, ""))
	orderRaw, _ := firstQuery(c.r, "order")
	order := orderAliases[strings.ToLower(strings.TrimSpace(orderRaw))]
	if order == "" {
		order = "updationDesc"
	}
	page := int64(1)
	if ps, ok := firstQuery(c.r, "page"); ok {
		if v, ok := parsePositive(ps); ok && v >= 1 {
			page = v
		}
	}
	pageSize := int64(defaultPageSize)
	if ps, ok := firstQuery(c.r, "pageSize"); ok {
		if v, ok := parsePositive(ps); ok && v >= 1 {
			pageSize = v
			if pageSize > maxPageSize {
				pageSize = maxPageSize
			}
		}
	}

	st := s.store
	st.mu.RLock()
	all := st.tenantWorkflows(c.tenant)
	var matched []*Workflow
	kw := strings.ToLower(keyword)
	for _, w := range all {
		if kw == "" || strings.Contains(strings.ToLower(w.Title), kw) {
			matched = append(matched, w)
		}
	}
	sort.SliceStable(matched, func(i, j int) bool {
		a, b := matched[i], matched[j]
		switch order {
		case "updationAsc":
			if !a.UpdatedAt.Equal(b.UpdatedAt) {
				return a.UpdatedAt.Before(b.UpdatedAt)
			}
		case "creationDesc":
			if !a.CreatedAt.Equal(b.CreatedAt) {
				return a.CreatedAt.After(b.CreatedAt)
			}
		case "creationAsc":
			if !a.CreatedAt.Equal(b.CreatedAt) {
				return a.CreatedAt.Before(b.CreatedAt)
			}
		case "titleAsc", "titleDesc":
			la, lb := strings.ToLower(a.Title), strings.ToLower(b.Title)
			if la != lb {
				if order == "titleAsc" {
					return la < lb
				}
				return la > lb
			}
		default: // updationDesc
			if !a.UpdatedAt.Equal(b.UpdatedAt) {
				return a.UpdatedAt.After(b.UpdatedAt)
			}
		}
		return a.ID < b.ID
	})
	items := []searchItem{}
	total := int64(len(matched))
	if page-1 < (total+pageSize-1)/pageSize {
		start := (page - 1) * pageSize
		end := start + pageSize
		if end > total {
			end = total
		}
		for _, w := range matched[start:end] {
			items = append(items, searchItem{CanvasID: w.ID, Title: w.Title, CreatedAt: ts(w.CreatedAt), UpdatedAt: ts(w.UpdatedAt)})
		}
	}
	st.mu.RUnlock()
	c.ok(items)
}

// ---------- detail ----------

type planTask struct {
	ID             string   `json:"id"`
	Title          string   `json:"title"`
	Prompt         string   `json:"prompt"`
	Toolsets       []string `json:"toolsets"`
	DependentTasks []string `json:"dependentTasks"`
}

type planVar struct {
	Name         string   `json:"name"`
	VariableType string   `json:"variableType"`
	Required     bool     `json:"required"`
	Options      []string `json:"options,omitempty"`
}

type workflowPlan struct {
	Title     string     `json:"title"`
	Tasks     []planTask `json:"tasks"`
	Variables []planVar  `json:"variables"`
}

func planOf(w *Workflow) workflowPlan {
	p := workflowPlan{Title: w.Title, Tasks: []planTask{}, Variables: []planVar{}}
	for _, t := range w.Tasks {
		pt := planTask{ID: t.ID, Title: t.Title, Prompt: t.Prompt, Toolsets: append([]string{}, t.Toolsets...), DependentTasks: append([]string{}, t.DependentTasks...)}
		p.Tasks = append(p.Tasks, pt)
	}
	for _, v := range w.Vars {
		pv := planVar{Name: v.Name, VariableType: v.Type, Required: v.Required}
		if v.Type == "option" {
			pv.Options = append([]string{}, v.Options...)
		}
		p.Variables = append(p.Variables, pv)
	}
	return p
}

func (s *Server) handleDetail(c *reqCtx, p []string) {
	st := s.store
	st.mu.RLock()
	w := st.workflowFor(c.tenant, p[0])
	var plan workflowPlan
	if w != nil {
		plan = planOf(w)
	}
	st.mu.RUnlock()
	if w == nil {
		c.fail(errf(http.StatusNotFound, "CANVAS_NOT_FOUND", "workflow not found: %s", sanitizeForMsg(p[0], 100)))
		return
	}
	c.ok(plan)
}

// ---------- upload ----------

type uploadedFile struct {
	FileKey  string `json:"fileKey"`
	FileName string `json:"fileName"`
}

type uploadData struct {
	Files []uploadedFile `json:"files"`
}

func (s *Server) handleUpload(c *reqCtx, _ []string) {
	body, berr := readBody(c.r)
	if berr != nil {
		c.fail(berr)
		return
	}
	mt, params, err := mime.ParseMediaType(c.r.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/form-data" || params["boundary"] == "" {
		c.fail(errf(http.StatusBadRequest, "E3009", "content type not allowed: the upload must be sent as multipart/form-data with the files in the field 'files'"))
		return
	}
	mr := multipart.NewReader(bytes.NewReader(body), params["boundary"])
	type pending struct {
		name, ctype string
		data        []byte
	}
	var files []pending
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			c.fail(errf(http.StatusBadRequest, "INVALID_REQUEST_BODY", "malformed multipart body: %s", sanitizeForMsg(err.Error(), 200)))
			return
		}
		field := part.FormName()
		if field != "files" && field != "files[]" {
			_, _ = io.Copy(io.Discard, part)
			continue
		}
		_, cdParams, cdErr := mime.ParseMediaType(part.Header.Get("Content-Disposition"))
		name, hasName := cdParams["filename"]
		if cdErr != nil || !hasName {
			c.fail(errf(http.StatusBadRequest, "INVALID_REQUEST_BODY", "field 'files' must contain files (parts with a filename), not plain text values"))
			return
		}
		data, err := io.ReadAll(part)
		if err != nil {
			c.fail(errf(http.StatusBadRequest, "INVALID_REQUEST_BODY", "malformed multipart body: %s", sanitizeForMsg(err.Error(), 200)))
			return
		}
		if i := strings.LastIndexAny(name, `/\`); i >= 0 {
			name = name[i+1:]
		}
		name = strings.TrimSpace(strings.ToValidUTF8(name, "\uFFFD"))
		if name == "" || name == "." || name == ".." {
			name = "file"
		}
		if utf8.RuneCountInString(name) > 255 {
			c.fail(errf(http.StatusBadRequest, "INVALID_REQUEST_BODY", "file name too long (maximum 255 characters)"))
			return
		}
		ctype := part.Header.Get("Content-Type")
		if ctype == "" || ctype == "application/octet-stream" {
			ctype = http.DetectContentType(data)
		}
		files = append(files, pending{name: name, ctype: ctype, data: data})
		if len(files) > maxFilesPerUpload {
			c.fail(errf(http.StatusBadRequest, "INVALID_REQUEST_BODY", "too many files: at most %d files per upload", maxFilesPerUpload))
			return
		}
	}
	if len(files) == 0 {
		c.fail(errf(http.StatusBadRequest, "INVALID_REQUEST_BODY", "no file found: send one or more files in the multipart field 'files'"))
		return
	}

	now := time.Now()
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	count, total := st.uploadUsage(c.tenant)
	add := 0
	for _, f := range files {
		add += len(f.data)
	}
	if count+len(files) > maxUploadsPerTenant || total+add > maxUploadBytesTotal {
		c.fail(errf(http.StatusBadRequest, "E2001", "storage quota exceeded"))
		return
	}
	out := uploadData{Files: []uploadedFile{}}
	for _, f := range files {
		u := &Upload{Key: "fk-" + randHex(12), Tenant: c.tenant, Name: f.name, ContentType: f.ctype, Data: f.data, UploadedAt: now}
		st.uploads[u.Key] = u
		out.Files = append(out.Files, uploadedFile{FileKey: u.Key, FileName: u.Name})
	}
	s.log.Printf("tenant=%s upload files=%d bytes=%d", c.tenant.Name, len(files), add)
	c.ok(out)
}
