"""Production configuration, checked the way an operator meets it: through manage.py in a fresh process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The developer's own configuration must not leak into these runs.
CONFIG_VARS = (
    "DEBUG",
    "SECRET_KEY",
    "AUDIT_HMAC_KEYS",
    "AUDIT_HMAC_KEYS_FILE",
    "AUDIT_HMAC_KEY_ID",
    "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS",
    "DATABASE_URL",
    "EMAIL_BACKEND",
    "EMAIL_USE_TLS",
    "EMAIL_USE_SSL",
    "SECURE_SSL_REDIRECT",
    "SECURE_HSTS_SECONDS",
    "DJANGO_SETTINGS_MODULE",
)
PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": "t3st-only-1a2b3c4d5e6f7a8b9c0d-ZYXWVUTSRQPONMLKJIHGFEDCBA-zyxwvutsrqponmlk",
    "AUDIT_HMAC_KEYS": "t3st:audit-only-0f1e2d3c4b5a69788796a5b4c3d2e1f0",
    "ALLOWED_HOSTS": "outorga.olimpia.sp.gov.br",
}


def manage(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {key: value for key, value in os.environ.items() if key not in CONFIG_VARS}
    clean.update({"OUTORGA_VAR_DIR": str(tmp_path / "var"), "STATIC_ROOT": str(tmp_path / "static")}, **env)
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=clean, capture_output=True, text=True, timeout=120
    )


def test_production_settings_pass_check_deploy_with_no_warnings(tmp_path: Path) -> None:
    result = manage(tmp_path, "check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "System check identified no issues (0 silenced)." in output
    assert "WARNING" not in output


def test_check_deploy_flags_debug_left_on(tmp_path: Path) -> None:
    result = manage(tmp_path, "check", "--deploy", "--fail-level", "WARNING", **{**PRODUCTION, "DEBUG": "1"})
    assert result.returncode != 0
    assert "security.W018" in result.stdout + result.stderr


def test_missing_secret_key_in_production_stops_with_a_clear_message(tmp_path: Path) -> None:
    env = {key: value for key, value in PRODUCTION.items() if key != "SECRET_KEY"}
    result = manage(tmp_path, "check", **env)
    assert result.returncode != 0
    assert "SECRET_KEY is not set. Production (DEBUG=0) needs a long random SECRET_KEY" in result.stderr
    assert "Traceback" not in result.stderr


def test_unreachable_database_is_reported_without_a_traceback(tmp_path: Path) -> None:
    # Port 1 on the loopback refuses at once: no server, no waiting. The password must not be echoed.
    url = "postgresql://outorga:s3nh4-secreta@127.0.0.1:1/outorga"
    result = manage(tmp_path, "outorga_dbcheck", DATABASE_URL=url)
    assert result.returncode == 1
    assert "Cannot connect to the database 'default' (postgresql 127.0.0.1:1/outorga)" in result.stderr
    assert "Check DATABASE_URL" in result.stderr
    assert "Traceback" not in result.stderr
    assert "s3nh4-secreta" not in result.stdout + result.stderr


def test_unopenable_sqlite_file_is_reported_without_a_traceback(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'missing-dir' / 'outorga.sqlite3'}"
    result = manage(tmp_path, "outorga_dbcheck", DATABASE_URL=url)
    assert result.returncode == 1
    assert "unable to open database file" in result.stderr
    assert "Traceback" not in result.stderr


def test_reachable_database_is_confirmed(tmp_path: Path) -> None:
    result = manage(tmp_path, "outorga_dbcheck")
    assert result.returncode == 0, result.stderr
    assert "Database 'default' is reachable (sqlite3 file" in result.stdout


def test_production_static_files_collect_with_every_reference_resolved(tmp_path: Path) -> None:
    # The manifest storage rewrites url() references to hashed names and fails on any that is missing,
    # so this proves the vendored CSS (gov.br DS, Font Awesome, Rawline) is complete and offline.
    result = manage(tmp_path, "collectstatic", "--noinput", "--verbosity", "0", **PRODUCTION)
    assert result.returncode == 0, result.stderr
    manifest = json.loads((tmp_path / "static" / "staticfiles.json").read_text())["paths"]
    for asset in (
        "fonts/rawline.css",
        "vendor/@govbr-ds/core/dist/core.min.css",
        "vendor/@fortawesome/fontawesome-free/css/all.min.css",
        "vendor/htmx.org/dist/htmx.min.js",
    ):
        assert asset in manifest, asset
    rawline = (tmp_path / "static" / manifest["fonts/rawline.css"]).read_text()
    hashed_font = manifest["vendor/@fontsource/raleway/files/raleway-latin-400-normal.woff2"]
    assert hashed_font.rsplit("/", 1)[-1] in rawline
    assert "http" not in rawline


HEADERS_PROBE = """
import json
from django.test import Client
response = Client().get("/api/v1/openapi.json", secure=True, HTTP_HOST="outorga.olimpia.sp.gov.br")
print(json.dumps({"status": response.status_code, **{k: v for k, v in response.headers.items()}}))
"""


def test_production_answers_carry_the_security_headers(tmp_path: Path) -> None:
    result = manage(tmp_path, "shell", "-c", HEADERS_PROBE, **PRODUCTION)
    assert result.returncode == 0, result.stderr
    headers = json.loads(result.stdout.strip().splitlines()[-1])
    assert headers["status"] == 200
    assert headers["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains; preload"
    csp = headers["Content-Security-Policy"]
    for directive in (
        "default-src 'self'",
        "object-src 'none'",
        "frame-ancestors 'none'",
        "base-uri 'self'",
        "form-action 'self'",
    ):
        assert directive in csp
    assert "unsafe-inline" not in csp
    assert "camera=()" in headers["Permissions-Policy"]
    assert headers["X-Frame-Options"] == "DENY"
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "same-origin"
    assert headers["Cross-Origin-Opener-Policy"] == "same-origin"


def test_production_counts_rate_limits_in_the_shared_database_cache(tmp_path: Path) -> None:
    probe = "from django.conf import settings; print(settings.CACHES['default']['BACKEND'])"
    result = manage(tmp_path, "shell", "-c", probe, **PRODUCTION)
    assert result.stdout.strip().splitlines()[-1] == "outorga.cache.AtomicDatabaseCache", result.stderr


def test_redis_url_without_the_redis_package_stops_with_a_clear_message(tmp_path: Path) -> None:
    result = manage(tmp_path, "check", **PRODUCTION, REDIS_URL="redis://127.0.0.1:6379/0")
    try:
        import redis  # noqa: F401
    except ImportError:
        assert result.returncode != 0
        assert "REDIS_URL is set but the Python package 'redis' is not installed" in result.stderr
        assert "Traceback" not in result.stderr
    else:
        assert result.returncode == 0, result.stderr
