#!/usr/bin/env python3
"""Workflow Automation Service - standard-library implementation.

Run:  python3 server.py [--port N] [--speed F] [--verbose]
Env:  WF_KEY_A, WF_KEY_B  (API keys of tenant A and tenant B)

See README.md and CHOICES.md.
"""

import argparse
import copy
import hashlib
import hmac
import json
import math
import mimetypes
import os
import re
import secrets
import sys
import threading
import time
from collections import OrderedDict
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, quote, unquote, urlsplit

import seeds

# --------------------------------------------------------------------------- #
# Configuration / limits
# --------------------------------------------------------------------------- #

DEFAULT_KEY_A = "wfk_A_9fK2mQ7xLp4RtZ8vNc3sHd6J"
DEFAULT_KEY_B = "wfk_B_R5tY8uPw2QeN6mKz4LcX9vHa"

JSON_BODY_LIMIT = 100 * 1024            # E2005: 100KB = 102,400 bytes
CONTENT_CHAR_LIMIT = 100_000            # E2004: 100k characters
UPLOAD_BODY_LIMIT = 20 * 1024 * 1024    # whole multipart request
UPLOAD_MAX_FILES = 20                   # files per upload request
UPLOAD_TENANT_QUOTA = 256 * 1024 * 1024  # bytes of unexpired uploads per tenant (E2001)
UPLOAD_TTL = 24 * 3600                  # unused uploads are removed after 24 h
DRAIN_LIMIT = 64 * 1024 * 1024          # bigger rejected bodies are not read; connection closed
MAX_FILE_KEYS_PER_VARIABLE = 20
MAX_EXECUTIONS_PER_TENANT = 5000
MAX_CANVASES_PER_TENANT = 1000
DEFAULT_PAGE_SIZE = 20
MAX_PAGE_SIZE = 100
INIT_DELAY = 0.2                        # seconds (x speed) an execution stays "init"
GENERATED_TASK_DURATION = 2.0
MAX_GENERATED_TASKS = 12
MAX_FILENAME_CHARS = 255

LOCALES = ["en", "zh-CN", "ja", "zh-Hant", "fr", "de-DE", "ko", "hi", "es", "ru",
           "de", "it", "tr", "pt", "vi", "id", "th", "ar", "mn", "fa"]
LOCALE_MAP = {loc.lower(): loc for loc in LOCALES}

SPEED = 1.0
VERBOSE = False
BASE_URL = "http://127.0.0.1:0/v1"

LOCK = threading.RLock()


def log(msg):
    if VERBOSE:
        sys.stderr.write("[wf] %s\n" % msg)
        sys.stderr.flush()


def iso(ts):
    if ts is None:
        return None
    return (datetime.fromtimestamp(ts, timezone.utc)
            .isoformat(timespec="milliseconds").replace("+00:00", "Z"))


def parse_iso(s):
    return datetime.strptime(s, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=timezone.utc).timestamp()


def new_id(prefix, n=20):
    alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
    return prefix + "".join(secrets.choice(alphabet) for _ in range(n))


def safe_text(s):
    """Remove lone surrogates so that text can always be encoded as UTF-8."""
    if not isinstance(s, str):
        s = str(s)
    try:
        s.encode("utf-8")
        return s
    except UnicodeEncodeError:
        return s.encode("utf-8", "replace").decode("utf-8")


# --------------------------------------------------------------------------- #
# Errors
# --------------------------------------------------------------------------- #

class ApiError(Exception):
    def __init__(self, status, code, message, headers=None, generate_shape=False,
                 error_type=None, model_response=None):
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers or []
        self.generate_shape = generate_shape
        self.error_type = error_type
        self.model_response = model_response


def bad_request(message, code="INVALID_REQUEST_BODY"):
    return ApiError(400, code, message)


class BodyTooLarge(Exception):
    pass


class BadFraming(Exception):
    pass


# --------------------------------------------------------------------------- #
# Data model
# --------------------------------------------------------------------------- #

class Tenant:
    def __init__(self, name, key):
        self.name = name
        self.key = key
        self.canvases = OrderedDict()     # canvasId -> Canvas
        self.executions = OrderedDict()   # executionId -> Execution
        self.uploads = {}                 # fileKey -> Upload
        self.drive = {}                   # drive fileId -> (Execution, node index, DriveFile)


class Canvas:
    def __init__(self, canvas_id, title, tasks, variables, api_enabled, created, updated):
        self.id = canvas_id
        self.title = title
        self.tasks = tasks
        self.variables = variables
        self.api_enabled = api_enabled
        self.created = created
        self.updated = updated

    def plan(self):
        tasks = []
        for t in self.tasks:
            tasks.append({
                "id": t["id"],
                "title": t["title"],
                "prompt": t["prompt"],
                "toolsets": list(t.get("toolsets") or []),
                "dependentTasks": list(t.get("dependentTasks") or []),
            })
        variables = []
        for v in self.variables:
            item = {"name": v["name"], "variableType": v["variableType"],
                    "required": bool(v.get("required"))}
            if v["variableType"] == "option":
                item["options"] = list(v.get("options") or [])
            variables.append(item)
        return {"title": self.title, "tasks": tasks, "variables": variables}


class Upload:
    def __init__(self, key, name, mime, data):
        self.key = key
        self.name = name
        self.mime = mime
        self.data = data
        self.created = time.time()
        self.used = False


class DriveFile:
    def __init__(self, name, mime, data):
        self.id = new_id("df-", 24)
        self.name = name
        self.mime = mime
        self.data = data


class NodeRun:
    def __init__(self, node_id, title, duration, tool, reasoning, output, files, fail, fail_at):
        self.node_id = node_id
        self.title = title
        self.duration = duration
        self.tool = tool
        self.reasoning = reasoning
        self.output = output
        self.files = files
        self.fail = fail
        self.fail_at = fail_at


