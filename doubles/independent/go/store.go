package main

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"sort"
	"sync"
	"time"
)

// Limits (see CHOICES.md).
const (
	maxBodyBytes        = 100 * 1024 // E2005: 100KB, measured in bytes, 1KB = 1024 bytes
	maxContentChars     = 100000     // E2004: 100k characters (Unicode code points)
	drainLimit          = 16 << 20   // bytes of an oversized body we read and discard before answering
	maxFilesPerUpload   = 20
	uploadRetention     = 24 * time.Hour
	maxUploadsPerTenant = 10000
	maxUploadBytesTotal = 256 << 20
	maxExecsPerTenant   = 10000
	maxWorkflowsTenant  = 1000
	defaultPageSize     = 20
	maxPageSize         = 100
)

type Tenant struct {
	Name string
	Key  string
}

type VarDef struct {
	Name     string
	Type     string // string | option | resource
	Required bool
	Options  []string
	Default  string // used when an optional variable is not supplied
}

type FileDef struct {
	Name    string
	Type    string // MIME type
	Content string // template
}

type TaskDef struct {
	ID             string
	Title          string
	Prompt         string
	Toolsets       []string
	DependentTasks []string
	DurationMs     int
	// Fail, when non-empty, makes the node fail with this message.
	Fail string
	// FailFrac is the share of the node's output that is visible when it fails.
	FailFrac  float64
	Tool      string // tool message template ("" = no tool message)
	AI        string // ai message template
	Reasoning string // reasoning template of the ai message
	Files     []FileDef
}

type Workflow struct {
	ID         string
	Tenant     *Tenant
	Title      string
	Tasks      []TaskDef
	Vars       []VarDef
	APIEnabled bool
	Locale     string
	CreatedAt  time.Time
	UpdatedAt  time.Time
}

type Upload struct {
	Key         string
	Tenant      *Tenant
	Name        string
	ContentType string
	Data        []byte
	UploadedAt  time.Time
	Used        bool
}

type DriveFile struct {
	ID      string
	Tenant  *Tenant
	ExecID  string
	NodeIdx int
	Name    string
	Type    string
	Content []byte
}

type Store struct {
	mu         sync.RWMutex
	speed      float64
	startedAt  time.Time
	tenants    []*Tenant
	workflows  map[string]*Workflow
	executions map[string]*Execution
	execOrder  map[*Tenant][]string
	uploads    map[string]*Upload
	driveFiles map[string]*DriveFile
}

func NewStore(speed float64, now time.Time) *Store {
	return &Store{
		speed:      speed,
		startedAt:  now,
		workflows:  map[string]*Workflow{},
		executions: map[string]*Execution{},
		execOrder:  map[*Tenant][]string{},
		uploads:    map[string]*Upload{},
		driveFiles: map[string]*DriveFile{},
	}
}

func (s *Store) AddTenant(name, key string) *Tenant {
	t := &Tenant{Name: name, Key: key}
	s.tenants = append(s.tenants, t)
	return t
}

func (s *Store) tenant(name string) *Tenant {
	for _, t := range s.tenants {
		if t.Name == name {
			return t
		}
	}
	return nil
}

// tenantForKey compares the key with every configured key in constant time.
func (s *Store) tenantForKey(key string) *Tenant {
	var found *Tenant
	for _, t := range s.tenants {
		if subtle.ConstantTimeCompare([]byte(key), []byte(t.Key)) == 1 {
			found = t
		}
	}
	return found
}

func (s *Store) scaled(ms int) time.Duration {
	return time.Duration(float64(ms) * s.speed * float64(time.Millisecond))
}

func randHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		// crypto/rand never fails on supported platforms; fall back to time.
		t := time.Now().UnixNano()
		for i := range b {
			b[i] = byte(t >> (uint(i%8) * 8))
		}
	}
	return hex.EncodeToString(b)
}

func (s *Store) workflowFor(t *Tenant, id string) *Workflow {
	w := s.workflows[id]
	if w == nil || w.Tenant != t {
		return nil
	}
	return w
}

func (s *Store) executionFor(t *Tenant, id string) *Execution {
	e := s.executions[id]
	if e == nil || e.Tenant != t {
		return nil
	}
	return e
}

func (s *Store) uploadFor(t *Tenant, key string, now time.Time) *Upload {
	u := s.uploads[key]
	if u == nil || u.Tenant != t {
		return nil
	}
	if !u.Used && now.Sub(u.UploadedAt) > uploadRetention {
		return nil
	}
	return u
}

func (s *Store) tenantWorkflows(t *Tenant) []*Workflow {
	var out []*Workflow
	for _, w := range s.workflows {
		if w.Tenant == t {
			out = append(out, w)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

func (s *Store) uploadUsage(t *Tenant) (count int, bytes int) {
	for _, u := range s.uploads {
		if u.Tenant == t {
			count++
			bytes += len(u.Data)
		}
	}
	return
}

// addExecution stores e, evicting the tenant's oldest executions when the cap is reached.
// Caller holds the write lock.
func (s *Store) addExecution(e *Execution) {
	order := s.execOrder[e.Tenant]
	for len(order) >= maxExecsPerTenant {
		old := order[0]
		order = order[1:]
		if oe := s.executions[old]; oe != nil {
			for _, n := range oe.Nodes {
				for _, f := range n.Files {
					delete(s.driveFiles, f.ID)
				}
			}
			delete(s.executions, old)
		}
	}
	s.execOrder[e.Tenant] = append(order, e.ID)
	s.executions[e.ID] = e
	for _, n := range e.Nodes {
		for _, f := range n.Files {
			s.driveFiles[f.ID] = f
		}
	}
}

// janitor removes unused uploads older than the retention period.
func (s *Store) janitor(ctx context.Context) {
	tick := time.NewTicker(10 * time.Minute)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-tick.C:
			s.mu.Lock()
			for k, u := range s.uploads {
				if !u.Used && now.Sub(u.UploadedAt) > uploadRetention {
					delete(s.uploads, k)
				}
			}
			s.mu.Unlock()
		}
	}
}
