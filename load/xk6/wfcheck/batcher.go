// Package wfcheck is the k6 extension `k6/x/wfcheck`: the batches of offloaded contract checks, built and
// sent in Go.
//
// When the checks are offloaded every response is checked by the Node checker of the runner
// (load/node/node-checker.ts). Done in the VU's JavaScript, batching a response is costly in k6's interpreter
// (reading the response, framing it, joining a batch, an instrumented HTTP request per batch); here a VU
// makes one call per response, `capture(operation, res)`, which reads the response's Go fields and appends
// one frame to a batch shared by all VUs of the process. Full or older than the flush interval, a batch is
// posted to the checker by a background goroutine (outside k6's HTTP client, so it is in no http_*
// metric of the target), and the checker's counts are recorded in the suite's contract metrics.
// `drain()`, called from teardown, posts what is left and waits for every verdict, so each response is
// checked and recorded before the test ends.
//
// The frame format is load/k6/lib/check-batch.ts's: nine TAB-separated fields per response, lengths in UTF-16
// code units.
package wfcheck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/grafana/sobek"
	"go.k6.io/k6/js/common"
	"go.k6.io/k6/js/modules"
	k6http "go.k6.io/k6/js/modules/k6/http"
	"go.k6.io/k6/metrics"
)

func init() {
	modules.Register("k6/x/wfcheck", new(RootModule))
}

// RootModule holds the one batcher of the k6 process: every VU's responses share its batches.
type RootModule struct {
	once    sync.Once
	batcher *batcher
}

// ModuleInstance is the module as one VU sees it.
type ModuleInstance struct {
	vu   modules.VU
	root *RootModule
}

var (
	_ modules.Module   = &RootModule{}
	_ modules.Instance = &ModuleInstance{}
)

// NewModuleInstance runs in each VU's init context, where the metric registry is available.
func (r *RootModule) NewModuleInstance(vu modules.VU) modules.Instance {
	r.once.Do(func() { r.batcher = newBatcher(vu.InitEnv().Registry) })
	return &ModuleInstance{vu: vu, root: r}
}

// Exports names what the script may call.
func (mi *ModuleInstance) Exports() modules.Exports {
	return modules.Exports{Named: map[string]any{
		"configure": mi.configure,
		"capture":   mi.capture,
		"drain":     mi.drain,
	}}
}

// configure(checkerUrl, batchSize): where batches go and how many responses each holds; the first call counts.
func (mi *ModuleInstance) configure(checker string, batch int) {
	mi.root.batcher.configure(checker, batch)
}

// capture(operation, res): one response handed over. A FunctionCall signature: sobek then converts no
// argument, which keeps the call cheap.
func (mi *ModuleInstance) capture(call sobek.FunctionCall) sobek.Value {
	rt := mi.vu.Runtime()
	res, ok := call.Argument(1).Export().(*k6http.Response)
	if !ok || res.Response == nil {
		common.Throw(rt, fmt.Errorf("capture: the second argument is not a k6 HTTP response"))
	}
	state := mi.vu.State()
	if state == nil {
		common.Throw(rt, fmt.Errorf("capture: called outside a VU's execution"))
	}
	mi.root.batcher.add(state.Samples, state.Logger, call.Argument(0).String(), res)
	return sobek.Undefined()
}

// drain(): posts what is buffered and waits until every batch has been checked and recorded. For teardown.
func (mi *ModuleInstance) drain() {
	mi.root.batcher.drain()
}

// ---- the shared batcher ----------------------------------------------------------------------------

const (
	flushAfter  = 250 * time.Millisecond
	maxInFlight = 4
)

type contractMetrics struct{ checked, violations, warnings, unchecked *metrics.Metric }

type batcher struct {
	registry *metrics.Registry
	metrics  contractMetrics

	mu       sync.Mutex
	checker  string
	batch    int
	buf      *bytes.Buffer
	count    int
	since    time.Time
	samples  chan<- metrics.SampleContainer
	logger   interface{ Errorf(string, ...any) }
	ticker   *time.Ticker
	drained  bool
	warned   bool
	inFlight sync.WaitGroup
	slots    chan struct{}
	client   *http.Client
}

func newBatcher(registry *metrics.Registry) *batcher {
	return &batcher{
		registry: registry,
		metrics: contractMetrics{
			checked:    registry.MustNewMetric("contract_checked", metrics.Counter),
			violations: registry.MustNewMetric("contract_violations", metrics.Counter),
			warnings:   registry.MustNewMetric("contract_warnings", metrics.Counter),
			unchecked:  registry.MustNewMetric("contract_unchecked", metrics.Counter),
		},
		buf:    new(bytes.Buffer),
		slots:  make(chan struct{}, maxInFlight),
		client: &http.Client{Timeout: 60 * time.Second},
	}
}

// Buffers of batches, reused once posted: a batch is as large as its bodies, and copying or growing a
// fresh one for every batch would allocate as much again as the responses themselves.
var buffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func (h *batcher) configure(checker string, batch int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.checker == "" {
		h.checker, h.batch = checker, max(batch, 1)
	}
}

func (h *batcher) add(samples chan<- metrics.SampleContainer, logger interface{ Errorf(string, ...any) }, operation string, res *k6http.Response) {
	method, url := "", res.URL
	if res.Request != nil {
		method, url = res.Request.Method, res.Request.URL
	}
	body := bodyText(res.Body)
	contentType := res.Headers["Content-Type"]
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.samples == nil {
		h.samples, h.logger = samples, logger
		h.ticker = time.NewTicker(flushAfter)
		go h.tick(h.ticker)
	}
	if h.count == 0 {
		h.since = time.Now()
	} else {
		h.buf.WriteByte('\t')
	}
	writeFrame(h.buf, operation, res.Status, method, contentType, url, body)
	h.count++
	if h.count >= h.batch {
		h.sendLocked()
	}
}

