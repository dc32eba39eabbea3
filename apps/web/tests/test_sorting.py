"""Staff lists sort by column on the server (?ordering=key, -key for descending): the header says which column
orders the list (aria-sort) and links to the other direction, and the download keeps the screen's order."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse

from apps.licensing.casebook import pf_case
from apps.tenancy.models import Municipality

pytestmark = pytest.mark.django_db
AS_OF = dt.date(2026, 3, 2)


def test_the_operator_list_sorts_by_holder_both_ways_and_exports_in_that_order(
    analyst_olimpia_client: Client, olimpia: Municipality
) -> None:
    pf_case(olimpia, 1, "Bruno Segundo", as_of=AS_OF)
    pf_case(olimpia, 2, "Ana Primeira", as_of=AS_OF)
    url = reverse("registry:operator_list", args=[olimpia.ibge_code])

    ascending = analyst_olimpia_client.get(url, {"ordering": "titular"}).content.decode()
    assert ascending.index("Ana Primeira") < ascending.index("Bruno Segundo")
    assert (
        '<th scope="col" aria-sort="ascending"><a class="outorga-sort" href="?ordering=-titular"' in ascending
    )
    assert '<th scope="col" aria-sort="none"><a class="outorga-sort" href="?ordering=situacao"' in ascending

    descending = analyst_olimpia_client.get(url, {"ordering": "-titular"}).content.decode()
    assert descending.index("Bruno Segundo") < descending.index("Ana Primeira")
    assert 'aria-sort="descending"' in descending

    download = analyst_olimpia_client.get(url, {"ordering": "-titular", "formato": "csv"})
    body = b"".join(download.streaming_content).decode("utf-8")  # type: ignore[attr-defined]
    assert body.index("Bruno Segundo") < body.index("Ana Primeira")

    stale = analyst_olimpia_client.get(url, {"ordering": "nada"})
    assert stale.status_code == 200  # an unknown column falls back to the default order
