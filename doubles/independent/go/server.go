package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/url"
	"runtime/debug"
	"strings"
)

type Server struct {
	store   *Store
	baseURL string
	log     *log.Logger
}

// reqCtx carries per-request information.
type reqCtx struct {
	w       http.ResponseWriter
	r       *http.Request
	traceID string
	tenant  *Tenant
	wrote   bool
}

// apiError is an error answer.
type apiError struct {
	Status   int
	Code     string
	Msg      string
	Generate bool // use the 4.8 body (adds modelResponse)
}

func (e *apiError) Error() string { return e.Msg }

func errf(status int, code, format string, args ...any) *apiError {
	return &apiError{Status: status, Code: code, Msg: fmt.Sprintf(format, args...)}
}

type envelope struct {
	Success bool   `json:"success"`
	ErrCode string `json:"errCode,omitempty"`
	ErrMsg  string `json:"errMsg,omitempty"`
	TraceID string `json:"traceId,omitempty"`
	Data    any    `json:"data,omitempty"`
}

type errorBody struct {
	Success       bool    `json:"success"`
	ErrCode       string  `json:"errCode"`
	ErrMsg        string  `json:"errMsg"`
	TraceID       string  `json:"traceId"`
	StatusCode    int     `json:"statusCode"`
	Message       string  `json:"message"`
	Error         string  `json:"error"`
	ModelResponse *string `json:"modelResponse,omitempty"`
}

func (c *reqCtx) writeJSON(status int, v any) {
	if c.wrote {
		return
	}
	c.wrote = true
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		buf.Reset()
		status = http.StatusInternalServerError
		buf.WriteString(`{"success":false,"errCode":"E0000","errMsg":"unknown error, retry later"}` + "\n")
	}
	h := c.w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	c.w.WriteHeader(status)
	_, _ = c.w.Write(buf.Bytes())
}

func (c *reqCtx) ok(data any) {
	c.writeJSON(http.StatusOK, envelope{Success: true, TraceID: c.traceID, Data: data})
}

func (c *reqCtx) fail(e *apiError) {
	reason := http.StatusText(e.Status)
	if reason == "" {
		reason = "Error"
	}
	body := errorBody{
		Success:    false,
		ErrCode:    e.Code,
		ErrMsg:     e.Msg,
		TraceID:    c.traceID,
		StatusCode: e.Status,
		Message:    e.Msg,
		Error:      reason,
	}
	if e.Generate && e.Status == http.StatusBadRequest {
		empty := ""
		body.ModelResponse = &empty
	}
	if e.Status == http.StatusUnauthorized {
		c.w.Header().Set("WWW-Authenticate", `Bearer realm="wfserver"`)
	}
	c.writeJSON(e.Status, body)
}

type route struct {
	method  string
	pattern []string // "*" matches one non-empty-or-empty segment, captured
	handle  func(s *Server, c *reqCtx, params []string)
}

var routes = []route{
	{"POST", []string{"v1", "openapi", "workflow", "*", "run"}, (*Server).handleRun},
	{"POST", []string{"v1", "openapi", "workflow", "*", "abort"}, (*Server).handleAbort},
	{"GET", []string{"v1", "openapi", "workflow", "*", "output"}, (*Server).handleOutput},
	{"GET", []string{"v1", "openapi", "workflow", "*", "status"}, (*Server).handleStatus},
	{"GET", []string{"v1", "openapi", "workflows"}, (*Server).handleSearch},
	{"GET", []string{"v1", "openapi", "workflows", "*"}, (*Server).handleDetail},
	{"POST", []string{"v1", "openapi", "files", "upload"}, (*Server).handleUpload},
	{"POST", []string{"v1", "openapi", "copilot", "workflow", "generate"}, (*Server).handleGenerate},
	{"GET", []string{"v1", "openapi", "drive", "files", "*"}, (*Server).handleDriveFile},
}

