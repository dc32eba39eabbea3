"""The one way a staff list pages: ``?pagina=N``, and the query string its page links keep.

A view reads::

    page, query = paginate(request, rows)
    context = {"page": page, "query": query, ...}

and its template ``{% include "includes/pagination.html" %}``: the links to the previous and next pages keep
the list's filters and order (``query``), never the page number itself.
"""

from __future__ import annotations

from typing import Any

from django.core.paginator import Page, Paginator
from django.http import HttpRequest

PAGE_PARAM = "pagina"
PAGE_SIZE = 25


def paginate(request: HttpRequest, rows: Any, per_page: int = PAGE_SIZE) -> tuple[Page[Any], str]:
    """The page of ``rows`` the request names (the first when it names none or no such page) and the request's
    other parameters, URL-encoded, for the page links."""
    query = request.GET.copy()
    query.pop(PAGE_PARAM, None)
    return Paginator(rows, per_page).get_page(request.GET.get(PAGE_PARAM)), query.urlencode()
