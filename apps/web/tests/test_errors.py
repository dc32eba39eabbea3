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
