package main

import (
	"fmt"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"
)

// The execution engine is time driven: an execution stores its creation time,
// the (scaled) duration of every node and, if aborted, the abort time. The
// state at any instant is a pure function of these values, so node statuses
// change over time without any background goroutine, and an abort takes effect
// atomically at the moment it is accepted.

const (
	StInit      = "init"
	StWaiting   = "waiting"
	StExecuting = "executing"
	StFinish    = "finish"
	StFailed    = "failed"
)

const startDelayMs = 500 // time an execution spends in "init" before it starts (scaled by -speed)

type ExecMessage struct {
	Type      string // ai | tool
	Content   string
	Reasoning string
}

type ExecNode struct {
	NodeID   string
	Title    string
	Duration time.Duration
	Fail     string
	FailFrac float64
	Messages []ExecMessage
	Files    []*DriveFile
}

type Execution struct {
	ID         string
	Tenant     *Tenant
	CanvasID   string
	CreatedAt  time.Time
	StartDelay time.Duration
	Nodes      []*ExecNode // in execution order
	AbortedAt  *time.Time
}

type NodeState struct {
	Status   string
	Start    time.Time // zero if the node never started
	End      time.Time // zero if the node has not ended
	ErrMsg   string
	Frac     float64 // share of the node's messages that is visible
	executed bool
}

// State computes the execution status and node states at instant now.
func (e *Execution) State(now time.Time) (string, []NodeState) {
	t := now
	aborted := false
	if e.AbortedAt != nil && !now.Before(*e.AbortedAt) {
		t = *e.AbortedAt
		aborted = true
	}
	states := make([]NodeState, len(e.Nodes))
	t0 := e.CreatedAt.Add(e.StartDelay)
	if t.Before(t0) {
		if !aborted {
			for i := range states {
				states[i].Status = StInit
			}
			return StInit, states
		}
		for i := range states {
			states[i] = NodeState{Status: StFailed, ErrMsg: "Not executed: the execution was aborted before it started"}
		}
		return StFailed, states
	}

	cursor := t0
	stopReason := "" // non-empty once the execution stopped (failure or abort)
	running := false // a node is executing; the following ones wait
	for i, n := range e.Nodes {
		st := &states[i]
		if stopReason != "" {
			*st = NodeState{Status: StFailed, ErrMsg: stopReason}
			continue
		}
		if running {
			st.Status = StWaiting
			continue
		}
		start := cursor
		end := start.Add(n.Duration)
		if t.Before(end) {
			frac := 0.0
			if n.Duration > 0 {
				frac = float64(t.Sub(start)) / float64(n.Duration)
			}
			if n.Fail != "" && frac > n.FailFrac {
				frac = n.FailFrac
			}
			if aborted {
				*st = NodeState{Status: StFailed, Start: start, End: t, Frac: frac, executed: true,
					ErrMsg: "Action was stopped: the execution was aborted by the user (E3004)"}
				stopReason = "Not executed: the execution was aborted"
				continue
			}
			*st = NodeState{Status: StExecuting, Start: start, Frac: frac, executed: true}
			running = true
			continue
		}
		if n.Fail != "" {
			*st = NodeState{Status: StFailed, Start: start, End: end, Frac: n.FailFrac, ErrMsg: n.Fail, executed: true}
			stopReason = fmt.Sprintf("Not executed: upstream node %q failed", n.Title)
			cursor = end
			continue
		}
		*st = NodeState{Status: StFinish, Start: start, End: end, Frac: 1, executed: true}
		cursor = end
	}
	switch {
	case stopReason != "":
		return StFailed, states
	case running:
		return StExecuting, states
	}
	for _, s := range states {
		if s.Status != StFinish {
			return StExecuting, states
		}
	}
	// Every node finished (an abort recorded at the very instant the last node
	// ended does not undo completed work).
	return StFinish, states
}

// Terminal reports whether the execution is finished or failed at instant now.
func (e *Execution) Terminal(now time.Time) bool {
	st, _ := e.State(now)
	return st == StFinish || st == StFailed
}

// VisibleMessages returns the messages of node n revealed at share frac.
func VisibleMessages(n *ExecNode, frac float64) []ExecMessage {
	if frac <= 0 {
		return []ExecMessage{}
	}
	total := 0
	for _, m := range n.Messages {
		total += utf8.RuneCountInString(m.Content)
	}
	if frac >= 1 {
		return append([]ExecMessage{}, n.Messages...)
	}
	budget := int(frac * float64(total))
	out := []ExecMessage{}
	for _, m := range n.Messages {
		if budget <= 0 {
			break
		}
		c := utf8.RuneCountInString(m.Content)
		if c <= budget {
			out = append(out, m)
			budget -= c
			continue
		}
		out = append(out, ExecMessage{Type: m.Type, Content: truncRunes(m.Content, budget), Reasoning: m.Reasoning})
		budget = 0
	}
	return out
}

