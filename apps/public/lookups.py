"""One lookup from request to answer, shared by the page, the QR route and the JSON endpoint: rate limit,
parse, verify, count. The callers only render."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field

from django.http import HttpRequest
from django.utils import timezone

from apps.lawconfig.config import configs_remembered
from apps.public import ratelimit
from apps.public.choices import LookupResult, LookupVia, VerificationStatus
from apps.public.stats import lookup_count_add
from apps.public.verification import (
    PERMIT_NUMBER_SHAPE,
    InvalidQuery,
    PublicVerification,
    Query,
    municipality_of,
    parse_permit_number,
    parse_plate,
    parse_plate_or_number,
    parse_token,
    verify,
)
from apps.tenancy.models import Municipality

Parser = Callable[[str], tuple[str, str]]
RATE_LIMITED_MESSAGE = (
    "Muitas consultas em pouco tempo a partir desta conexão. Aguarde {seconds} segundos e tente de novo."
)


class RateLimited(Exception):
    def __init__(self, retry_after: int) -> None:
        super().__init__(RATE_LIMITED_MESSAGE.format(seconds=retry_after))
        self.retry_after = retry_after
        self.message_pt = str(self)


@dataclass(frozen=True)
class Outcome:
    query: Query
    checked_on: dt.date
    results: list[PublicVerification] = field(default_factory=list)

    @property
    def status(self) -> str:
        return self.results[0].status if self.results else VerificationStatus.UNKNOWN


def today() -> dt.date:
    """The prefeitura's calendar day (TIME_ZONE): what 'may carry passengers today' means."""
    return timezone.localdate()


def _guard(request: HttpRequest, via: str, municipality: Municipality | None) -> None:
    decision = ratelimit.hit(request)
    if not decision.allowed:
        lookup_count_add(day=today(), municipality=municipality, via=via, result=LookupResult.LIMITED)
        raise RateLimited(decision.retry_after)


def _run(request: HttpRequest, via: str, ibge_code: str | None, parse: Parser, raw: str) -> Outcome:
    """Rate limit first (even a bad request costs the client), then check, look up and count."""
    municipality = municipality_of(ibge_code)
    _guard(request, via, municipality)
    try:
        if ibge_code is not None and municipality is None:
            raise InvalidQuery(
                "unknown_municipality", "Escolha um dos municípios atendidos por esta consulta."
            )
        via, value = parse(raw)
    except InvalidQuery:
        lookup_count_add(day=today(), municipality=municipality, via=via, result=LookupResult.INVALID)
        raise
    return _answer(Query(via=via, value=value, municipality=municipality))


def _answer(query: Query) -> Outcome:
    with configs_remembered():  # each town's law configuration checked once per lookup, however many permits
        outcome = Outcome(query=query, checked_on=today(), results=verify(query, as_of=today()))
    municipality = query.municipality
    if municipality is None and outcome.results:
        municipality = municipality_of(outcome.results[0].municipality_ibge)
    lookup_count_add(day=outcome.checked_on, municipality=municipality, via=query.via, result=outcome.status)
    return outcome


def _as(via: str, parse: Callable[[str], str]) -> Parser:
    return lambda raw: (via, parse(raw))


def by_token(request: HttpRequest, token: str) -> Outcome:
    return _run(request, LookupVia.TOKEN, None, _as(LookupVia.TOKEN, parse_token), token)


MUNICIPALITY_REQUIRED = "Para consultar pelo número da autorização, escolha o município que o emitiu."


def by_text(request: HttpRequest, ibge_code: str | None, text: str) -> Outcome:
    """The page's single field. A plate is unique nationally, so it is looked up in every municipality of the
    deployment whatever town is chosen; a permit number ('0001/2026' exists in each town) needs its town."""
    if PERMIT_NUMBER_SHAPE.match((text or "").strip()):
        return _run(request, LookupVia.PERMIT, ibge_code or None, _in_a_town(ibge_code), text)
    return _run(request, LookupVia.PLATE, None, parse_plate_or_number, text)


def _in_a_town(ibge_code: str | None) -> Parser:
    def parse(raw: str) -> tuple[str, str]:
        if not ibge_code:
            raise InvalidQuery("municipality_required", MUNICIPALITY_REQUIRED)
        return parse_plate_or_number(raw)

    return parse


def by_plate(request: HttpRequest, ibge_code: str | None, plate: str) -> Outcome:
    """A plate in one municipality, or in all of them when none is named."""
    return _run(request, LookupVia.PLATE, ibge_code, _as(LookupVia.PLATE, parse_plate), plate)


def by_permit_number(request: HttpRequest, ibge_code: str, number: str) -> Outcome:
    return _run(request, LookupVia.PERMIT, ibge_code, _as(LookupVia.PERMIT, parse_permit_number), number)
