# gunicorn settings; run.sh provides WF_BIND (127.0.0.1:PORT).
import os

wsgi_app = "wfservice.wsgi:application"
bind = os.environ.get("WF_BIND", "127.0.0.1:8080")
workers = int(os.environ.get("WF_WORKERS", "3"))
worker_class = "gthread"
threads = int(os.environ.get("WF_THREADS", "4"))
timeout = 30
graceful_timeout = 5
keepalive = 5
# run.sh sends gunicorn's stdout to stderr, so the only stdout line is "listening ...".
accesslog = "-"
errorlog = "-"
loglevel = "info"
access_log_format = '%(h)s "%(r)s" %(s)s %(b)s %(M)sms'
# gunicorn >= 25 opens a control socket at a fixed path under $HOME: two instances would clash.
control_socket_disable = True