func truncRunes(s string, n int) string {
	if n <= 0 {
		return ""
	}
	i := 0
	for pos := range s {
		if i == n {
			return s[:pos]
		}
		i++
	}
	return s
}

var placeholderRe = regexp.MustCompile(`\{\{\s*([^{}]{1,200}?)\s*\}\}`)

// placeholderName extracts the variable name of a placeholder body such as
// "topic", "tone: formal | casual" or "file:report".
func placeholderName(inner string) (name, kind string, options []string) {
	inner = strings.TrimSpace(inner)
	if strings.HasPrefix(strings.ToLower(inner), "file:") {
		return strings.TrimSpace(inner[5:]), "resource", nil
	}
	if i := strings.Index(inner, ":"); i >= 0 {
		name = strings.TrimSpace(inner[:i])
		for _, o := range strings.Split(inner[i+1:], "|") {
			o = strings.TrimSpace(o)
			if o != "" {
				options = append(options, o)
			}
		}
		if len(options) > 0 {
			return name, "option", options
		}
		return name, "string", nil
	}
	return inner, "string", nil
}

// render replaces {{name}} placeholders with the resolved variable values.
func render(tpl string, vals map[string]string) string {
	if !strings.Contains(tpl, "{{") {
		return tpl
	}
	return placeholderRe.ReplaceAllStringFunc(tpl, func(m string) string {
		sub := placeholderRe.FindStringSubmatch(m)
		if len(sub) < 2 {
			return m
		}
		name, _, _ := placeholderName(sub[1])
		if v, ok := vals[name]; ok {
			return v
		}
		return m
	})
}

// topoOrder orders tasks so that every task comes after its dependencies,
// keeping the declared order whenever possible. Unknown dependencies are
// ignored; tasks in a dependency cycle are appended in declared order.
func topoOrder(tasks []TaskDef) []int {
	idx := map[string]int{}
	for i, t := range tasks {
		if _, dup := idx[t.ID]; !dup {
			idx[t.ID] = i
		}
	}
	done := make([]bool, len(tasks))
	var order []int
	for len(order) < len(tasks) {
		progressed := false
		for i, t := range tasks {
			if done[i] {
				continue
			}
			ready := true
			for _, d := range t.DependentTasks {
				if j, ok := idx[d]; ok && j != i && !done[j] {
					ready = false
					break
				}
			}
			if ready {
				done[i] = true
				order = append(order, i)
				progressed = true
				break
			}
		}
		if !progressed {
			for i := range tasks {
				if !done[i] {
					done[i] = true
					order = append(order, i)
				}
			}
		}
	}
	return order
}

// newExecution snapshots workflow w into an execution with rendered messages and files.
func (s *Store) newExecution(w *Workflow, vals map[string]string, now time.Time) *Execution {
	e := &Execution{
		ID:         "we-" + randHex(12),
		Tenant:     w.Tenant,
		CanvasID:   w.ID,
		CreatedAt:  now,
		StartDelay: s.scaled(startDelayMs),
	}
	for pos, i := range topoOrder(w.Tasks) {
		t := w.Tasks[i]
		n := &ExecNode{
			NodeID:   t.ID,
			Title:    t.Title,
			Duration: s.scaled(t.DurationMs),
			Fail:     render(t.Fail, vals),
			FailFrac: t.FailFrac,
		}
		if t.Tool != "" {
			n.Messages = append(n.Messages, ExecMessage{Type: "tool", Content: render(t.Tool, vals)})
		}
		ai := t.AI
		if ai == "" {
			ai = "Completed: " + t.Title
		}
		n.Messages = append(n.Messages, ExecMessage{Type: "ai", Content: render(ai, vals), Reasoning: render(t.Reasoning, vals)})
		for _, f := range t.Files {
			n.Files = append(n.Files, &DriveFile{
				ID:      "df-" + randHex(12),
				Tenant:  w.Tenant,
				ExecID:  e.ID,
				NodeIdx: pos,
				Name:    f.Name,
				Type:    f.Type,
				Content: []byte(render(f.Content, vals)),
			})
		}
		e.Nodes = append(e.Nodes, n)
	}
	return e
}
