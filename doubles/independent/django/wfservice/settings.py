"""Django settings for the Workflow Automation Service.

Everything that an operator may want to change comes from the environment:

    WF_DATA_DIR        folder for the SQLite database and uploaded files (default ./var)
    WF_KEY_A / WF_KEY_B API keys of the two seeded tenants (applied by `manage.py seed`)
    WF_SPEED           multiplier applied to every execution duration (default 1)
    WF_DEBUG           "1" turns on Django's debug mode (adds `stack` to 500 answers)
"""

import os
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
DATA_DIR = Path(os.environ.get("WF_DATA_DIR", BASE_DIR / "var")).resolve()
DATA_DIR.mkdir(parents=True, exist_ok=True)

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "wf-local-only-secret-key-change-me")
DEBUG = os.environ.get("WF_DEBUG") == "1"
ALLOWED_HOSTS = ["127.0.0.1", "localhost", "[::1]"]

INSTALLED_APPS = [
    "django.contrib.contenttypes",
    "django.contrib.auth",
    "rest_framework",
    "workflows",
]

MIDDLEWARE = [
    "workflows.middleware.TraceIdMiddleware",
    "workflows.middleware.PayloadLimitMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.common.CommonMiddleware",
]

ROOT_URLCONF = "wfservice.urls"
WSGI_APPLICATION = "wfservice.wsgi.application"
# Paths are matched exactly; no redirect dance for a missing/extra trailing slash.
APPEND_SLASH = False

DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": DATA_DIR / "workflows.sqlite3",
        "OPTIONS": {
            # Several gunicorn processes share the file: WAL lets readers run beside
            # the single writer, IMMEDIATE avoids lock-upgrade deadlocks, and the
            # timeout makes a busy writer wait instead of failing.
            "timeout": 20,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        },
    }
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True

MEDIA_ROOT = DATA_DIR / "media"

# Section 8: "Maximum request payload size (code E2005) 100KB" (1 KB = 1024 bytes).
WF_MAX_PAYLOAD_BYTES = int(os.environ.get("WF_MAX_PAYLOAD_BYTES", 100 * 1024))
# Section 8: "Maximum content length (code E2004) 100k characters".
WF_MAX_CONTENT_CHARS = 100_000
DATA_UPLOAD_MAX_MEMORY_SIZE = WF_MAX_PAYLOAD_BYTES
# Keep uploads in memory (they are at most 100 KB anyway) before saving to storage.
FILE_UPLOAD_MAX_MEMORY_SIZE = WF_MAX_PAYLOAD_BYTES
WF_MAX_FILES_PER_UPLOAD = 10
WF_UPLOAD_RETENTION_HOURS = 24

WF_SPEED = float(os.environ.get("WF_SPEED", "1") or 1)
# Delay between accepting a run and dispatching its first node (status `init`).
WF_DISPATCH_DELAY_SECONDS = 0.5

WF_PAGE_SIZE_DEFAULT = 20
WF_PAGE_SIZE_MAX = 100

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["workflows.auth.ApiKeyAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "workflows.negotiation.AlwaysJSONNegotiation",
    "EXCEPTION_HANDLER": "workflows.errors.api_exception_handler",
    "DEFAULT_THROTTLE_CLASSES": [],
    "UNAUTHENTICATED_USER": None,
    "UNAUTHENTICATED_TOKEN": None,
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"stderr": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["stderr"], "level": "INFO"},
    "loggers": {
        # 4xx answers are part of normal API traffic; gunicorn's access log has them.
        "django.request": {"level": "ERROR"},
    },
}
