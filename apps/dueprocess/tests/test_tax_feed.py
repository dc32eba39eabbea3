"""The tax system's incremental feed: a fine inscribed for dívida ativa, then its payment, read since a cursor."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from apps.dueprocess.services.fines import fine_issue
from apps.dueprocess.services.taxfeed import tax_feed_collect
from apps.enforcement.choices import NoticePurpose
from apps.finance.models import PaymentGuide, TaxFeedEvent
from apps.finance.services import payment_register

from .helpers import final_without_appeal, notify, open_case

D = dt.date


def client_for(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def overdue_fine(
    olimpia: Any, agent_olimpia: Any, judge_olimpia: Any, finance_olimpia: Any, olimpia_licensed: Any
) -> PaymentGuide:
    case = open_case(
        olimpia, agent_olimpia, code="OLI-23-I", plate=olimpia_licensed[0].vehicle.plate, on=D(2026, 3, 12)
    )
    sanction = final_without_appeal(case, agent_olimpia, judge_olimpia, D(2026, 3, 13), D(2026, 3, 24))
    notify(case, agent_olimpia, D(2026, 3, 25), NoticePurpose.FINAL_DECISION)
    fine_issue(sanction=sanction, actor=finance_olimpia, as_of=D(2026, 3, 25))
    return PaymentGuide.objects.get()


def test_the_feed_gives_the_inscription_then_only_what_came_after_the_cursor(
    overdue_fine: PaymentGuide, olimpia: Any, finance_olimpia: Any, analyst_olimpia_client: Client
) -> None:
    url = reverse("dueprocess:tax_feed", args=[olimpia.ibge_code])
    finance = client_for(finance_olimpia)
    assert analyst_olimpia_client.get(url).status_code == 404
    first = json.loads(finance.get(url + "?desde=0").content)
    assert [event["kind"] for event in first["events"]] == ["inscription"]
    assert first["events"][0]["guide_number"] == overdue_fine.number
    assert first["events"][0]["data"]["amount_brl"] == "576.30"
    cursor = first["next_cursor"]

    assert (
        json.loads(finance.get(f"{url}?desde={cursor}").content)["events"] == []
    )  # nothing new, nothing repeated
    payment_register(
        actor=finance_olimpia,
        guide=overdue_fine,
        paid_on=D(2026, 5, 4),
        amount_brl=overdue_fine.amount_brl,
        method="pix",
        reference="E1234",
        as_of=D(2026, 5, 4),
    )
    later = json.loads(finance.get(f"{url}?desde={cursor}").content)
    assert [(e["kind"], e["data"]["amount_brl"]) for e in later["events"]] == [("payment", "576.30")]
    csv_text = finance.get(f"{url}?desde=0&formato=csv").content.decode("utf-8-sig")
    assert (
        csv_text.splitlines()[0] == "cursor;kind;occurred_on;guide_number;amount_brl;debtor_document;details"
    )
    assert len(csv_text.splitlines()) == 3


def test_collecting_twice_adds_nothing(overdue_fine: PaymentGuide, olimpia: Any) -> None:
    assert tax_feed_collect(municipality=olimpia, as_of=D(2026, 6, 1)) == 1
    assert tax_feed_collect(municipality=olimpia, as_of=D(2026, 6, 2)) == 0
    assert TaxFeedEvent.objects.count() == 1


def test_a_bad_cursor_is_refused(overdue_fine: PaymentGuide, olimpia: Any, finance_olimpia: Any) -> None:
    url = reverse("dueprocess:tax_feed", args=[olimpia.ibge_code])
    assert client_for(finance_olimpia).get(url + "?desde=ontem").status_code == 400