func matchPattern(pattern, segs []string) ([]string, bool) {
	if len(pattern) != len(segs) {
		return nil, false
	}
	var params []string
	for i, p := range pattern {
		if p == "*" {
			params = append(params, segs[i])
			continue
		}
		if p != segs[i] {
			return nil, false
		}
	}
	return params, true
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c := &reqCtx{w: w, r: r, traceID: "tr-" + randHex(8)}
	w.Header().Set("X-Trace-Id", c.traceID)
	defer func() {
		if rec := recover(); rec != nil {
			if rec == http.ErrAbortHandler {
				panic(rec)
			}
			s.log.Printf("panic %s %q: %v\n%s", r.Method, r.URL.RequestURI(), rec, debug.Stack())
			c.fail(errf(http.StatusInternalServerError, "E0000", "unknown error, retry later"))
		}
	}()

	raw := r.URL.EscapedPath()
	if len(raw) > 1 && strings.HasSuffix(raw, "/") {
		raw = raw[:len(raw)-1]
	}
	var segs []string
	if strings.HasPrefix(raw, "/") {
		for _, p := range strings.Split(raw[1:], "/") {
			u, err := url.PathUnescape(p)
			if err != nil {
				s.notFound(c)
				return
			}
			segs = append(segs, u)
		}
	}

	var allowed []string
	for _, rt := range routes {
		params, ok := matchPattern(rt.pattern, segs)
		if !ok {
			continue
		}
		method := r.Method
		if method == http.MethodHead && rt.method == http.MethodGet {
			method = http.MethodGet
		}
		if method != rt.method {
			allowed = append(allowed, rt.method)
			continue
		}
		if !s.authenticate(c) {
			return
		}
		rt.handle(s, c, params)
		return
	}
	if len(allowed) > 0 {
		if contains(allowed, http.MethodGet) {
			allowed = append(allowed, http.MethodHead)
		}
		w.Header().Set("Allow", strings.Join(allowed, ", "))
		c.fail(errf(http.StatusMethodNotAllowed, "E0003", "method %s is not allowed on this path", sanitizeForMsg(r.Method, 32)))
		return
	}
	s.notFound(c)
}

func (s *Server) notFound(c *reqCtx) {
	c.fail(errf(http.StatusNotFound, "E1002", "no such endpoint: %s", sanitizeForMsg(c.r.URL.Path, 200)))
}

// authenticate checks "Authorization: Bearer <key>". The scheme name is matched
// case-insensitively (RFC 9110 section 11.1); the key itself is case-sensitive.
func (s *Server) authenticate(c *reqCtx) bool {
	h := c.r.Header.Get("Authorization")
	h = strings.Trim(h, " \t")
	if h == "" {
		c.fail(errf(http.StatusUnauthorized, "E0004", "missing API key: send the header 'Authorization: Bearer <API_KEY>'"))
		return false
	}
	sp := strings.IndexAny(h, " \t")
	if sp < 0 || !strings.EqualFold(h[:sp], "Bearer") {
		c.fail(errf(http.StatusUnauthorized, "E0004", "invalid authorization header: expected 'Bearer <API_KEY>'"))
		return false
	}
	key := strings.TrimLeft(h[sp:], " \t")
	if key == "" {
		c.fail(errf(http.StatusUnauthorized, "E0004", "missing API key: send the header 'Authorization: Bearer <API_KEY>'"))
		return false
	}
	t := s.store.tenantForKey(key)
	if t == nil {
		c.fail(errf(http.StatusUnauthorized, "E0004", "invalid API key"))
		return false
	}
	c.tenant = t
	return true
}

// readBody reads the request body up to the payload limit. Oversized bodies are
// drained (up to drainLimit) so that the client receives the error answer.
func readBody(r *http.Request) ([]byte, *apiError) {
	tooLarge := errf(http.StatusBadRequest, "E2005", "request payload too large; maximum size is 100KB (%d bytes)", maxBodyBytes)
	if r.Body == nil {
		return nil, nil
	}
	if r.ContentLength > maxBodyBytes {
		_, _ = io.CopyN(io.Discard, r.Body, drainLimit)
		return nil, tooLarge
	}
	data, err := io.ReadAll(io.LimitReader(r.Body, maxBodyBytes+1))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, tooLarge
		}
		return nil, errf(http.StatusBadRequest, "INVALID_REQUEST_BODY", "could not read the request body")
	}
	if len(data) > maxBodyBytes {
		_, _ = io.CopyN(io.Discard, r.Body, drainLimit)
		return nil, tooLarge
	}
	return data, nil
}

// parseJSONObject decodes a JSON object body. An empty (or whitespace-only)
// body and a literal null give (nil, true, nil).
func parseJSONObject(data []byte) (map[string]any, bool, *apiError) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, true, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, false, errf(http.StatusBadRequest, "INVALID_REQUEST_BODY", "request body is not valid JSON: %s", sanitizeForMsg(err.Error(), 200))
	}
	var extra any
	if err := dec.Decode(&extra); err != io.EOF {
		return nil, false, errf(http.StatusBadRequest, "INVALID_REQUEST_BODY", "request body must contain a single JSON value")
	}
	if v == nil {
		return nil, true, nil
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, false, errf(http.StatusBadRequest, "INVALID_REQUEST_BODY", "request body must be a JSON object")
	}
	return obj, false, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// sanitizeForMsg shortens s (by runes) for inclusion in an error message.
func sanitizeForMsg(s string, max int) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if r := []rune(s); len(r) > max {
		return string(r[:max]) + "…"
	}
	return s
}

func jsonTypeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case json.Number:
		return "number"
	case bool:
		return "boolean"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return "unknown"
}
