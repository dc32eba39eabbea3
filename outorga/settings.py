"""Outorga settings: one module, every deploy-specific value from the environment.

Defaults run the embedded demo (SQLite file under var/, DEBUG on). Production sets
DEBUG=0 plus SECRET_KEY, ALLOWED_HOSTS and DATABASE_URL; see README.md.
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path
from typing import Any

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("OUTORGA_VAR_DIR", BASE_DIR / "var"))


def env_str(name: str, default: str) -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    if raw.lower() in {"1", "true", "yes", "on"}:
        return True
    if raw.lower() in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (1/0, true/false), got {raw!r}")


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name} must be an integer, got {raw!r}") from exc


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


DEBUG = env_bool("DEBUG", True)

# In production (DEBUG off) a missing key is a configuration error, never a silent default.
_DEV_SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production"
_SECRET_KEY_HINT = "generate one with: python3 -c 'import secrets; print(secrets.token_urlsafe(50))'"
SECRET_KEY = env_str("SECRET_KEY", _DEV_SECRET_KEY if DEBUG else "")
if not SECRET_KEY:
    raise ImproperlyConfigured(
        f"SECRET_KEY is not set. Production (DEBUG=0) needs a long random SECRET_KEY in the environment; "
        f"{_SECRET_KEY_HINT}"
    )
if not DEBUG and SECRET_KEY == _DEV_SECRET_KEY:
    raise ImproperlyConfigured(
        f"SECRET_KEY is the public development key; set a secret one. {_SECRET_KEY_HINT}"
    )
# Old keys still accepted for signatures (sessions, password-reset links) while a new key is rolled out.
SECRET_KEY_FALLBACKS = env_list("SECRET_KEY_FALLBACKS", [])

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "testserver"] if DEBUG else [])
if not DEBUG and not ALLOWED_HOSTS:
    # Without hosts Django answers every request with 400; say so at start-up instead.
    raise ImproperlyConfigured(
        "ALLOWED_HOSTS is not set. Production (DEBUG=0) needs the public host name(s), comma-separated, "
        "e.g. ALLOWED_HOSTS=outorga.olimpia.sp.gov.br"
    )
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
# The address people open Outorga at, for links in e-mails written without a request (the sweep, the worker).
SITE_URL = env_str("SITE_URL", "http://127.0.0.1:8000" if DEBUG else f"https://{ALLOWED_HOSTS[0]}").rstrip(
    "/"
)
CSRF_FAILURE_VIEW = "apps.web.errors.csrf_failure"

# --- Audit chain keys and checkpoints (apps.audit; docs/security.md) ---------------------------------------
# HMAC keys of the audit chain, kept outside the database: AUDIT_HMAC_KEYS="<id>:<key>,..." or
# AUDIT_HMAC_KEYS_FILE (one <id>:<key> per line). New events use AUDIT_HMAC_KEY_ID (default: the last key
# listed); old events verify with the id they recorded. DEBUG uses a public development key; DEBUG=0
# refuses to start without a real one. `manage.py audit_anchor` writes signed chain heads to
# AUDIT_CHECKPOINT_DIR (keep it off the database server) and mails them to AUDIT_CHECKPOINT_RECIPIENTS.
from apps.audit.keys import load_audit_keys  # noqa: E402  (stdlib-only module, no app registry needed)

AUDIT_KEYS = load_audit_keys(os.environ, debug=DEBUG)
AUDIT_CHECKPOINT_DIR = Path(env_str("AUDIT_CHECKPOINT_DIR", str(VAR_DIR / "audit-checkpoints")))
AUDIT_CHECKPOINT_RECIPIENTS = env_list("AUDIT_CHECKPOINT_RECIPIENTS", [])
# The checkpoints' copy no one can rewrite: an S3 bucket created with Object Lock (compliance mode), each
# checkpoint retained AUDIT_ANCHOR_RETENTION_DAYS (apps/audit/anchorstore.py).
AUDIT_ANCHOR_S3_BUCKET = env_str("AUDIT_ANCHOR_S3_BUCKET", "")
AUDIT_ANCHOR_S3_ENDPOINT_URL = env_str("AUDIT_ANCHOR_S3_ENDPOINT_URL", "")
AUDIT_ANCHOR_S3_REGION = env_str("AUDIT_ANCHOR_S3_REGION", "")
AUDIT_ANCHOR_S3_ACCESS_KEY_ID = env_str("AUDIT_ANCHOR_S3_ACCESS_KEY_ID", "")
AUDIT_ANCHOR_S3_SECRET_ACCESS_KEY = env_str("AUDIT_ANCHOR_S3_SECRET_ACCESS_KEY", "")
AUDIT_ANCHOR_RETENTION_DAYS = env_int("AUDIT_ANCHOR_RETENTION_DAYS", 3650)
# Keyless (legacy SHA-256) events an installation really had before the keyed chain, per chain: "global:120,
# 3533908:45" (the last keyless seq of each). Any other keyless event is refused (apps/audit/verification.py).
AUDIT_LEGACY_EVENTS = {
    chain: int(seq)
    for chain, _, seq in (item.partition(":") for item in env_list("AUDIT_LEGACY_EVENTS", []))
    if seq.isdigit()
}
# --- end of audit block -------------------------------------------------------------------------------------

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "rest_framework",
    "drf_spectacular",
    "outorga",
    # Authentication at ASVS L2 (see the block "Authentication" below).
    "django_otp",
    "django_otp.plugins.otp_totp",
    "django_otp.plugins.otp_static",
    "axes",
    "apps.accounts",
    "apps.tenancy",
    "apps.audit",
    "apps.web",
    "apps.lawconfig",
    "apps.registry",
    "apps.finance",
    "apps.licensing",
    "apps.inspections",
    "apps.enforcement",
    "apps.dueprocess",
    "apps.public",
    "apps.portal",
    "apps.platforms",
    "apps.jobs",
    "apps.notifications",
    "apps.reports",
    "apps.privacy",
    "apps.whatif",
    "apps.ops",
    "apps.replay",
    "apps.signing",
    "django_tasks",
    "django_tasks_db",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "apps.audit.middleware.RequestIdMiddleware",
    # Anonymous GETs of @session_free views (the public lookup) skip SESSION_FREE_SKIPPED_MIDDLEWARE below.
    "apps.web.lean.LeanPathMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "apps.tenancy.querysets.RequestRolesMiddleware",
    "django_otp.middleware.OTPMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # Sensitive services ask for a recent re-authentication whatever route reaches them (apps/accounts/stepup.py).
    "apps.accounts.stepup.StepUpMiddleware",
    "apps.accounts.middleware.SessionExpiryMiddleware",
    "apps.accounts.middleware.IdleTimeoutMiddleware",
    "apps.accounts.middleware.SecondFactorRequiredMiddleware",
    "apps.web.middleware.DatabaseUnavailableMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

# What a view marked @session_free (apps/web/lean.py) does without, for a GET or HEAD carrying no session
# cookie: it reads no session or user, shows no message and posts no form, so none of these has work to do.
SESSION_FREE_SKIPPED_MIDDLEWARE = (
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "apps.tenancy.querysets.RequestRolesMiddleware",
    "django_otp.middleware.OTPMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "apps.accounts.middleware.SessionExpiryMiddleware",
    "apps.accounts.middleware.IdleTimeoutMiddleware",
    "apps.accounts.middleware.SecondFactorRequiredMiddleware",
    "axes.middleware.AxesMiddleware",
)

ROOT_URLCONF = "outorga.urls"
WSGI_APPLICATION = "outorga.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
            # {% url 'name' %} of a literal name: reversed once per process (apps/web/templatetags)
            "builtins": ["apps.web.templatetags.constant_urls", "apps.tenancy.templatetags.regimes"],
        },
    },
]


def _parse_database_url(url: str) -> dict[str, object]:
    try:
        return dict(dj_database_url.parse(url, conn_max_age=env_int("CONN_MAX_AGE", 60)))
    except ValueError as exc:
        raise ImproperlyConfigured(
            f"DATABASE_URL is not a valid database URL ({exc}). Expected e.g. "
            "postgresql://user:password@host:5432/outorga or sqlite:////var/lib/outorga/outorga.sqlite3"
        ) from exc


def _statement_options() -> dict[str, object]:
    """psycopg 3: DATABASE_SERVER_SIDE_BINDING=1 sends the parameters apart from the SQL, and then
    DATABASE_PREPARE_THRESHOLD=N prepares a statement run N times on a connection, so PostgreSQL plans the public
    lookup's SELECT once per connection instead of on every request. Both off by default: a pooler in
    transaction mode (PgBouncer before 1.21) cannot keep prepared statements."""
    options: dict[str, object] = {}
    if env_bool("DATABASE_SERVER_SIDE_BINDING", False):
        options["server_side_binding"] = True
        threshold = env_int("DATABASE_PREPARE_THRESHOLD", 0)
        if threshold > 0:
            options["prepare_threshold"] = threshold
    return options


def _database_from_env(url: str | None = None) -> dict[str, object]:
    url = os.environ.get("DATABASE_URL", "") if url is None else url
    if not url:
        VAR_DIR.mkdir(parents=True, exist_ok=True)
        url = f"sqlite:///{VAR_DIR / 'outorga.sqlite3'}"
    config = _parse_database_url(url)
    if config["ENGINE"] == "django.db.backends.sqlite3":
        # WAL lets readers proceed during a write; IMMEDIATE takes the write lock at BEGIN,
        # so two writers queue instead of failing mid-transaction with "database is locked".
        config["OPTIONS"] = {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;",
        }
    else:
        config["CONN_HEALTH_CHECKS"] = True
        # A server that does not answer fails in seconds with a clear error instead of hanging a worker.
        existing = config.get("OPTIONS")
        options: dict[str, object] = dict(existing) if isinstance(existing, dict) else {}
        options.setdefault("connect_timeout", env_int("DATABASE_CONNECT_TIMEOUT", 10))
        options.update(_statement_options())
        config["OPTIONS"] = options
    return config


DATABASES = {"default": _database_from_env()}
# A streaming replica (PostgreSQL) for public lookups, reports and exports; see outorga/routers.py and
# docs/scaling.md. Reads fall back to the primary while it is down or lags more than REPLICA_MAX_LAG_SECONDS.
DATABASE_REPLICA_URL = env_str("DATABASE_REPLICA_URL", "")
REPLICA_MAX_LAG_SECONDS = env_int("REPLICA_MAX_LAG_SECONDS", 30)
REPLICA_CHECK_SECONDS = env_int("REPLICA_CHECK_SECONDS", 5)
# A client that has just written reads from the primary this long (longer than the lag the replica may have).
REPLICA_PIN_SECONDS = env_int("REPLICA_PIN_SECONDS", REPLICA_MAX_LAG_SECONDS + 5)
# Writes a public lookup makes as bookkeeping (rate-limit cache, request counters, lookup counts): they do not
# send the rest of the request to the primary, since no page reads them back.
REPLICA_BOOKKEEPING_TABLES = frozenset({"outorga_cache", "ops_counter", "public_lookupcount"})
if DATABASE_REPLICA_URL:
    _replica = _database_from_env(DATABASE_REPLICA_URL)
    if _replica["ENGINE"] != "django.db.backends.postgresql":
        raise ImproperlyConfigured(
            "DATABASE_REPLICA_URL must be a PostgreSQL streaming replica (postgresql://…)."
        )
    # A dead replica must not hold a request for long: the health check gives up quickly and reads fall back.
    _options = _replica["OPTIONS"]
    assert isinstance(_options, dict)
    _replica["OPTIONS"] = {**_options, "connect_timeout": env_int("DATABASE_REPLICA_CONNECT_TIMEOUT", 3)}
    DATABASES["replica"] = {**_replica, "TEST": {"MIRROR": "default"}}
    DATABASE_ROUTERS = ["outorga.routers.ReplicaRouter"]
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Authentication (ASVS 5.0 level 2; owner: apps/accounts, see docs/security.md) -------------------------
AUTH_USER_MODEL = "accounts.User"
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"
# django-axes first: it refuses a locked-out account or client before the password is even checked.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
PASSWORD_MIN_LENGTH = env_int("PASSWORD_MIN_LENGTH", 12)
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {
        "NAME": "django.contrib.auth.password_validation.MinimumLengthValidator",
        "OPTIONS": {"min_length": PASSWORD_MIN_LENGTH},
    },
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
    # Repetitions, sequences, keyboard walks, leaked passwords, the user's own data (zxcvbn; issue 28).
    {"NAME": "apps.accounts.validators.PasswordStrengthValidator"},
]
# Reset links by e-mail are valid for this long (seconds); a used link stops working at once.
PASSWORD_RESET_TIMEOUT = env_int("PASSWORD_RESET_TIMEOUT", 3600)
# Lockout (django-axes, database handler: one store shared by every worker). After LOGIN_FAILURE_LIMIT
# failures an account is locked (from any client) and so is a client (for any account), for
# LOGIN_LOCKOUT_MINUTES after the last failure. A successful login clears that account's count.
AXES_ENABLED = env_bool("AXES_ENABLED", True)
AXES_HANDLER = "axes.handlers.database.AxesDatabaseHandler"
AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 10)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("LOGIN_LOCKOUT_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_RESET_ON_SUCCESS = True
AXES_USERNAME_FORM_FIELD = "username"
AXES_LOCKOUT_CALLABLE = "apps.accounts.lockout.lockout_response"
AXES_ENABLE_ADMIN = False
# Behind a reverse proxy every request comes from the proxy's address: tell axes how many trusted
# proxies add X-Forwarded-For, or one attacker would lock out the whole city hall.
AXES_IPWARE_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 0) or None
AXES_IPWARE_META_PRECEDENCE_ORDER = (
    ("HTTP_X_FORWARDED_FOR", "REMOTE_ADDR") if AXES_IPWARE_PROXY_COUNT else ("REMOTE_ADDR",)
)
# Second factor (django-otp): TOTP apps and single-use recovery codes. Mandatory for staff.
OTP_TOTP_ISSUER = env_str("OTP_TOTP_ISSUER", "Outorga")
OTP_TOTP_TOLERANCE = 1
# A session idle for this long is closed; a sensitive action needs password + code this recently.
SESSION_IDLE_TIMEOUT_MINUTES = env_int("SESSION_IDLE_TIMEOUT_MINUTES", 30)
REAUTHENTICATION_MINUTES = env_int("REAUTHENTICATION_MINUTES", 15)
# Portal login with a gov.br account (OpenID Connect, mozilla-django-oidc; see docs/security-authentication.md).
# Off (button hidden, backend inert) unless GOVBR_OIDC_CLIENT_ID is set. Endpoints follow gov.br's layout under
# the issuer (staging: https://sso.staging.acesso.gov.br); each can be overridden.
GOVBR_OIDC_ISSUER = env_str("GOVBR_OIDC_ISSUER", "https://sso.acesso.gov.br").rstrip("/")
GOVBR_ENABLED = bool(env_str("GOVBR_OIDC_CLIENT_ID", ""))
OIDC_RP_CLIENT_ID = env_str("GOVBR_OIDC_CLIENT_ID", "")
OIDC_RP_CLIENT_SECRET = env_str("GOVBR_OIDC_CLIENT_SECRET", "")
if GOVBR_ENABLED and not OIDC_RP_CLIENT_SECRET:
    raise ImproperlyConfigured("GOVBR_OIDC_CLIENT_ID is set but GOVBR_OIDC_CLIENT_SECRET is empty.")
OIDC_OP_AUTHORIZATION_ENDPOINT = env_str(
    "GOVBR_OIDC_AUTHORIZATION_ENDPOINT", f"{GOVBR_OIDC_ISSUER}/authorize"
)
OIDC_OP_TOKEN_ENDPOINT = env_str("GOVBR_OIDC_TOKEN_ENDPOINT", f"{GOVBR_OIDC_ISSUER}/token")
OIDC_OP_USER_ENDPOINT = env_str("GOVBR_OIDC_USERINFO_ENDPOINT", f"{GOVBR_OIDC_ISSUER}/userinfo/")
OIDC_OP_JWKS_ENDPOINT = env_str("GOVBR_OIDC_JWKS_ENDPOINT", f"{GOVBR_OIDC_ISSUER}/jwk")
OIDC_RP_SIGN_ALGO = "RS256"
OIDC_RP_SCOPES = "openid email profile govbr_confiabilidades"
OIDC_USE_PKCE = True
OIDC_TOKEN_USE_BASIC_AUTH = True  # gov.br authenticates the client at /token by HTTP Basic
OIDC_USE_NONCE = True
OIDC_AUTHENTICATION_CALLBACK_URL = "portal:govbr-callback"
OIDC_CREATE_USER = False  # never: a CPF the municipality does not know is refused (apps.portal.govbr)
OIDC_TIMEOUT = env_int("GOVBR_OIDC_TIMEOUT_SECONDS", 10)
AUTHENTICATION_BACKENDS = [*AUTHENTICATION_BACKENDS, "apps.portal.govbr.GovBrBackend"]
# --- end of authentication -------------------------------------------------------------------------------

LANGUAGE_CODE = "pt-br"
LANGUAGES = [("pt-br", "Português (Brasil)")]
TIME_ZONE = "America/Sao_Paulo"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(BASE_DIR / "staticfiles")))
# Front-end packages installed by `npm ci` (package.json), served at /static/vendor/<package path>/.
# Only the folders pages use are listed, so collectstatic copies ~900 files instead of all of
# node_modules (sources, SVG sets, docs). To serve another package, add its folder here.
NODE_MODULES = BASE_DIR / "node_modules"
VENDOR_STATIC_DIRS = (
    "@govbr-ds/core/dist",
    "@fortawesome/fontawesome-free/css",
    "@fortawesome/fontawesome-free/webfonts",
    "@fontsource/raleway",
    "htmx.org/dist",
)
STATICFILES_DIRS = [
    BASE_DIR / "static",
    *((f"vendor/{folder}", NODE_MODULES / folder) for folder in VENDOR_STATIC_DIRS),
]


# Uploaded and generated files: the local disk (MEDIA_ROOT) unless STORAGE_S3_BUCKET names an S3-compatible
# bucket (AWS, MinIO, Ceph). Keys left empty fall back to boto3's chain (environment, instance role).
def s3_storage(
    *,
    bucket: str,
    endpoint_url: str = "",
    region: str = "",
    access_key: str = "",
    secret_key: str = "",
    prefix: str = "",
    addressing_style: str = "path",
    url_seconds: int = 60,
) -> dict[str, Any]:
    """The STORAGES entry for an S3 bucket (also used by the tests against moto, so both stay the same)."""
    from boto3.s3.transfer import TransferConfig

    return {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": bucket,
            "endpoint_url": endpoint_url or None,
            "region_name": region or None,
            "access_key": access_key or None,
            "secret_key": secret_key or None,
            "location": prefix,
            # MinIO and Ceph answer on one host name: path-style addressing (bucket in the path).
            "addressing_style": addressing_style,
            "signature_version": "s3v4",
            # Objects are private; a file is handed out only as a signed URL that expires quickly.
            "default_acl": None,
            "querystring_auth": True,
            "querystring_expire": url_seconds,
            "file_overwrite": False,
            # S3 keeps the SHA-256 it verified on upload, so a read can check a file without downloading
            # it; one PUT per file (uploads are at most 10 MB) keeps it a whole-object checksum.
            "object_parameters": {"ChecksumAlgorithm": "SHA256"},
            "transfer_config": TransferConfig(multipart_threshold=64 * 1024 * 1024, use_threads=False),
        },
    }


STORAGE_S3_BUCKET = env_str("STORAGE_S3_BUCKET", "")
DEFAULT_STORAGE = (
    s3_storage(
        bucket=STORAGE_S3_BUCKET,
        endpoint_url=env_str("STORAGE_S3_ENDPOINT_URL", ""),
        region=env_str("STORAGE_S3_REGION", ""),
        access_key=env_str("STORAGE_S3_ACCESS_KEY_ID", ""),
        secret_key=env_str("STORAGE_S3_SECRET_ACCESS_KEY", ""),
        prefix=env_str("STORAGE_S3_PREFIX", ""),
        addressing_style=env_str("STORAGE_S3_ADDRESSING_STYLE", "path"),
        url_seconds=env_int("STORAGE_S3_URL_SECONDS", 60),
    )
    if STORAGE_S3_BUCKET
    else {"BACKEND": "django.core.files.storage.FileSystemStorage"}
)
STORAGES = {
    "default": DEFAULT_STORAGE,
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
MEDIA_ROOT = Path(env_str("MEDIA_ROOT", str(VAR_DIR / "media")))
MEDIA_URL = "media/"

EMAIL_BACKEND = env_str(
    "EMAIL_BACKEND",
    "django.core.mail.backends.console.EmailBackend"
    if DEBUG
    else "django.core.mail.backends.smtp.EmailBackend",
)
EMAIL_HOST = env_str("EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("EMAIL_PORT", 25)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
if EMAIL_USE_TLS and EMAIL_USE_SSL:
    raise ImproperlyConfigured("EMAIL_USE_TLS and EMAIL_USE_SSL are exclusive; set only one of them to 1.")
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 20)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "outorga@localhost")
SERVER_EMAIL = env_str("SERVER_EMAIL", DEFAULT_FROM_EMAIL)

SESSION_COOKIE_AGE = env_int("SESSION_COOKIE_AGE", 8 * 3600)

# Background tasks (apps/jobs): django-tasks with the database backend, so the embedded setup needs no other
# server. `manage.py db_worker` runs them and `manage.py outorga_scheduler` queues the periodic jobs.
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}
OUTORGA_JOBS_DISABLED = env_list("OUTORGA_JOBS_DISABLED", [])
# Prometheus scrapes /metricas/ with "Authorization: Bearer <METRICS_TOKEN>"; with no token the endpoint is off.
METRICS_TOKEN = env_str("METRICS_TOKEN", "")

if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    # "__Host-": the browser keeps the cookie only if it is Secure, has Path=/ and no Domain, so no sibling
    # subdomain can set or shadow it (ASVS 3.3.1). Only in production: over http (tests, development) a browser
    # refuses such a cookie.
    SESSION_COOKIE_NAME = "__Host-sessionid"
    CSRF_COOKIE_NAME = "__Host-csrftoken"
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": ["rest_framework.authentication.SessionAuthentication"],
    # Staff only: a portal account gets 403, not empty lists (apps/accounts/api_permissions.py).
    "DEFAULT_PERMISSION_CLASSES": ["apps.accounts.api_permissions.IsStaffAccount"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Outorga API",
    "VERSION": "1.0.0",
    # Choice sets behind fields with the same name in several apps ("kind", "state") need a stable
    # schema name, or drf-spectacular invents one ("KindC9fEnum") and `check --deploy` warns (and
    # tests/test_deploy_check.py fails). A new colliding choice class gets its entry here.
    "ENUM_NAME_OVERRIDES": {
        "ApplicationKindEnum": "apps.licensing.choices.ApplicationKind",
        "ApplicationStateEnum": "apps.licensing.choices.ApplicationState",
        "PermitKindEnum": "apps.licensing.choices.PermitKind",
        "PermitStateEnum": "apps.licensing.choices.PermitState",
        "InspectionKindEnum": "apps.inspections.choices.InspectionKind",
        "OperatorKindEnum": "apps.registry.choices.OperatorKind",
        "FeeKindEnum": "apps.finance.choices.FeeKind",
        "CaseStateEnum": "apps.enforcement.choices.CaseState",
        "VerificationStatusEnum": "apps.public.choices.VerificationStatus",
    },
}

# LOG_FORMAT=json (default with DEBUG off): one JSON object per line with the request id (apps/ops/logging.py);
# LOG_FORMAT=plain for a person reading a terminal. outorga.request is the access log (route, status, ms).
LOG_FORMAT = env_str("LOG_FORMAT", "plain" if DEBUG else "json")
if LOG_FORMAT not in ("json", "plain"):
    raise ImproperlyConfigured(f"LOG_FORMAT must be json or plain, not {LOG_FORMAT!r}.")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"},
        "json": {"()": "apps.ops.logging.JsonFormatter"},
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": LOG_FORMAT}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {"outorga.request": {"level": env_str("ACCESS_LOG_LEVEL", "INFO")}},
}
# Request count and latency by route (apps/ops/middleware.py), just inside the request id; and, with a
# replica, the middleware that keeps a client that just wrote on the primary (outorga/routers.py).
OPS_COUNTER_FLUSH_SECONDS = env_int("OPS_COUNTER_FLUSH_SECONDS", 10)
_after_request_id = MIDDLEWARE.index("apps.audit.middleware.RequestIdMiddleware") + 1
MIDDLEWARE[_after_request_id:_after_request_id] = [
    "apps.ops.middleware.RequestMetricsMiddleware",
    "outorga.routers.ReadYourWritesMiddleware",
]

# --- Abuse limits, security headers and error exposure (issue 10 §4–5) ---------------------------------
# Rate-limit counters and proof-of-work tokens live in a cache every server process shares: Django's
# database cache by default (table outorga_cache, created by `manage.py createcachetable`, which `make
# migrate` runs), or Redis when REDIS_URL is set (e.g. redis://127.0.0.1:6379/0; tested in
# apps/public/tests/test_rate_limit_redis.py; outorga.cache.CountingRedisCache counts in one round trip).
REDIS_URL = env_str("REDIS_URL", "")
SHARED_STORE_RETRY_SECONDS = env_int("SHARED_STORE_RETRY_SECONDS", 5)
if REDIS_URL:
    try:
        import redis  # noqa: F401
    except ImportError as exc:
        raise ImproperlyConfigured(
            "REDIS_URL is set but the Python package 'redis' is not installed; install it or unset REDIS_URL "
            "to count rate limits in the database cache."
        ) from exc
    CACHES: dict[str, dict[str, object]] = {
        "default": {
            "BACKEND": "outorga.cache.CountingRedisCache",
            "LOCATION": REDIS_URL,
            # A Redis that hangs must not hold requests: after a failure the cache serves from this process
            # (outorga.cache, "Redis down is a degradation") and retries after SHARED_STORE_RETRY_SECONDS.
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
else:
    CACHES = {
        "default": {
            "BACKEND": "outorga.cache.AtomicDatabaseCache",
            "LOCATION": "outorga_cache",
            # Culling drops random rows: with the default 300 a burst of clients would erase live counters.
            "OPTIONS": {"MAX_ENTRIES": env_int("CACHE_MAX_ENTRIES", 200_000)},
        }
    }

# Content-Security-Policy (django-csp 4): only our own files run. Inline scripts need the request's nonce
# ({{ request.csp_nonce }}); inline style attributes and on*= handlers are not allowed (use static files).
from csp.constants import NONCE, NONE, SELF  # noqa: E402

CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF, NONCE],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "frame-ancestors": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
    }
}
# No page needs these browser features; a script injected despite the CSP cannot use them either.
PERMISSIONS_POLICY = (
    "accelerometer=(), autoplay=(), camera=(), display-capture=(), geolocation=(), gyroscope=(), "
    "magnetometer=(), microphone=(), midi=(), payment=(), usb=(), screen-wake-lock=(), xr-spatial-tracking=()"
)
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# With DEBUG on, Django's debug pages (traceback, URL list) are shown only to these addresses; any other
# client gets the Portuguese 404/500 pages (apps.web.middleware.LocalDebugOnlyMiddleware and the reporter).
INTERNAL_IPS = env_list("INTERNAL_IPS", ["127.0.0.1", "::1"])
DEFAULT_EXCEPTION_REPORTER = "apps.web.errors.LocalOnlyExceptionReporter"
MIDDLEWARE = [
    *MIDDLEWARE,
    "csp.middleware.CSPMiddleware",
    # Permissions-Policy on every answer, Cache-Control: no-store on every authenticated one.
    "apps.web.middleware.SecurityHeadersMiddleware",
    # Innermost but for axes (which handles no exceptions): it sees a view's exception before Django's
    # debug handler does.
    "apps.web.middleware.LocalDebugOnlyMiddleware",
]
INSTALLED_APPS = [*INSTALLED_APPS, "csp"]

# Authentication (continued): django-axes innermost, as it asks, so the lockout page it substitutes for the
# login page still passes through every other middleware (CSP, Permissions-Policy, no-store).
MIDDLEWARE = [*MIDDLEWARE, "axes.middleware.AxesMiddleware"]