func (h *batcher) tick(ticker *time.Ticker) {
	for range ticker.C {
		h.mu.Lock()
		if h.drained {
			h.mu.Unlock()
			return
		}
		if h.count > 0 && time.Since(h.since) >= flushAfter {
			h.sendLocked()
		}
		h.mu.Unlock()
	}
}

// sendLocked hands the current batch to a goroutine; at most maxInFlight batches are checked at a time.
func (h *batcher) sendLocked() {
	payload, count := h.buf, h.count
	h.buf = buffers.Get().(*bytes.Buffer)
	h.count = 0
	h.inFlight.Add(1)
	go func() {
		defer h.inFlight.Done()
		h.slots <- struct{}{}
		defer func() { <-h.slots }()
		v := h.post(payload.Bytes())
		payload.Reset()
		buffers.Put(payload)
		h.record(count, v)
	}()
}

func (h *batcher) drain() {
	h.mu.Lock()
	if h.count > 0 {
		h.sendLocked()
	}
	h.drained = true
	if h.ticker != nil {
		h.ticker.Stop()
	}
	h.mu.Unlock()
	h.inFlight.Wait()
}

// verdict is load/k6/lib/check-batch.ts's BatchVerdict.
type verdict struct {
	Checked map[string]float64 `json:"checked"`
	Must    map[string]float64 `json:"must"`
	Should  map[string]float64 `json:"should"`
}

func (h *batcher) post(payload []byte) *verdict {
	res, err := h.client.Post(h.checker, "text/plain; charset=utf-8", bytes.NewReader(payload))
	if err != nil {
		h.warn("contract check sink unreachable: %v", err)
		return nil
	}
	// Read to the end, so the connection is kept for the next batch.
	defer func() { _, _ = io.Copy(io.Discard, res.Body); _ = res.Body.Close() }()
	var v verdict
	if res.StatusCode != http.StatusOK {
		h.warn("contract check sink answered %d", res.StatusCode)
		return nil
	}
	if err := json.NewDecoder(res.Body).Decode(&v); err != nil || v.Checked == nil {
		h.warn("contract check sink answered no verdict: %v", err)
		return nil
	}
	return &v
}

func (h *batcher) warn(format string, args ...any) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.warned && h.logger != nil {
		h.logger.Errorf(format+": the responses of the batch are counted in contract_unchecked", args...)
	}
	h.warned = true
}

// record adds the verdict's counts per operation; responses the checker did not count are unchecked.
func (h *batcher) record(count int, v *verdict) {
	now := time.Now()
	root := h.registry.RootTagSet()
	var out metrics.Samples
	add := func(m *metrics.Metric, operation string, n float64) {
		tags := root
		if operation != "" {
			tags = root.With("operation", operation)
		}
		out = append(out, metrics.Sample{TimeSeries: metrics.TimeSeries{Metric: m, Tags: tags}, Time: now, Value: n})
	}
	judged := 0.0
	if v != nil {
		for op, n := range v.Checked {
			judged += n
			add(h.metrics.checked, op, n)
		}
		for op, n := range v.Must {
			add(h.metrics.violations, op, n)
		}
		for op, n := range v.Should {
			add(h.metrics.warnings, op, n)
		}
	}
	if missing := float64(count) - judged; missing > 0 {
		add(h.metrics.unchecked, "", missing)
	}
	h.push(out)
}

// push hands samples to k6's metrics engine; after the test has ended (the channel closed) they are dropped.
func (h *batcher) push(samples metrics.Samples) {
	defer func() { _ = recover() }()
	if len(samples) > 0 {
		h.samples <- samples
	}
}

// ---- frames -----------------------------------------------------------------------------------------

// bodyText is the body as the script sees it: text as is (invalid UTF-8 bytes as U+FFFD, as k6's runtime
// decodes them), bytes as Latin-1.
func bodyText(body any) string {
	switch b := body.(type) {
	case string:
		if utf8.ValidString(b) {
			return b
		}
		var out bytes.Buffer
		for i := 0; i < len(b); {
			r, size := utf8.DecodeRuneInString(b[i:])
			out.WriteRune(r)
			i += size
		}
		return out.String()
	case []byte:
		return latin1(b)
	case sobek.ArrayBuffer:
		return latin1(b.Bytes())
	default:
		return ""
	}
}

func latin1(b []byte) string {
	var out bytes.Buffer
	for _, c := range b {
		out.WriteRune(rune(c))
	}
	return out.String()
}

// utf16Length is the JavaScript length of a valid UTF-8 string.
func utf16Length(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			for _, r := range s {
				if r >= 0x10000 {
					n += 2
				} else {
					n++
				}
			}
			return n
		}
	}
	return len(s)
}

func writeFrame(buf *bytes.Buffer, operation string, status int, method, contentType, url, body string) {
	contentType, url = bodyText(contentType), bodyText(url)
	for _, field := range []string{operation, strconv.Itoa(status), method, strconv.Itoa(utf16Length(contentType)), strconv.Itoa(utf16Length(url)), strconv.Itoa(utf16Length(body)), contentType, url} {
		buf.WriteString(field)
		buf.WriteByte('\t')
	}
	buf.WriteString(body)
}
