from __future__ import annotations

import logging

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.db import OperationalError
from django.test import Client

pytestmark = [pytest.mark.django_db, pytest.mark.urls("apps.web.tests.urls_failing")]


def test_it_answers_503_in_portuguese_when_the_database_is_down(
    client: Client, caplog: pytest.LogCaptureFixture, settings: object
) -> None:
    with caplog.at_level(logging.ERROR, logger="outorga.errors"):
        response = client.get("/banco-fora/")
    assert response.status_code == 503
    assert "O banco de dados está indisponível" in response.content.decode()
    assert "Connection refused" not in response.content.decode()
    assert "Database unavailable while serving GET /banco-fora/" in caplog.text


def test_it_answers_503_when_the_session_store_cannot_reach_the_database(
    monkeypatch: pytest.MonkeyPatch, settings: object
) -> None:
    settings.DEBUG = False  # type: ignore[attr-defined]

    def refuse(self: SessionStore) -> dict[str, object]:
        raise OperationalError("could not connect to server")

    monkeypatch.setattr(SessionStore, "load", refuse)
    client = Client(raise_request_exception=False)
    client.cookies["sessionid"] = "a" * 32
    response = client.get("/")
    assert response.status_code == 503
    assert "O banco de dados está indisponível" in response.content.decode()


def test_it_shows_a_portuguese_500_page_without_a_trace(settings: object) -> None:
    settings.DEBUG = False  # type: ignore[attr-defined]
    response = Client(raise_request_exception=False).get("/erro/")
    assert response.status_code == 500
    html = response.content.decode()
    assert "Erro interno (500)" in html
    assert "ZeroDivisionError" not in html and "Traceback" not in html
    assert response["X-Request-ID"] in html


def test_it_shows_a_portuguese_404_page(client: Client, settings: object) -> None:
    settings.DEBUG = False  # type: ignore[attr-defined]
    response = client.get("/nao-existe/")
    assert response.status_code == 404
    assert "Página não encontrada (404)" in response.content.decode()
    assert 'lang="pt-BR"' in response.content.decode()


def test_it_shows_a_portuguese_403_page_for_csrf_failures(settings: object) -> None:
    settings.DEBUG = False  # type: ignore[attr-defined]
    response = Client(enforce_csrf_checks=True).post("/entrar/", {"username": "x", "password": "y"})
    assert response.status_code == 403
    assert "Acesso negado (403)" in response.content.decode()


# --- API clients get JSON, never the HTML pages ---------------------------------------------------------


def test_a_json_api_answers_a_database_outage_with_json_503(settings: object) -> None:
    settings.DEBUG = False  # type: ignore[attr-defined]
    response = Client(raise_request_exception=False).get("/api/v1/banco-fora/")
    assert response.status_code == 503
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["code"] == "database_unavailable"
    assert "indisponível" in response.json()["message"]
    assert response["Retry-After"] == "30"


def test_a_client_asking_for_json_gets_json_503_outside_api_paths(client: Client) -> None:
    response = client.get("/banco-fora/", HTTP_ACCEPT="application/json")
    assert response.status_code == 503
    assert response.json()["code"] == "database_unavailable"


def test_an_unknown_api_address_answers_json_404(client: Client, settings: object) -> None:
    settings.DEBUG = False  # type: ignore[attr-defined]
    response = client.get("/api/v1/nao-existe/")
    assert response.status_code == 404
    assert response.json() == {
        "code": "not_found",
        "message": "Endereço ou registro não encontrado.",
        "request_id": response["X-Request-ID"],
    }


def test_an_api_bug_answers_json_500_without_a_trace(settings: object) -> None:
    settings.DEBUG = False  # type: ignore[attr-defined]
    response = Client(raise_request_exception=False).get("/api/v1/erro/")
    assert response.status_code == 500
    assert response.json()["code"] == "server_error"
    assert "ZeroDivisionError" not in response.content.decode()


# --- DEBUG on: the debug pages only on the machine itself -------------------------------------------------

REMOTE = "203.0.113.7"


def test_with_debug_on_a_remote_client_never_sees_the_traceback(settings: object) -> None:
    settings.DEBUG = True  # type: ignore[attr-defined]
    response = Client(raise_request_exception=False, REMOTE_ADDR=REMOTE).get("/erro/")
    assert response.status_code == 500
    html = response.content.decode()
    assert "Erro interno (500)" in html
    assert "ZeroDivisionError" not in html and "Traceback" not in html


def test_with_debug_on_a_remote_client_never_sees_the_url_list(settings: object) -> None:
    settings.DEBUG = True  # type: ignore[attr-defined]
    response = Client(REMOTE_ADDR=REMOTE).get("/nao-existe/")
    assert response.status_code == 404
    html = response.content.decode()
    assert "Página não encontrada (404)" in html
    assert "URLconf" not in html and "[name='search']" not in html  # Django's list of URL patterns


def test_with_debug_on_a_remote_client_gets_the_plain_500_for_middleware_errors(
    monkeypatch: pytest.MonkeyPatch, settings: object
) -> None:
    settings.DEBUG = True  # type: ignore[attr-defined]

    def broken(self: SessionStore) -> dict[str, object]:
        raise RuntimeError("session backend bug")

    monkeypatch.setattr(SessionStore, "load", broken)
    client = Client(raise_request_exception=False, REMOTE_ADDR=REMOTE)
    client.cookies["sessionid"] = "a" * 32
    response = client.get("/")
    assert response.status_code == 500
    assert "session backend bug" not in response.content.decode()
    assert "Traceback" not in response.content.decode()


def test_with_debug_on_the_developer_on_loopback_still_gets_the_debug_page(settings: object) -> None:
    settings.DEBUG = True  # type: ignore[attr-defined]
    response = Client(raise_request_exception=False).get("/erro/")  # REMOTE_ADDR 127.0.0.1
    assert response.status_code == 500
    assert "ZeroDivisionError" in response.content.decode()


def test_with_debug_on_a_request_forwarded_by_a_proxy_never_sees_the_traceback(settings: object) -> None:
    # Behind a reverse proxy on the same machine every request arrives from 127.0.0.1.
    settings.DEBUG = True  # type: ignore[attr-defined]
    client = Client(raise_request_exception=False, HTTP_X_FORWARDED_FOR=REMOTE)
    response = client.get("/erro/")
    assert response.status_code == 500
    assert "ZeroDivisionError" not in response.content.decode()


def test_with_debug_on_a_refusal_is_the_portuguese_page_even_on_loopback(
    settings: object, analyst_olimpia_client: Client
) -> None:
    settings.DEBUG = True  # type: ignore[attr-defined]
    # The PIX settings of their own town, which only finance and the administrator open: 404, never 403.
    response = analyst_olimpia_client.get("/municipios/3533908/financeiro/configuracao/")
    assert response.status_code == 404
    html = response.content.decode()
    assert "Página não encontrada (404)" in html and 'lang="pt-BR"' in html
    assert "Page not found" not in html and "URLconf" not in html
    unknown = analyst_olimpia_client.get("/nao-existe/")
    assert unknown.status_code == 404 and "Página não encontrada (404)" in unknown.content.decode()
