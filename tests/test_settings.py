"""Settings come from the environment: defaults run the demo, production refuses to start half-configured.

Settings are evaluated once at import, so each case imports ``outorga.settings`` in a fresh interpreter with
its own environment and reads back the values as JSON.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from outorga.settings import env_bool, env_int, env_list

ROOT = Path(__file__).resolve().parent.parent
CONFIG_VARS = (
    "DEBUG",
    "SECRET_KEY",
    "AUDIT_HMAC_KEYS",
    "AUDIT_HMAC_KEYS_FILE",
    "AUDIT_HMAC_KEY_ID",
    "SECRET_KEY_FALLBACKS",
    "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS",
    "DATABASE_URL",
    "CONN_MAX_AGE",
    "EMAIL_BACKEND",
    "EMAIL_HOST",
    "EMAIL_USE_TLS",
    "EMAIL_USE_SSL",
    "SECURE_SSL_REDIRECT",
    "DJANGO_SETTINGS_MODULE",
)
PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": "t3st-only-9f8e7d6c5b4a39281706f5e4d3c2b1a0-zyxwvutsrqponmlkjihgfedcba",
    "AUDIT_HMAC_KEYS": "t3st:audit-only-0f1e2d3c4b5a69788796a5b4c3d2e1f0",
    "ALLOWED_HOSTS": "outorga.olimpia.sp.gov.br, outorga.votuporanga.sp.gov.br",
}
READ_BACK = """
import json, outorga.settings as s
db = s.DATABASES["default"]
print(json.dumps({
    "DEBUG": s.DEBUG, "ALLOWED_HOSTS": s.ALLOWED_HOSTS, "ENGINE": db["ENGINE"], "NAME": str(db["NAME"]),
    "CONN_MAX_AGE": db["CONN_MAX_AGE"], "OPTIONS": db.get("OPTIONS", {}),
    "CONN_HEALTH_CHECKS": db.get("CONN_HEALTH_CHECKS"), "EMAIL_BACKEND": s.EMAIL_BACKEND,
    "LANGUAGE_CODE": s.LANGUAGE_CODE, "TIME_ZONE": s.TIME_ZONE, "USE_TZ": s.USE_TZ,
    "SESSION_COOKIE_SECURE": getattr(s, "SESSION_COOKIE_SECURE", False),
    "COOKIE_NAMES": [getattr(s, "SESSION_COOKIE_NAME", "sessionid"), getattr(s, "CSRF_COOKIE_NAME", "csrftoken")],
    "SECURE_SSL_REDIRECT": getattr(s, "SECURE_SSL_REDIRECT", False),
    "STATICFILES_BACKEND": s.STORAGES["staticfiles"]["BACKEND"],
    "INSTALLED_APPS": s.INSTALLED_APPS,
}))
"""


def import_settings(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {key: value for key, value in os.environ.items() if key not in CONFIG_VARS}
    clean.update({"OUTORGA_VAR_DIR": str(tmp_path / "var"), "PYTHONPATH": str(ROOT)}, **env)
    return subprocess.run(
        [sys.executable, "-c", READ_BACK], cwd=ROOT, env=clean, capture_output=True, text=True, timeout=60
    )


def settings_with(tmp_path: Path, **env: str) -> dict[str, Any]:
    result = import_settings(tmp_path, **env)
    assert result.returncode == 0, result.stderr
    values: dict[str, Any] = json.loads(result.stdout)
    return values


def test_it_runs_the_demo_with_no_environment(tmp_path: Path) -> None:
    values = settings_with(tmp_path)
    assert values["DEBUG"] is True
    assert values["ENGINE"] == "django.db.backends.sqlite3"
    assert values["NAME"] == str(tmp_path / "var" / "outorga.sqlite3")
    assert values["EMAIL_BACKEND"] == "django.core.mail.backends.console.EmailBackend"
    assert "outorga" in values["INSTALLED_APPS"]
    assert values["COOKIE_NAMES"] == ["sessionid", "csrftoken"]  # over http a browser refuses "__Host-"


def test_it_uses_wal_and_immediate_transactions_on_sqlite(tmp_path: Path) -> None:
    options = settings_with(tmp_path)["OPTIONS"]
    assert options["transaction_mode"] == "IMMEDIATE"
    assert "journal_mode=WAL" in options["init_command"]
    assert "foreign_keys=ON" in options["init_command"]


def test_it_speaks_brazilian_portuguese_in_sao_paulo_time(tmp_path: Path) -> None:
    values = settings_with(tmp_path)
    assert (values["LANGUAGE_CODE"], values["TIME_ZONE"], values["USE_TZ"]) == (
        "pt-br",
        "America/Sao_Paulo",
        True,
    )


def test_it_uses_postgresql_from_database_url_with_persistent_connections(tmp_path: Path) -> None:
    values = settings_with(tmp_path, DATABASE_URL="postgresql://outorga:pw@db.internal:5433/outorga")
    assert values["ENGINE"] == "django.db.backends.postgresql"
    assert values["NAME"] == "outorga"
    assert values["CONN_MAX_AGE"] > 0
    assert values["CONN_HEALTH_CHECKS"] is True
    assert values["OPTIONS"]["connect_timeout"] == 10


def test_it_hardens_production(tmp_path: Path) -> None:
    values = settings_with(tmp_path, **PRODUCTION)
    assert values["DEBUG"] is False
    assert values["ALLOWED_HOSTS"] == ["outorga.olimpia.sp.gov.br", "outorga.votuporanga.sp.gov.br"]
    assert values["SESSION_COOKIE_SECURE"] is True
    assert values["COOKIE_NAMES"] == ["__Host-sessionid", "__Host-csrftoken"]
    assert values["SECURE_SSL_REDIRECT"] is True
    assert values["EMAIL_BACKEND"] == "django.core.mail.backends.smtp.EmailBackend"
    assert values["STATICFILES_BACKEND"] == "whitenoise.storage.CompressedManifestStaticFilesStorage"


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"DEBUG": "0", "ALLOWED_HOSTS": "x.gov.br"}, "SECRET_KEY is not set"),
        (
            {
                "DEBUG": "0",
                "ALLOWED_HOSTS": "x.gov.br",
                "SECRET_KEY": "dev-only-insecure-key-do-not-use-in-production",
            },
            "SECRET_KEY is the public development key",
        ),
        ({"DEBUG": "0", "SECRET_KEY": PRODUCTION["SECRET_KEY"]}, "ALLOWED_HOSTS is not set"),
        ({"DEBUG": "maybe"}, "DEBUG must be a boolean"),
        ({"DATABASE_URL": "mongodb://db/outorga"}, "DATABASE_URL is not a valid database URL"),
        ({"EMAIL_USE_TLS": "1", "EMAIL_USE_SSL": "1"}, "EMAIL_USE_TLS and EMAIL_USE_SSL are exclusive"),
        ({"CONN_MAX_AGE": "sixty"}, "CONN_MAX_AGE must be an integer"),
    ],
)
def test_it_refuses_to_start_misconfigured(tmp_path: Path, env: dict[str, str], message: str) -> None:
    result = import_settings(tmp_path, **env)
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert message in result.stderr


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("1", True), ("true", True), ("Yes", True), ("on", True), ("0", False), ("FALSE", False), ("", True)],
)
def test_env_bool_reads_the_usual_spellings(
    monkeypatch: pytest.MonkeyPatch, raw: str, expected: bool
) -> None:
    monkeypatch.setenv("OUTORGA_TEST_FLAG", raw)
    assert env_bool("OUTORGA_TEST_FLAG", True) is expected


def test_env_int_and_env_list_fall_back_to_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OUTORGA_TEST_NUMBER", raising=False)
    monkeypatch.setenv("OUTORGA_TEST_LIST", " a.gov.br, ,b.gov.br ")
    assert env_int("OUTORGA_TEST_NUMBER", 7) == 7
    assert env_list("OUTORGA_TEST_LIST", []) == ["a.gov.br", "b.gov.br"]
