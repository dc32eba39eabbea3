"""Every answer carries the CSP and Permissions-Policy; answers to logged-in users are never stored; templates
hold nothing the CSP would block (inline scripts without the nonce, on*= handlers, style attributes)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

pytestmark = pytest.mark.django_db
ROOT = Path(settings.BASE_DIR)


def _directives(response: object) -> dict[str, str]:
    header = response["Content-Security-Policy"]  # type: ignore[index]
    return {part.split()[0]: part.strip() for part in header.split(";") if part.strip()}


def test_public_pages_carry_a_strict_content_security_policy(client: Client) -> None:
    response = client.get("/consulta/")
    directives = _directives(response)
    assert directives["default-src"] == "default-src 'self'"
    assert directives["script-src"].startswith("script-src 'self'")
    assert "unsafe-inline" not in response["Content-Security-Policy"]
    assert "unsafe-eval" not in response["Content-Security-Policy"]
    assert directives["object-src"] == "object-src 'none'"
    assert directives["frame-ancestors"] == "frame-ancestors 'none'"
    assert directives["base-uri"] == "base-uri 'self'"
    assert directives["form-action"] == "form-action 'self'"


def test_every_answer_carries_the_permissions_policy(client: Client) -> None:
    for path in ("/consulta/", "/entrar/", "/api/publica/v1/verificacao/"):
        policy = client.get(path)["Permissions-Policy"]
        assert "camera=()" in policy and "geolocation=()" in policy and "microphone=()" in policy


def test_public_pages_without_personal_data_may_be_cached(client: Client) -> None:
    assert "no-store" not in client.get("/consulta/").get("Cache-Control", "")


def test_every_answer_to_a_logged_in_user_is_no_store(admin_client: Client) -> None:
    for path in ("/", "/api/v1/openapi.json", "/api/v1/registry/operators/", "/consulta/"):
        assert admin_client.get(path)["Cache-Control"] == "no-store", path


def _templates() -> list[Path]:
    return sorted([*ROOT.glob("templates/**/*.html"), *ROOT.glob("apps/*/templates/**/*.html")])


INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*\bnonce=)[^>]*>", re.IGNORECASE)
HANDLER = re.compile(r"\son[a-z]+\s*=", re.IGNORECASE)
STYLE_ATTRIBUTE = re.compile(r"\sstyle\s*=", re.IGNORECASE)


@pytest.mark.parametrize(
    ("pattern", "what"),
    [
        (INLINE_SCRIPT, "inline <script> without the CSP nonce"),
        (HANDLER, "on*= event handler"),
        (STYLE_ATTRIBUTE, "style= attribute"),
    ],
)
def test_no_template_holds_what_the_csp_blocks(pattern: re.Pattern[str], what: str) -> None:
    offenders = [str(path.relative_to(ROOT)) for path in _templates() if pattern.search(path.read_text())]
    assert offenders == [], f"{what} in {offenders}"
