"""Properties of the subset match the runner uses for ``expect.result`` (hypothesis)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from lawcode.scenarios import subset_mismatches, values_equal

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**6), 10**6),
    st.decimals(allow_nan=False, allow_infinity=False, places=2, min_value=-(10**6), max_value=10**6),
    st.dates(min_value=dt.date(1990, 1, 1), max_value=dt.date(2100, 12, 31)),
    st.text(alphabet="abcdefgh_", max_size=8),
)
keys = st.text(alphabet="abcdefgh_", min_size=1, max_size=6)
results: st.SearchStrategy[Any] = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(keys, inner, max_size=4),
    max_leaves=12,
)


@given(results)
def test_every_value_matches_itself(value: Any) -> None:
    assert subset_mismatches(value, value, "result") == []


@given(st.dictionaries(keys, results, max_size=4), st.dictionaries(keys, results, max_size=4))
def test_keys_not_expected_are_ignored(expected: dict[str, Any], extra: dict[str, Any]) -> None:
    actual = {**extra, **expected}
    assert subset_mismatches(expected, actual, "result") == []


@given(st.dictionaries(keys, results, min_size=1, max_size=4), st.data())
def test_a_missing_expected_key_is_always_reported(expected: dict[str, Any], data: st.DataObject) -> None:
    dropped = data.draw(st.sampled_from(sorted(expected)))
    actual = {key: value for key, value in expected.items() if key != dropped}
    problems = subset_mismatches(expected, actual, "result")
    assert f"result.{dropped}: ausente" in " ".join(problems)


@given(
    st.dates(max_value=dt.date(2999, 12, 30)),
    st.decimals(allow_nan=False, allow_infinity=False, places=2, min_value=0, max_value=10**9),
)
def test_dates_match_their_iso_text_and_decimals_their_text(day: dt.date, amount: Decimal) -> None:
    assert values_equal(day, day.isoformat())
    assert not values_equal(day, (day + dt.timedelta(days=1)).isoformat())
    assert values_equal(str(amount), amount)