class Execution:
    def __init__(self, exec_id, tenant, canvas_id, nodes):
        self.id = exec_id
        self.tenant = tenant
        self.canvas_id = canvas_id
        self.created = time.time()
        self.t0 = self.created + INIT_DELAY * SPEED
        self.nodes = nodes
        self.abort_at = None
        self.abort_node = None

    # -- the state of an execution is a pure function of the clock -------- #
    def snapshot(self, now=None):
        if now is None:
            now = time.time()
        aborted = self.abort_at is not None
        eff = min(now, self.abort_at) if aborted else now
        started = eff >= self.t0
        nodes = []
        stop_msg = None
        t = self.t0
        for n in self.nodes:
            start, end = t, t + n.duration
            t = end
            st = {"status": "init", "start": None, "end": None, "progress": 0.0, "error": None}
            if stop_msg is not None:
                st.update(status="failed", error=stop_msg)
            elif not started:
                if aborted:
                    st.update(status="failed", error="Not executed: the execution was aborted before this node started")
                    stop_msg = st["error"]
            elif eff < start:
                if aborted:
                    st.update(status="failed", error="Not executed: the execution was aborted before this node started")
                    stop_msg = st["error"]
                else:
                    st["status"] = "waiting"
            elif eff < end:
                progress = (eff - start) / n.duration if n.duration > 0 else 1.0
                if n.fail is not None:
                    progress = min(progress, n.fail_at)
                st.update(start=start, progress=progress)
                if aborted:
                    st.update(status="failed", end=self.abort_at,
                              error="Action was stopped (E3004): the execution was aborted by the caller while this node was running")
                    stop_msg = "Not executed: the execution was aborted before this node started"
                else:
                    st["status"] = "executing"
            else:
                if n.fail is not None:
                    st.update(status="failed", start=start, end=end, progress=n.fail_at, error=n.fail)
                    stop_msg = "Not executed: upstream node '%s' (%s) failed" % (n.node_id, n.title)
                else:
                    st.update(status="finish", start=start, end=end, progress=1.0)
            nodes.append(st)
        statuses = [s["status"] for s in nodes]
        if not started and not aborted:
            status = "init"
        elif "failed" in statuses or (aborted and not nodes):
            status = "failed"
        elif all(s == "finish" for s in statuses):
            status = "finish"
        else:
            status = "executing"
        return status, nodes


# --------------------------------------------------------------------------- #
# Store
# --------------------------------------------------------------------------- #

TENANTS = {}   # name -> Tenant


def load_seeds(key_a, key_b):
    for name, key, wfs in (("A", key_a, seeds.TENANT_A_WORKFLOWS),
                           ("B", key_b, seeds.TENANT_B_WORKFLOWS)):
        tenant = Tenant(name, key)
        for wf in wfs:
            c = Canvas(wf["canvasId"], wf["title"], copy.deepcopy(wf["tasks"]),
                       copy.deepcopy(wf["variables"]), wf["apiEnabled"],
                       parse_iso(wf["createdAt"]), parse_iso(wf["updatedAt"]))
            tenant.canvases[c.id] = c
        TENANTS[name] = tenant


def tenant_for_key(token):
    tb = token.encode("utf-8", "surrogatepass")
    found = None
    for tenant in TENANTS.values():
        if hmac.compare_digest(tb, tenant.key.encode("utf-8")):
            found = tenant
    return found


def sweep_uploads(tenant, now=None):
    now = now or time.time()
    for k in [k for k, u in tenant.uploads.items() if not u.used and now - u.created > UPLOAD_TTL]:
        del tenant.uploads[k]


def trim_executions(tenant):
    if len(tenant.executions) <= MAX_EXECUTIONS_PER_TENANT:
        return
    now = time.time()
    for eid in list(tenant.executions.keys()):
        if len(tenant.executions) <= MAX_EXECUTIONS_PER_TENANT:
            break
        ex = tenant.executions[eid]
        status, _ = ex.snapshot(now)
        if status in ("finish", "failed"):
            for n in ex.nodes:
                for f in n.files:
                    tenant.drive.pop(f.id, None)
            del tenant.executions[eid]


# --------------------------------------------------------------------------- #
# Templates and execution creation
# --------------------------------------------------------------------------- #

PLACEHOLDER_RE = re.compile(r"\{\{\s*(?:(?:file|resource)\s*:\s*)?([A-Za-z_][A-Za-z0-9_]{0,63})\s*(?::[^{}]*)?\}\}")


def render(template, values, escape=None):
    if not template:
        return template

    def repl(m):
        name = m.group(1)
        if name in values:
            return escape(values[name]) if escape else values[name]
        return m.group(0)
    return PLACEHOLDER_RE.sub(repl, template)


def topo_order(tasks):
    ids = [t["id"] for t in tasks]
    idset = set(ids)
    deps = {t["id"]: [d for d in (t.get("dependentTasks") or []) if d in idset and d != t["id"]] for t in tasks}
    done, order = set(), []
    remaining = list(tasks)
    while remaining:
        progressed = False
        for t in list(remaining):
            if all(d in done for d in deps[t["id"]]):
                order.append(t)
                done.add(t["id"])
                remaining.remove(t)
                progressed = True
                break
        if not progressed:   # cycle: keep declared order for the rest
            order.extend(remaining)
            break
    return order


def create_execution(tenant, canvas, values):
    nodes = []
    for t in topo_order(canvas.tasks):
        tool = t.get("tool")
        if tool is None and t.get("toolsets"):
            tool = "%s: completed for step '%s'." % (", ".join(t["toolsets"]), t["title"])
        files = []
        for (fname, mime, content) in t.get("files") or []:
            esc = (lambda v: json.dumps(v, ensure_ascii=False)[1:-1]) if mime == "application/json" else None
            data = safe_text(render(content, values, esc)).encode("utf-8")
            files.append(DriveFile(fname, mime, data))
        nodes.append(NodeRun(
            node_id=t["id"], title=t["title"],
            duration=float(t.get("duration", GENERATED_TASK_DURATION)) * SPEED,
            tool=safe_text(render(tool, values)) if tool else None,
            reasoning=safe_text(render(t.get("reasoning") or "", values)),
            output=safe_text(render(t.get("output") or render(t["prompt"], values), values)),
            files=files, fail=t.get("fail"), fail_at=float(t.get("failAt", 0.5))))
    ex = Execution(new_id("we-", 24), tenant, canvas.id, nodes)
    tenant.executions[ex.id] = ex
    for idx, n in enumerate(nodes):
        for f in n.files:
            tenant.drive[f.id] = (ex, idx, f)
    trim_executions(tenant)
    return ex


def message_list(ex, idx, node, progress):
    msgs = []
    if progress <= 0:
        return msgs
    base = hashlib.sha1(("%s/%s" % (ex.id, node.node_id)).encode()).hexdigest()[:16]
    if node.tool is not None and progress >= 0.2:
        msgs.append({"messageId": "msg-%s-1" % base, "content": node.tool, "type": "tool"})
    if progress >= 0.3:
        rfrac = min(1.0, (progress - 0.3) / 0.25)
        cfrac = max(0.0, min(1.0, (progress - 0.55) / 0.45))
        reasoning = node.reasoning[:int(round(len(node.reasoning) * rfrac))]
        content = node.output[:int(round(len(node.output) * cfrac))]
        msg = {"messageId": "msg-%s-2" % base, "content": content, "type": "ai"}
        if reasoning:
            msg["reasoningContent"] = reasoning
        msgs.append(msg)
    return msgs


def file_url(f):
    return "%s/openapi/drive/files/%s" % (BASE_URL, f.id)


