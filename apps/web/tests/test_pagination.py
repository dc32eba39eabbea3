from __future__ import annotations

from django.template.loader import render_to_string
from django.test import RequestFactory

from apps.web.pagination import paginate


def test_it_pages_the_rows_and_keeps_the_other_parameters() -> None:
    request = RequestFactory().get("/lista/", {"situacao": "aberta", "pagina": "2"})
    page, query = paginate(request, list(range(60)))
    assert (page.number, list(page)[0], query) == (2, 25, "situacao=aberta")


def test_a_page_beyond_the_last_shows_the_last() -> None:
    page, query = paginate(RequestFactory().get("/lista/", {"pagina": "99"}), list(range(30)), 10)
    assert (page.number, query) == (3, "")


def test_the_links_keep_the_filters_and_a_single_page_shows_none() -> None:
    request = RequestFactory().get("/lista/", {"situacao": "aberta", "pagina": "2"})
    page, query = paginate(request, list(range(60)))
    html = render_to_string("includes/pagination.html", {"page": page, "query": query})
    assert 'href="?situacao=aberta&amp;pagina=1"' in html and 'href="?situacao=aberta&amp;pagina=3"' in html
    assert "Página 2 de 3" in html
    single, _ = paginate(RequestFactory().get("/lista/"), [1, 2])
    assert render_to_string("includes/pagination.html", {"page": single, "query": ""}).strip() == ""
