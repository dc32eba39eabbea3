from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.exceptions import ImproperlyConfigured

from apps.finance.origins import payment_handler, payment_handlers_replaced, register_payment_handler


def first(*, guide: Any, payment: Any, actor: Any, as_of: dt.date) -> None:
    """A handler for the tests."""


def second(*, guide: Any, payment: Any, actor: Any, as_of: dt.date) -> None:
    """Another handler for the tests."""


def test_registering_the_same_handler_twice_keeps_one() -> None:
    with payment_handlers_replaced({}):
        register_payment_handler("fine", first)
        register_payment_handler("fine", first)
        assert payment_handler("fine") is first


def test_a_second_handler_for_an_origin_is_a_configuration_error() -> None:
    with (
        payment_handlers_replaced({"fine": first}),
        pytest.raises(ImproperlyConfigured, match="already registered"),
    ):
        register_payment_handler("fine", second)


def test_an_unknown_origin_type_is_a_configuration_error() -> None:
    with (
        payment_handlers_replaced({}),
        pytest.raises(ImproperlyConfigured, match="Unknown guide origin type"),
    ):
        register_payment_handler("parking", first)
