from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from apps.accounts.models import User
from apps.tenancy.models import Municipality
from apps.web import menu
from apps.web.menu import MenuEntry, menu_for, register_menu_entry

pytestmark = pytest.mark.django_db


def menu_keys(client: Client, url: str) -> set[str]:
    html = client.get(url).content.decode()
    return {key for key in ("team", "audit") if f'data-menu="{key}"' in html}


def test_it_shows_an_analyst_the_team_but_not_the_audit_trail(analyst_olimpia_client: Client) -> None:
    assert menu_keys(analyst_olimpia_client, reverse("municipality_home", args=["3533908"])) == {"team"}


def test_it_shows_the_auditor_the_audit_trail(auditor_olimpia_client: Client) -> None:
    assert menu_keys(auditor_olimpia_client, reverse("municipality_home", args=["3533908"])) == {
        "team",
        "audit",
    }


def test_it_shows_no_municipal_entries_to_the_outsider(
    outsider_client: Client, olimpia: Municipality
) -> None:
    assert menu_keys(outsider_client, reverse("home")) == set()


def test_it_builds_links_for_the_municipality_on_screen(
    monkeypatch: pytest.MonkeyPatch, analyst_olimpia: User, olimpia: Municipality, votuporanga: Municipality
) -> None:
    monkeypatch.setattr(menu, "_ENTRIES", {})
    register_menu_entry(
        MenuEntry(key="x", label="X", url=lambda m: f"/x/{m.ibge_code}/", model_label="tenancy.municipality")
    )
    assert [link.href for link in menu_for(analyst_olimpia, olimpia)] == ["/x/3533908/"]
    assert menu_for(analyst_olimpia, votuporanga) == []  # no role there: no link to a 404
    assert menu_for(analyst_olimpia, None) == []
