"""Inspection checklists: every regime's file loads, every item cites a real dispositivo, and a wrong cite,
an unknown key or a repeated code fails loading with the file and the line."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from lawcode.checklists import BASE_KINDS, CHECKLIST_FILE, checklist_for, has_checklist, load_checklist
from lawcode.errors import RegimeDefinitionError, UnknownDispositivoError
from lawcode.registry import get_regime, regime_ids

ON = dt.date(2026, 3, 2)


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / CHECKLIST_FILE
    path.write_text(text, encoding="utf-8")
    return path


def _load(path: Path, regime_id: str = "olimpia_sp_escolar") -> object:
    return load_checklist(path, get_regime(regime_id).citer, regime_id)


@pytest.mark.parametrize("regime_id", [r for r in regime_ids() if has_checklist(r)])
def test_every_checklist_item_cites(regime_id: str) -> None:
    """The checklist is optional (a law may require no vistoria); where there is one, every item cites."""
    checklist = checklist_for(regime_id)
    assert checklist.items
    for item in checklist.items:
        citations = checklist.citations(item, on=ON)
        assert citations and all(c.render() for c in citations)


def test_a_cite_to_a_missing_dispositivo_fails_loading_with_its_line(tmp_path: Path) -> None:
    path = _write(tmp_path, "items:\n  - code: tachograph\n    label: Tacógrafo\n    cite: art13_incIX\n")
    with pytest.raises(UnknownDispositivoError) as caught:
        _load(path)
    assert caught.value.line == 4 and caught.value.file == str(path)
    assert "art13_incIX" in caught.value.message


def test_a_wrong_cite_inside_a_list_fails_too(tmp_path: Path) -> None:
    path = _write(tmp_path, 'items:\n  - code: a\n    label: A\n    cite: [art13_incIV, "ctb:art999"]\n')
    with pytest.raises(UnknownDispositivoError):
        _load(path)


def test_an_external_act_that_cannot_be_cited_whole_fails(tmp_path: Path) -> None:
    path = _write(tmp_path, "items:\n  - code: a\n    label: A\n    cite: ctb_typo\n")
    with pytest.raises(UnknownDispositivoError):
        _load(path)


def test_the_real_files_fail_when_one_cite_is_broken(tmp_path: Path) -> None:
    """The shipped file, with one dispositivo renamed to something the law lacks, must not load."""
    original = (get_regime("patrocinio_mg_aplicativo").folder / CHECKLIST_FILE).read_text(encoding="utf-8")
    broken = original.replace("cite: art9_incII\n", "cite: art9_incIV\n", 1)
    assert broken != original
    with pytest.raises(UnknownDispositivoError):
        _load(_write(tmp_path, broken), "patrocinio_mg_aplicativo")


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("items:\n  - code: a\n    label: A\n    cite: art18\n    vlaue: 1\n", "vlaue"),
        (
            "items:\n  - code: a\n    label: A\n    cite: art18\n  - code: a\n    label: B\n    cite: art18\n",
            "duplicate",
        ),
        (
            "items:\n  - code: a\n    label: A\n    cite: art18\n    applies_to: [reinspection]\n",
            "applies_to",
        ),
        ("items:\n  - code: A-1\n    label: A\n    cite: art18\n", "code"),
        ("items:\n  - code: a\n    label: A\n", "cite"),
        ("items: []\n", "non-empty"),
        (
            "items:\n  - code: a\n    label: A\n    cite: art18\nfailure_cure: {instance: x, cite: art99}\n",
            "art99",
        ),
    ],
)
def test_malformed_files_fail_loading(tmp_path: Path, text: str, fragment: str) -> None:
    with pytest.raises((RegimeDefinitionError, UnknownDispositivoError)) as caught:
        _load(_write(tmp_path, text))
    assert fragment in caught.value.message


def test_a_missing_file_is_a_definition_error(tmp_path: Path) -> None:
    with pytest.raises(RegimeDefinitionError):
        _load(tmp_path / CHECKLIST_FILE)


def test_items_for_refuses_an_unknown_kind() -> None:
    with pytest.raises(RegimeDefinitionError):
        checklist_for("olimpia_sp_escolar").items_for("reinspection")
    assert set(BASE_KINDS) == {"initial", "periodic", "semestral", "temporary"}