# --------------------------------------------------------------------------- #
# Variable validation
# --------------------------------------------------------------------------- #

def scalar_to_text(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isfinite(v) and v == int(v) and abs(v) < 1e16:
            return str(int(v))
        return repr(v)
    return v


def validate_variables(tenant, canvas, supplied):
    """Return (values for templates, list of Upload objects used)."""
    values = {}
    used_uploads = []
    for var in canvas.variables:
        name = var["name"]
        vtype = var.get("variableType") or "string"
        required = bool(var.get("required"))
        raw = supplied.get(name, None)
        present = raw is not None
        if vtype == "resource":
            if isinstance(raw, str):
                keys = [raw] if raw.strip() else []
            elif isinstance(raw, list):
                keys = raw
            elif raw is None:
                keys = []
            else:
                raise bad_request("Variable '%s' is a file variable: its value must be a fileKey string or an array of fileKey strings" % name)
            if len(keys) > MAX_FILE_KEYS_PER_VARIABLE:
                raise bad_request("Variable '%s' accepts at most %d file keys" % (name, MAX_FILE_KEYS_PER_VARIABLE))
            uploads = []
            for k in keys:
                if not isinstance(k, str) or not k.strip():
                    raise bad_request("Variable '%s' is a file variable: every element must be a non-empty fileKey string" % name)
                up = tenant.uploads.get(k.strip())
                if up is None:
                    raise ApiError(400, "E1012", "Upload file not found: fileKey '%s' given for variable '%s' does not exist (or has expired)" % (safe_text(k[:200]), name))
                uploads.append(up)
            if not uploads:
                if required:
                    raise bad_request("Missing required variable '%s' (file variable: pass a fileKey from /openapi/files/upload)" % name)
                values[name] = var.get("default", "no file provided")
            else:
                values[name] = ", ".join(u.name for u in uploads)
                used_uploads.extend(uploads)
            continue
        # string and option
        if present and isinstance(raw, (dict, list)):
            raise bad_request("Variable '%s' must be a %s value, not an %s" % (
                name, "text" if vtype == "string" else "option",
                "object" if isinstance(raw, dict) else "array"))
        text = scalar_to_text(raw) if present else None
        if text is not None and len(text) > CONTENT_CHAR_LIMIT:
            raise ApiError(400, "E2004", "Content too large: variable '%s' exceeds the maximum length of %d characters" % (name, CONTENT_CHAR_LIMIT))
        if text is None or text.strip() == "":
            if required:
                raise bad_request("Missing required variable '%s'" % name)
            values[name] = var.get("default", "")
            continue
        if vtype == "option":
            options = var.get("options") or []
            if text not in options:
                raise bad_request("Invalid value for option variable '%s': allowed values are %s" % (
                    name, ", ".join(json.dumps(o, ensure_ascii=False) for o in options)))
        values[name] = safe_text(text)
    return values, used_uploads


# --------------------------------------------------------------------------- #
# Deterministic planner (generate)
# --------------------------------------------------------------------------- #

TOOL_KEYWORDS = [
    ("web_search", ["search", "research", "look up", "lookup", "find ", "news", "competitor", "browse", "google",
                    "搜索", "调研", "検索", "recherche", "suche", "buscar"]),
    ("web_scraper", ["scrape", "crawl", "website", "web page", "webpage", "url", "抓取", "爬取"]),
    ("send_email", ["email", "e-mail", "mail ", "newsletter", "邮件", "メール", "courriel"]),
    ("slack", ["slack", "notify", "notification", "通知"]),
    ("image_generation", ["image", "picture", "photo", "logo", "illustration", "poster", "图片", "图像", "画像"]),
    ("code_interpreter", ["calculate", "compute", "analy", "chart", "graph", "python", "spreadsheet", "csv",
                          "statistic", "forecast", "计算", "分析", "图表"]),
    ("document_reader", ["pdf", "document", "contract", "resume", "transcript", "文档", "文件"]),
]

CONNECTOR_RE = re.compile(
    r"(?:,|\s)\s*(?:and\s+)?(?:then|after\s+that|afterwards|finally|lastly)\b[,:]?\s*"
    r"|然后|接着|之后|最后|随后|その後|次に",
    re.IGNORECASE)
SENTENCE_RE = re.compile(r"(?<=[.!?;])\s+|[。！？；]+")
NUMBERED_RE = re.compile(r"(?:^|\s)(?:step\s*)?\d{1,2}[.):、]\s+", re.IGNORECASE)
LEAD_RE = re.compile(
    r"^(?:[-*•·>]+\s*|first(?:ly)?\b|then\b|next\b|after\s+that\b|afterwards\b|finally\b|lastly\b|"
    r"and\b|please\b|step\s*\d+\b|首先|然后|最后|接着)[\s,:.)\-]*",
    re.IGNORECASE)
INTRO_RE = re.compile(
    r"^(?:please\s+)?(?:create|build|make|generate|design|set\s+up|setup|give\s+me|i\s+want|i\s+need)\s+"
    r"(?:me\s+)?(?:an?\s+)?(?:workflow|automation|pipeline|flow|process)?\s*(?:that|which|to|for|:)?\s*",
    re.IGNORECASE)
VAR_DEF_RE = re.compile(r"\{\{\s*(?:(file|resource)\s*:\s*)?([A-Za-z_][A-Za-z0-9_]{0,63})\s*(?::([^{}]*))?\}\}")
HAS_WORD_RE = re.compile(r"[^\W_]")


def shorten(text, max_words=8, max_chars=60):
    t = text.strip().rstrip(".!?;:,。！？；：，")
    words = t.split()
    if len(words) > max_words:
        t = " ".join(words[:max_words])
    if len(t) > max_chars:
        t = t[:max_chars].rstrip()
    if t:
        t = t[0].upper() + t[1:]
    return t


def split_steps(query):
    text = query.replace("\r\n", "\n").replace("\r", "\n")
    pieces = []
    for line in text.split("\n"):
        for a in NUMBERED_RE.split(line):
            for b in SENTENCE_RE.split(a):
                for c in CONNECTOR_RE.split(b):
                    pieces.append(c)
    steps = []
    for p in pieces:
        p = p.strip()
        prev = None
        while p and p != prev:
            prev = p
            p = LEAD_RE.sub("", p).strip()
        p = re.sub(r"(?:,|\s)\s*and$", "", p, flags=re.IGNORECASE).strip()
        p = p.strip(" \t,;，、：:")
        if p and HAS_WORD_RE.search(p):
            steps.append(p[0].upper() + p[1:])
    if steps:
        first = INTRO_RE.sub("", steps[0]).strip()
        if first and HAS_WORD_RE.search(first):
            steps[0] = first[0].upper() + first[1:]
    if len(steps) > MAX_GENERATED_TASKS:
        steps = steps[:MAX_GENERATED_TASKS - 1] + ["; ".join(steps[MAX_GENERATED_TASKS - 1:])]
    return steps


def slugify(text):
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return (s[:40].strip("-") or "workflow")


def generate_plan(query):
    """Return (plan dict with internal simulation data, raw planner output)."""
    steps = split_steps(query)
    raw = json.dumps({"steps": steps}, ensure_ascii=False)
    if not steps:
        return None, raw
    variables, seen = [], set()
    for m in VAR_DEF_RE.finditer(query):
        kind, name, opts = m.group(1), m.group(2), m.group(3)
        if name in seen:
            continue
        seen.add(name)
        if kind:
            variables.append({"name": name, "variableType": "resource", "required": True})
        elif opts and opts.strip():
            options = []
            for o in re.split(r"[|,]", opts):
                o = o.strip()
                if o and o not in options:
                    options.append(o)
            if options:
                variables.append({"name": name, "variableType": "option", "required": True, "options": options})
            else:
                variables.append({"name": name, "variableType": "string", "required": True})
        else:
            variables.append({"name": name, "variableType": "string", "required": True})
    tasks = []
    for i, step in enumerate(steps, 1):
        low = " " + step.casefold() + " "
        toolsets = [tool for tool, words in TOOL_KEYWORDS if any(w in low for w in words)]
        title = shorten(VAR_DEF_RE.sub(lambda m: m.group(2), step)) or ("Step %d" % i)
        task = {
            "id": "task-%d" % i,
            "title": title,
            "prompt": step,
            "toolsets": toolsets,
            "dependentTasks": ["task-%d" % (i - 1)] if i > 1 else [],
            "duration": GENERATED_TASK_DURATION,
            "reasoning": "Step %d of %d: %s" % (i, len(steps), title),
            "output": "Completed step %d of %d.\n\n%s" % (i, len(steps), step),
        }
        if toolsets:
            task["tool"] = "%s: completed for '%s'." % (", ".join(toolsets), title)
        tasks.append(task)
    plan_title = shorten(VAR_DEF_RE.sub(lambda m: m.group(2), steps[0]), max_words=10, max_chars=80) or "Generated workflow"
    last = tasks[-1]
    last["files"] = [("%s.md" % slugify(plan_title), "text/markdown",
                      "# %s\n\n" % plan_title + "\n".join("%d. %s" % (i, s) for i, s in enumerate(steps, 1)) + "\n")]
    return {"title": plan_title, "tasks": tasks, "variables": variables}, raw


# --------------------------------------------------------------------------- #
# Multipart parsing
# --------------------------------------------------------------------------- #

def parse_header_params(value):
    """Parse 'type; a=b; c="d"' into (type lowercased, {param: value})."""
    parts, cur, inq, esc = [], [], False, False
    for ch in value:
        if esc:
            cur.append(ch)
            esc = False
        elif inq and ch == "\\":
            cur.append(ch)
            esc = True
        elif ch == '"':
            inq = not inq
            cur.append(ch)
        elif ch == ";" and not inq:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    main = parts[0].strip().lower()
    params = {}
    for p in parts[1:]:
        if "=" not in p:
            continue
        k, v = p.split("=", 1)
        k = k.strip().lower()
        v = v.strip()
        if len(v) >= 2 and v[0] == '"' and v[-1] == '"':
            v = v[1:-1].replace('\\"', '"').replace("\\\\", "\\")
        if k and k not in params:
            params[k] = v
    return main, params


def decode_rfc5987(v):
    m = re.match(r"^([A-Za-z0-9!#$%&+\-^_`{}~]*)'[^']*'(.*)$", v)
    if not m:
        return None
    charset = m.group(1) or "utf-8"
    try:
        return unquote(m.group(2), encoding=charset, errors="replace")
    except LookupError:
        return unquote(m.group(2), errors="replace")


def sanitize_filename(name):
    name = name.replace("%22", '"')   # browsers (WHATWG) and curl send '"' as %22
    name = name.replace("\\", "/").split("/")[-1]
    name = re.sub(r"[\x00-\x1f\x7f]", "", name).strip()
    if name in ("", ".", ".."):
        name = "file"
    if len(name) > MAX_FILENAME_CHARS:
        root, dot, ext = name.rpartition(".")
        if dot and 0 < len(ext) <= 16:
            name = root[:MAX_FILENAME_CHARS - len(ext) - 1] + "." + ext
        else:
            name = name[:MAX_FILENAME_CHARS]
    return safe_text(name)


def parse_multipart(body, content_type):
    ctype, params = parse_header_params(content_type or "")
    if ctype != "multipart/form-data":
        raise bad_request("The upload request must be multipart/form-data with one or more parts named 'files'")
    boundary = params.get("boundary", "")
    if not boundary or len(boundary) > 200:
        raise bad_request("multipart/form-data request without a valid boundary parameter")
    try:
        delim = b"--" + boundary.encode("latin-1")
    except UnicodeEncodeError:
        raise bad_request("multipart/form-data boundary contains invalid characters")
    data = body
    if data.startswith(delim):
        pos = 0
    else:
        pos = data.find(b"\r\n" + delim)
        if pos < 0:
            raise bad_request("Malformed multipart body: boundary not found")
        pos += 2
    parts = []
    while True:
        pos += len(delim)
        if data[pos:pos + 2] == b"--":
            break
        eol = data.find(b"\r\n", pos)
        if eol < 0:
            raise bad_request("Malformed multipart body: missing closing boundary")
        hstart = eol + 2
        if data.startswith(b"\r\n", hstart):
            raw_headers, bstart = b"", hstart + 2
        else:
            hend = data.find(b"\r\n\r\n", hstart)
            if hend < 0:
                raise bad_request("Malformed multipart body: part headers not terminated")
            raw_headers, bstart = data[hstart:hend], hend + 4
        nxt = data.find(b"\r\n" + delim, bstart)
        if nxt < 0:
            raise bad_request("Malformed multipart body: missing closing boundary")
        headers = {}
        for line in raw_headers.decode("utf-8", "replace").split("\r\n"):
            if ":" in line:
                k, v = line.split(":", 1)
                headers.setdefault(k.strip().lower(), v.strip())
        parts.append((headers, data[bstart:nxt]))
        if len(parts) > 1000:
            raise bad_request("Too many parts in multipart body")
        pos = nxt + 2
    return parts


# --------------------------------------------------------------------------- #
# HTTP layer
# --------------------------------------------------------------------------- #

def json_bytes(obj):
    try:
        return json.dumps(obj, ensure_ascii=False, allow_nan=False).encode("utf-8")
    except (UnicodeEncodeError, ValueError):
        return json.dumps(obj, ensure_ascii=True, default=str).encode("ascii")


def _reject_constant(name):
    raise ValueError("invalid JSON constant %s" % name)


def _parse_int(s):
    try:
        return int(s)
    except ValueError:
        return float(s)


def parse_json_body(data):
    if data is None or not data.strip():
        return None
    try:
        text = data.decode("utf-8-sig")
        return json.loads(text, parse_constant=_reject_constant, parse_int=_parse_int)
    except RecursionError:
        raise bad_request("Request body is not valid JSON (nesting too deep)")
    except (ValueError, UnicodeDecodeError) as e:
        raise bad_request("Request body is not valid JSON: %s" % safe_text(str(e))[:200])


ROUTES = [
    # (segments pattern, method, handler name); "*" is a path parameter
    (("openapi", "workflow", "*", "run"), "POST", "h_run"),
    (("openapi", "workflow", "*", "abort"), "POST", "h_abort"),
    (("openapi", "workflow", "*", "output"), "GET", "h_output"),
    (("openapi", "workflow", "*", "status"), "GET", "h_status"),
    (("openapi", "workflows"), "GET", "h_search"),
    (("openapi", "workflows", "*"), "GET", "h_detail"),
    (("openapi", "files", "upload"), "POST", "h_upload"),
    (("openapi", "copilot", "workflow", "generate"), "POST", "h_generate"),
    (("openapi", "drive", "files", "*"), "GET", "h_drive_file"),
]


def match_route(segments):
    """Return (list of (method, handler, params)) for all routes matching the path."""
    out = []
    for pattern, method, handler in ROUTES:
        if len(pattern) != len(segments):
            continue
        params, ok = [], True
        for p, s in zip(pattern, segments):
            if p == "*":
                params.append(s)
            elif p != s:
                ok = False
                break
        if ok:
            # fixed routes take precedence (e.g. /openapi/files/upload)
            out.append((method, handler, params))
    return out


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "WorkflowAutomationService/1.0"
    sys_version = ""
    timeout = 120

    def version_string(self):
        return self.server_version

    # ---- quiet logging ---------------------------------------------------- #
    def log_message(self, fmt, *args):
        if VERBOSE:
            sys.stderr.write("[http] %s - %s\n" % (self.address_string(), fmt % args))

    # ---- request loop ---------------------------------------------------- #
    def handle_one_request(self):
        self._body_state = "none"
        self._trace = secrets.token_hex(16)
        self._too_large_msg = "Request payload too large; maximum size 100KB (102400 bytes)"
        try:
            self.raw_requestline = self.rfile.readline(65537)
            skipped = 0
            while self.raw_requestline in (b"\r\n", b"\n") and skipped < 8:
                # RFC 9112 2.2: ignore empty lines received before the request line
                skipped += 1
                self.raw_requestline = self.rfile.readline(65537)
            if len(self.raw_requestline) > 65536:
                self.requestline = ""
                self.request_version = "HTTP/1.1"
                self.command = None
                self.send_error(414)
                return
            if not self.raw_requestline:
                self.close_connection = True
                return
            if not self.parse_request():
                return
            if self.request_version == "HTTP/0.9":
                self.send_error(400, "HTTP/0.9 requests are not supported")
                return
            try:
                self.dispatch()
            except (ConnectionError, TimeoutError, OSError):
                raise
            except Exception as e:  # last resort - should never happen
                log("internal error: %r" % (e,))
                if VERBOSE:
                    import traceback
                    traceback.print_exc()
                self.close_connection = True
                try:
                    self.send_json(500, {"success": False, "errCode": "E0000",
                                         "errMsg": "Unknown error, retry later", "traceId": self._trace})
                except Exception:
                    pass
            self.wfile.flush()
        except (ConnectionError, TimeoutError, OSError):
            self.close_connection = True

    def send_error(self, code, message=None, explain=None):
        # Used by the standard library for malformed requests. Always JSON,
        # never a 5xx status for client input.
        status = code
        if code == 501:
            status = 405
        elif code >= 500:
            status = 400
        self.close_connection = True
        self._body_state = "broken"
        if getattr(self, "request_version", "HTTP/0.9") == "HTTP/0.9":
            self.request_version = "HTTP/1.1"   # always answer with a status line and headers
        msg = message or {400: "Bad request", 405: "Method not supported",
                          414: "Request line too long", 431: "Request header fields too large"}.get(status, "Bad request")
        if code == 505:
            msg = "Unsupported HTTP version"
        try:
            self.send_json(status, {"success": False, "errCode": "INVALID_REQUEST_BODY" if status == 400 else "E0003",
                                    "errMsg": msg, "traceId": getattr(self, "_trace", "")})
        except Exception:
            pass

    # ---- body handling ---------------------------------------------------- #
    def _init_body(self):
        hdrs = self.headers
        te = [v for v in (hdrs.get_all("Transfer-Encoding") or [])]
        cl = [v for v in (hdrs.get_all("Content-Length") or [])]
        self._body_state = "pending"
        if te:
            tev = ",".join(te).strip().lower()
            if cl or tev != "chunked":
                self._body_state = "broken"
                raise BadFraming("Unsupported Transfer-Encoding" if not cl else
                                 "Both Content-Length and Transfer-Encoding were sent")
            self._body_mode = "chunked"
            self._body_len = None
            return
        if cl:
            vals = set(v.strip() for v in cl)
            v = cl[0].strip()
            if len(vals) != 1 or not re.fullmatch(r"[0-9]{1,18}", v):
                self._body_state = "broken"
                raise BadFraming("Invalid Content-Length header")
            self._body_mode = "length"
            self._body_len = int(v)
        else:
            self._body_mode = "length"
            self._body_len = 0
        if self._body_len == 0:
            self._body_state = "done"

    def _read_chunked(self, limit):
        """Read a chunked body. Returns bytes, or raises BodyTooLarge after draining."""
        buf = bytearray()
        total = 0
        too_large = False
        while True:
            line = self.rfile.readline(1026)
            if not line.endswith(b"\n"):
                self._body_state = "broken"
                raise BadFraming("Malformed chunked body")
            size_s = line.split(b";", 1)[0].strip()
            if not re.fullmatch(rb"[0-9A-Fa-f]{1,15}", size_s):
                self._body_state = "broken"
                raise BadFraming("Malformed chunk size")
            size = int(size_s, 16)
            if size == 0:
                # trailers
                for _ in range(100):
                    tl = self.rfile.readline(8194)
                    if tl in (b"\r\n", b"\n", b""):
                        break
                break
            total += size
            if total > DRAIN_LIMIT:
                self._body_state = "broken"
                self.close_connection = True
                raise BodyTooLarge()
            remaining = size
            while remaining > 0:
                chunk = self.rfile.read(min(remaining, 65536))
                if not chunk:
                    self._body_state = "broken"
                    self.close_connection = True
                    raise ConnectionError("client closed during body")
                if not too_large:
                    buf += chunk
                remaining -= len(chunk)
            if total > limit:
                too_large = True
                buf = bytearray()
            crlf = self.rfile.readline(3)
            if crlf not in (b"\r\n", b"\n"):
                self._body_state = "broken"
                raise BadFraming("Malformed chunked body")
        self._body_state = "done"
        if too_large:
            raise BodyTooLarge()
        return bytes(buf)

    def read_body(self, limit):
        if self._body_state == "done":
            return b""
        if self._body_state != "pending":
            raise BadFraming("Request body unavailable")
        if self._body_mode == "chunked":
            return self._read_chunked(limit)
        n = self._body_len
        if n > limit:
            self.discard_body()
            raise BodyTooLarge()
        data = self.rfile.read(n)
        if len(data) < n:
            self._body_state = "broken"
            self.close_connection = True
            raise ConnectionError("client closed during body")
        self._body_state = "done"
        return data

    def discard_body(self):
        if self._body_state != "pending":
            if self._body_state == "broken":
                self.close_connection = True
            return
        if self._body_mode == "chunked":
            try:
                self._read_chunked(0)
            except BodyTooLarge:
                pass
            except BadFraming:
                self.close_connection = True
            return
        n = self._body_len
        if n > DRAIN_LIMIT:
            self._body_state = "broken"
            self.close_connection = True
            return
        while n > 0:
            chunk = self.rfile.read(min(n, 65536))
            if not chunk:
                self._body_state = "broken"
                self.close_connection = True
                return
            n -= len(chunk)
        self._body_state = "done"

    # ---- responses -------------------------------------------------------- #
    def send_raw(self, status, body, content_type, extra_headers=()):
        if getattr(self, "_body_state", "none") == "pending":
            try:
                self.discard_body()
            except (BadFraming, ConnectionError):
                self.close_connection = True
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        if getattr(self, "_trace", None):
            self.send_header("X-Trace-Id", self._trace)
        for k, v in extra_headers:
            self.send_header(k, v)
        if self.close_connection:
            self.send_header("Connection", "close")
        elif self.request_version == "HTTP/1.0":
            self.send_header("Connection", "keep-alive")
        self.end_headers()
        if self.command != "HEAD" and body:
            self.wfile.write(body)

    def send_json(self, status, obj, extra_headers=()):
        self.send_raw(status, json_bytes(obj), "application/json; charset=utf-8", extra_headers)

    def ok(self, data=None, include_data=True):
        env = {"success": True, "traceId": self._trace}
        if include_data:
            env["data"] = data
        self.send_json(200, env)

    def send_api_error(self, err):
        if err.generate_shape and err.status == 400:
            body = {"statusCode": 400, "message": err.message,
                    "error": err.error_type or "Bad Request"}
            if err.model_response is not None:
                body["modelResponse"] = err.model_response
            body.update({"success": False, "errCode": err.code, "errMsg": err.message,
                         "traceId": self._trace})
        else:
            body = {"success": False, "errCode": err.code, "errMsg": err.message, "traceId": self._trace}
        self.send_json(err.status, body, err.headers)

    # ---- dispatch --------------------------------------------------------- #
    def dispatch(self):
        method = self.command
        try:
            try:
                self._init_body()
            except BadFraming as e:
                self.close_connection = True
                raise bad_request(str(e))
            raw = self.path
            try:
                raw = raw.encode("latin-1").decode("utf-8", "replace")
            except UnicodeError:
                pass
            try:
                parts = urlsplit(raw)
                path, query = parts.path, parts.query
            except ValueError:
                raise ApiError(404, "NOT_FOUND", "No such endpoint")
            if path != "/v1" and not path.startswith("/v1/"):
                raise ApiError(404, "NOT_FOUND", "No such endpoint: paths start with /v1")
            rest = path[3:]
            segs = rest.split("/")[1:] if rest else []
            if len(segs) > 1 and segs[-1] == "":
                segs = segs[:-1]
            segs = [unquote(s, errors="replace") for s in segs]
            matches = match_route(segs)
            # prefer routes without parameters over parameterised ones
            fixed = [m for m in matches if not m[2]]
            if fixed:
                matches = fixed
            if not matches:
                raise ApiError(404, "NOT_FOUND", "No such endpoint")
            allowed = sorted(set(m[0] for m in matches) | ({"HEAD"} if any(m[0] == "GET" for m in matches) else set()))
            chosen = None
            for m in matches:
                if m[0] == method or (method == "HEAD" and m[0] == "GET"):
                    chosen = m
                    break
            if chosen is None:
                if method == "OPTIONS":
                    self.send_raw(200, b"", "text/plain", [("Allow", ", ".join(allowed + ["OPTIONS"]))])
                    return
                raise ApiError(405, "METHOD_NOT_ALLOWED",
                               "Method %s is not allowed here; allowed: %s" % (safe_text(method)[:20], ", ".join(allowed)),
                               headers=[("Allow", ", ".join(allowed))])
            tenant = self.authenticate()
            self.query = query
            getattr(self, chosen[1])(tenant, *chosen[2])
        except ApiError as err:
            self.send_api_error(err)
        except BodyTooLarge:
            self.send_api_error(ApiError(413, "E2005", self._too_large_msg))
        except BadFraming as e:
            self.close_connection = True
            self.send_api_error(bad_request(str(e)))

    def authenticate(self):
        vals = self.headers.get_all("Authorization") or []
        challenge = [("WWW-Authenticate", 'Bearer realm="workflow-api"')]
        if not vals:
            raise ApiError(401, "E0004", "Missing API key: send the header 'Authorization: Bearer <API_KEY>'", headers=challenge)
        m = re.fullmatch(r"\s*[Bb][Ee][Aa][Rr][Ee][Rr][ \t]+(\S+)\s*", vals[0])
        tenant = tenant_for_key(m.group(1)) if m else None
        if tenant is None:
            raise ApiError(401, "E0004", "Invalid API key", headers=challenge)
        return tenant

    def json_body(self, generate=False):
        data = self.read_body(JSON_BODY_LIMIT)
        return parse_json_body(data)

    # ---- handlers --------------------------------------------------------- #
    def h_run(self, tenant, canvas_id):
        body = self.json_body()
        if body is None:
            body = {}
        if not isinstance(body, dict):
            raise bad_request("Request body must be a JSON object, e.g. {\"variables\": {...}}")
        wrapper = body.get("variables", None)
        if wrapper is not None and not isinstance(wrapper, dict):
            raise bad_request("'variables' must be a JSON object mapping variable names to values")
        supplied = {k: v for k, v in body.items() if k != "variables"}
        if wrapper:
            supplied.update(wrapper)
        with LOCK:
            canvas = tenant.canvases.get(canvas_id)
            if canvas is None:
                raise ApiError(404, "CANVAS_NOT_FOUND", "Workflow not found: canvas '%s' does not exist" % safe_text(canvas_id[:200]))
            if not canvas.api_enabled:
                raise ApiError(403, "WORKFLOW_API_DISABLED",
                               "The workflow API is disabled for this workflow; enable it in the Integration settings")
            sweep_uploads(tenant)
            values, used = validate_variables(tenant, canvas, supplied)
            for u in used:
                u.used = True
            ex = create_execution(tenant, canvas, values)
            status, _ = ex.snapshot()
        self.ok({"executionId": ex.id, "status": status})

    def _execution(self, tenant, exec_id):
        ex = tenant.executions.get(exec_id)
        if ex is None:
            raise ApiError(404, "E1021", "Workflow execution not found: '%s'" % safe_text(exec_id[:200]))
        return ex

    def h_abort(self, tenant, exec_id):
        self.read_body(JSON_BODY_LIMIT)   # body is ignored
        with LOCK:
            ex = self._execution(tenant, exec_id)
            now = time.time()
            status, nodes = ex.snapshot(now)
            if status in ("init", "executing"):
                ex.abort_at = now
        self.ok(include_data=False)

    def h_status(self, tenant, exec_id):
        with LOCK:
            ex = self._execution(tenant, exec_id)
            status, nodes = ex.snapshot()
            node_list = []
            for n, st in zip(ex.nodes, nodes):
                item = {"nodeId": n.node_id, "status": st["status"], "title": n.title}
                if st["error"]:
                    item["errorMessage"] = st["error"]
                node_list.append(item)
            data = {"executionId": ex.id, "status": status, "nodeExecutions": node_list,
                    "createdAt": iso(ex.created)}
        self.ok(data)

    def h_output(self, tenant, exec_id):
        with LOCK:
            ex = self._execution(tenant, exec_id)
            status, nodes = ex.snapshot()
            output, files = [], []
            for idx, (n, st) in enumerate(zip(ex.nodes, nodes)):
                item = {"nodeId": n.node_id, "title": n.title, "status": st["status"]}
                if st["error"]:
                    item["errorMessage"] = st["error"]
                if st["start"] is not None:
                    item["startTime"] = iso(st["start"])
                if st["end"] is not None:
                    item["endTime"] = iso(st["end"])
                item["messages"] = message_list(ex, idx, n, st["progress"])
                output.append(item)
                if st["status"] == "finish":
                    for f in n.files:
                        files.append({"name": f.name, "type": f.mime, "size": len(f.data),
                                      "nodeId": n.node_id, "url": file_url(f)})
        self.ok({"output": output, "files": files})

    def h_search(self, tenant):
        self.read_body(JSON_BODY_LIMIT)
        try:
            q = parse_qs(self.query, keep_blank_values=True, errors="replace")
        except ValueError:
            q = {}

        def first(name):
            v = q.get(name)
            return v[0] if v else None

        keyword = (first("keyword") or "").strip().casefold()
        page = parse_int_param(first("page"), 1)
        if page < 1:
            page = 1
        size = parse_int_param(first("pageSize"), DEFAULT_PAGE_SIZE)
        if size < 1:
            size = DEFAULT_PAGE_SIZE
        size = min(size, MAX_PAGE_SIZE)
        order = (first("order") or "").strip()
        with LOCK:
            items = [c for c in tenant.canvases.values() if keyword in c.title.casefold()]
            items = sort_canvases(items, order)
            start = (page - 1) * size
            page_items = items[start:start + size] if start < len(items) else []
            data = [{"canvasId": c.id, "title": c.title} for c in page_items]
        self.ok(data)

    def h_detail(self, tenant, canvas_id):
        self.read_body(JSON_BODY_LIMIT)
        with LOCK:
            canvas = tenant.canvases.get(canvas_id)
            if canvas is None:
                raise ApiError(404, "CANVAS_NOT_FOUND", "Workflow not found: canvas '%s' does not exist" % safe_text(canvas_id[:200]))
            plan = canvas.plan()
        self.ok(plan)

    def h_upload(self, tenant):
        self._too_large_msg = "Request payload too large; maximum size of an upload request is 20MB (20971520 bytes)"
        ctype = self.headers.get("Content-Type", "")
        if not ctype.lower().strip().startswith("multipart/form-data"):
            raise bad_request("The upload request must be multipart/form-data with one or more parts named 'files'")
        body = self.read_body(UPLOAD_BODY_LIMIT)
        parts = parse_multipart(body, ctype)
        files = []
        for headers, content in parts:
            disp, params = parse_header_params(headers.get("content-disposition", ""))
            if params.get("name") not in ("files", "files[]"):
                continue
            fname = None
            if "filename*" in params:
                fname = decode_rfc5987(params["filename*"])
            if fname is None and "filename" in params:
                fname = params["filename"]
            if fname is None:
                raise bad_request("Part 'files' must be a file (Content-Disposition with a filename)")
            if fname == "" and not content:
                continue  # empty file input of an HTML form
            fname = sanitize_filename(fname)
            mime = (headers.get("content-type") or "").split(";")[0].strip().lower()
            if not mime or not re.fullmatch(r"[a-z0-9][a-z0-9!#$&^_.+\-]*/[a-z0-9][a-z0-9!#$&^_.+\-]*", mime):
                mime = mimetypes.guess_type(fname)[0] or "application/octet-stream"
            files.append((fname, mime, content))
        if not files:
            raise bad_request("No files uploaded: send one or more multipart parts named 'files'")
        if len(files) > UPLOAD_MAX_FILES:
            raise bad_request("Too many files: at most %d files per upload request" % UPLOAD_MAX_FILES)
        with LOCK:
            sweep_uploads(tenant)
            used = sum(len(u.data) for u in tenant.uploads.values())
            if used + sum(len(f[2]) for f in files) > UPLOAD_TENANT_QUOTA:
                raise ApiError(400, "E2001", "Storage quota exceeded")
            out = []
            for fname, mime, content in files:
                key = new_id("fk-", 24)
                tenant.uploads[key] = Upload(key, fname, mime, bytes(content))
                out.append({"fileKey": key, "fileName": fname})
        self.ok({"files": out})

    def h_generate(self, tenant):
        def gen_err(msg, code="INVALID_REQUEST_BODY", error_type="Bad Request", model_response=None):
            return ApiError(400, code, msg, generate_shape=True, error_type=error_type,
                            model_response=model_response)
        try:
            body = self.json_body()
        except ApiError as e:
            if e.status == 400:
                raise gen_err(e.message, e.code)
            raise
        if body is None:
            raise gen_err("Request body must be a JSON object with a 'query' field")
        if not isinstance(body, dict):
            raise gen_err("Request body must be a JSON object with a 'query' field")
        query = body.get("query")
        if query is None:
            raise gen_err("'query' is required")
        if not isinstance(query, str):
            raise gen_err("'query' must be a string")
        if not query.strip():
            raise gen_err("'query' must not be empty")
        if len(query) > CONTENT_CHAR_LIMIT:
            raise gen_err("Content too large; maximum length 100k characters (100000)", code="E2004")
        locale = body.get("locale")
        if locale is not None:
            if not isinstance(locale, str) or locale.strip().lower() not in LOCALE_MAP:
                raise gen_err("'locale' must be one of: %s" % ", ".join(LOCALES))
        canvas_id = body.get("canvasId")
        if canvas_id is not None and not isinstance(canvas_id, str):
            raise gen_err("'canvasId' must be a string")
        if canvas_id is not None and canvas_id.strip() == "":
            canvas_id = None
        with LOCK:
            if canvas_id is not None and canvas_id not in tenant.canvases:
                raise ApiError(404, "CANVAS_NOT_FOUND", "Canvas not found: '%s' does not exist" % safe_text(canvas_id[:200]))
        plan, raw = generate_plan(safe_text(query))
        if plan is None:
            raise gen_err("Workflow generation failed: no actionable steps could be derived from the query",
                          code="GENERATION_FAILED", error_type="Generation Failed",
                          model_response=raw[:2000])
        with LOCK:
            now = time.time()
            if canvas_id is not None:
                canvas = tenant.canvases.get(canvas_id)
                if canvas is None:
                    raise ApiError(404, "CANVAS_NOT_FOUND", "Canvas not found: '%s' does not exist" % safe_text(canvas_id[:200]))
                canvas.title = plan["title"]
                canvas.tasks = plan["tasks"]
                canvas.variables = plan["variables"]
                canvas.updated = now
            else:
                if len(tenant.canvases) >= MAX_CANVASES_PER_TENANT:
                    raise gen_err("Workflow generation failed: the workspace already holds the maximum of %d workflows" % MAX_CANVASES_PER_TENANT,
                                  code="GENERATION_FAILED", error_type="Generation Failed")
                canvas = Canvas(new_id("c-", 16), plan["title"], plan["tasks"], plan["variables"], True, now, now)
                tenant.canvases[canvas.id] = canvas
            data = {"canvasId": canvas.id, "workflowPlan": canvas.plan()}
        self.ok(data)

    def h_drive_file(self, tenant, file_id):
        self.read_body(JSON_BODY_LIMIT)
        with LOCK:
            entry = tenant.drive.get(file_id)
            ready = False
            if entry is not None:
                ex, idx, f = entry
                status, nodes = ex.snapshot()
                ready = nodes[idx]["status"] == "finish"
            if not ready:
                raise ApiError(404, "E1024", "Drive file not found: '%s'" % safe_text(file_id[:200]))
        ascii_name = re.sub(r'[^A-Za-z0-9._ -]', "_", f.name) or "file"
        disp = "inline; filename=\"%s\"; filename*=UTF-8''%s" % (ascii_name, quote(f.name, safe=""))
        ctype = f.mime + ("; charset=utf-8" if f.mime.startswith("text/") or f.mime == "application/json" else "")
        self.send_raw(200, f.data, ctype, [("Content-Disposition", disp)])


def parse_int_param(v, default):
    if v is None:
        return default
    if len(v) > 1000:
        return default
    m = re.fullmatch(r"\s*([+-]?)([0-9]+)(?:\.0*)?\s*", v)
    if not m:
        return default
    digits = m.group(2).lstrip("0") or "0"
    n = int(digits) if len(digits) <= 18 else 10 ** 18   # "huge" is huge enough
    return -n if m.group(1) == "-" else n


ORDERS = {
    "updatedat_desc": ("updated", True), "updatedat_asc": ("updated", False),
    "createdat_desc": ("created", True), "createdat_asc": ("created", False),
    "title_asc": ("title", False), "title_desc": ("title", True),
    "desc": ("updated", True), "asc": ("updated", False),
    "updatedat": ("updated", True), "createdat": ("created", True), "title": ("title", False),
}


def sort_canvases(items, order):
    key = re.sub(r"[\s:.-]+", "_", order.strip().lower())
    field, desc = ORDERS.get(key, ("updated", True))
    if field == "title":
        items = sorted(items, key=lambda c: (c.title.casefold(), c.id), reverse=desc)
    elif field == "created":
        items = sorted(items, key=lambda c: (c.created, c.id), reverse=desc)
    else:
        items = sorted(items, key=lambda c: (c.updated, c.id), reverse=desc)
    return items


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 128

    def server_bind(self):
        # skip the reverse DNS lookup done by HTTPServer.server_bind
        import socketserver
        socketserver.TCPServer.server_bind(self)
        host, port = self.server_address[:2]
        self.server_name = host
        self.server_port = port

    def handle_error(self, request, client_address):
        if VERBOSE:
            super().handle_error(request, client_address)


def main():
    global SPEED, VERBOSE, BASE_URL
    ap = argparse.ArgumentParser(description="Workflow Automation Service")
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--speed", type=float, default=1.0)
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    if not math.isfinite(args.speed) or args.speed < 0:
        ap.error("--speed must be a finite number >= 0")
    if not 0 <= args.port <= 65535:
        ap.error("--port must be between 0 and 65535")
    SPEED = args.speed
    VERBOSE = args.verbose
    key_a = (os.environ.get("WF_KEY_A") or "").strip() or DEFAULT_KEY_A
    key_b = (os.environ.get("WF_KEY_B") or "").strip() or DEFAULT_KEY_B
    if key_a == key_b:
        sys.stderr.write("WF_KEY_A and WF_KEY_B must differ\n")
        sys.exit(2)
    if re.search(r"\s", key_a) or re.search(r"\s", key_b):
        sys.stderr.write("API keys must not contain whitespace\n")
        sys.exit(2)
    load_seeds(key_a, key_b)
    try:
        httpd = Server(("127.0.0.1", args.port), Handler)
    except OSError as e:
        sys.stderr.write("cannot listen on 127.0.0.1:%d: %s\n" % (args.port, e))
        sys.exit(1)
    port = httpd.server_address[1]
    BASE_URL = "http://127.0.0.1:%d/v1" % port
    sys.stdout.write("listening %s\n" % BASE_URL)
    sys.stdout.flush()
    try:
        httpd.serve_forever(poll_interval=0.25)
    except KeyboardInterrupt:
        pass
    finally:
        httpd.server_close()


if __name__ == "__main__":
    main()
