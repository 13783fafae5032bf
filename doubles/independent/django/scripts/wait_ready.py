"""Wait until gunicorn answers HTTP on 127.0.0.1:PORT (exit 0), or the server died (exit 1).

Usage: wait_ready.py PORT PID [TIMEOUT_SECONDS]
"""
import http.client
import os
import sys
import time

port, pid = int(sys.argv[1]), int(sys.argv[2])
deadline = time.monotonic() + float(sys.argv[3] if len(sys.argv) > 3 else 60)
while time.monotonic() < deadline:
    try:
        os.kill(pid, 0)
    except OSError:
        sys.exit(1)
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
        conn.request("GET", "/v1/openapi/workflows")
        conn.getresponse().read()
        conn.close()
        sys.exit(0)  # any HTTP answer (401 here) means a worker is serving
    except OSError:
        time.sleep(0.1)
sys.exit(1)
