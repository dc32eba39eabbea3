"""Citations: which act, which dispositivo, which wording — validated against the texts.

A citation reference in YAML or in ``@rule(cites=...)`` is ``art13_incII`` (the regime's own law),
``ctb:art138_incIV`` (another act's dispositivo) or ``lc95`` (a whole act, where external_acts.yaml allows it).
``Citer`` validates references at load time and resolves them on a date into ``Citation`` objects that carry
the wording version and render in Portuguese::

    citer = Citer(registry)
    citer.validate("art25_par2", file="parameters.yaml", line=12)     # UnknownDispositivoError if absent
    citer.resolve("art4_incII_c", on=date(2026, 3, 1)).render()
    # 'Lei 5.722/2015 (Votuporanga), art. 4º, II, c'
"""

from __future__ import annotations

import datetime as dt
import functools
from dataclasses import dataclass, field
from typing import Any

from lawcode.acts import Act, ActRegistry
from lawcode.errors import InvalidFactError, UnknownDispositivoError
from lawcode.texts import ORIGINAL, is_dispositivo_id


@dataclass(frozen=True)
class Citation:
    """A resolved citation. ``version`` is "original" or the amending act's key; ``wording`` is the text of
    that version (regime laws only), kept so a stored decision explains itself even after the law changes."""

    act_key: str
    act: str
    dispositivo: str | None
    label: str | None
    version: str = ORIGINAL
    version_label: str | None = None
    inserted: bool = False
    wording: str | None = field(default=None, compare=False)

    @property
    def ref(self) -> str:
        """The reference string that resolves back to this citation's dispositivo."""
        return self.act_key if self.dispositivo is None else f"{self.act_key}:{self.dispositivo}"

    def render(self) -> str:
        """Portuguese: "CTB, art. 138, IV"; "…, art. 4º, § 2º (redação da Lei 6.151/2018)"."""
        text = self.act if self.label is None else f"{self.act}, {self.label}"
        if self.version != ORIGINAL and self.version_label:
            how = "incluído pela" if self.inserted else "redação da"
            text += f" ({how} {self.version_label})"
        return text

    def __str__(self) -> str:
        return self.render()

    def to_dict(self) -> dict[str, Any]:
        return {
            "act_key": self.act_key,
            "act": self.act,
            "dispositivo": self.dispositivo,
            "label": self.label,
            "version": self.version,
            "version_label": self.version_label,
            "inserted": self.inserted,
            "text": self.render(),
            "wording": self.wording,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Citation:
        try:
            return cls(
                act_key=data["act_key"],
                act=data["act"],
                dispositivo=data.get("dispositivo"),
                label=data.get("label"),
                version=data.get("version", ORIGINAL),
                version_label=data.get("version_label"),
                inserted=bool(data.get("inserted", False)),
                wording=data.get("wording"),
            )
        except KeyError as exc:
            raise InvalidFactError(f"citation.{exc.args[0]}", "missing in a stored citation") from None


def render_citations(citations: tuple[Citation, ...] | list[Citation]) -> str:
    """Several citations as a lawyer writes them: the act named once per run of the same act.

    ``"Lei 5.171/2025 (Olímpia), art. 22, I; art. 21; CTB, art. 138, IV"``
    """
    parts: list[str] = []
    previous: str | None = None
    for citation in citations:
        text = citation.render()
        if citation.act_key == previous and citation.label is not None:
            text = text[len(citation.act) + 2 :]
        parts.append(text)
        previous = citation.act_key
    return "; ".join(parts)


_RESOLVED_CACHE_LIMIT = 100_000  # (ref, date) pairs; bulk runs on one date hit the same few hundred


@functools.lru_cache(
    maxsize=4096
)  # pure, and asked for every citation of every finding (bulk runs: millions)
def split_ref(ref: str, main: str) -> tuple[str, str | None]:
    """(act_key, dispositivo or None) of a reference; a bare dispositivo id belongs to ``main``."""
    if ":" in ref:
        act_key, dispositivo = ref.split(":", 1)
        return act_key, dispositivo or None
    if is_dispositivo_id(ref):
        return main, ref
    return ref, None


class Citer:
    """Validates and resolves citation references against one regime's acts."""

    def __init__(self, registry: ActRegistry) -> None:
        self.registry = registry
        self._checked: dict[str, tuple[Act, str | None]] = {}
        self._resolved: dict[tuple[str, dt.date], Citation] = {}
        self._sort_keys: dict[tuple[str, str | None], tuple[int, int]] = {}

    def validate(self, ref: object, *, file: str | None = None, line: int | None = None) -> str:
        """Return ``ref`` if it names an existing dispositivo (or a whole act that may be cited whole)."""
        if not isinstance(ref, str) or not ref.strip():
            raise UnknownDispositivoError(
                repr(ref), file=file, line=line, known_hint="a citation must be a text such as art13_incII"
            )
        act_key, dispositivo = split_ref(ref, self.registry.main)
        act = self.registry.acts.get(act_key)
        if act is None:
            raise UnknownDispositivoError(
                ref,
                file=file,
                line=line,
                known_hint=f"no act {act_key!r} in regime.yaml or external_acts.yaml",
            )
        if dispositivo is None:
            if not act.whole_act:
                raise UnknownDispositivoError(
                    ref, file=file, line=line, known_hint=f"act {act_key!r} must be cited with a dispositivo"
                )
            return ref
        if not act.has(dispositivo):
            raise UnknownDispositivoError(ref, file=file, line=line, known_hint=_known_hint(act, dispositivo))
        return ref

    def resolve(self, ref: str, *, on: dt.date) -> Citation:
        """The citation of ``ref`` with the wording in force on ``on``.

        Before the act takes effect (the ``law_in_force`` question) the wording it will start with is cited.
        Raises UnknownDispositivoError / DispositivoNotInForceError.
        """
        key = (ref, on)
        cached = self._resolved.get(key)
        if cached is None:
            if len(self._resolved) > _RESOLVED_CACHE_LIMIT:
                self._resolved.clear()
            cached = self._resolved[key] = self._resolve(ref, on)
        return cached

    def _resolve(self, ref: str, on: dt.date) -> Citation:
        act, dispositivo = self._checked_ref(ref)
        act_key = act.key
        if dispositivo is None:
            return Citation(act_key, act.cite_as, None, None)
        if act.text is None:
            version = act.external_version(dispositivo, on)
            return Citation(
                act_key,
                act.cite_as,
                dispositivo,
                act.label(dispositivo),
                version,
                act.version_cite_as(version),
            )
        effective = max(on, act.in_force) if act.in_force is not None else on
        wording = act.text.wording(dispositivo, on=effective)
        return Citation(
            act_key,
            act.cite_as,
            dispositivo,
            act.label(dispositivo),
            wording.version_key,
            act.version_cite_as(wording.version_key),
            wording.inserted,
            wording.text,
        )

    def _checked_ref(self, ref: str) -> tuple[Act, str | None]:
        """(act, dispositivo) of a validated reference, memoised: bulk runs resolve the same refs often."""
        found = self._checked.get(ref)
        if found is None:
            self.validate(ref)
            act_key, dispositivo = split_ref(ref, self.registry.main)
            found = self._checked[ref] = (self.registry.acts[act_key], dispositivo)
        return found

    def sort_key(self, citation: Citation) -> tuple[int, int]:
        """Order: the regime's law first, in text order; then other acts."""
        place = (citation.act_key, citation.dispositivo)
        key = self._sort_keys.get(place)
        if key is None:
            act = self.registry.acts.get(citation.act_key)
            position = act.position(citation.dispositivo) if act is not None else 0
            key = self._sort_keys[place] = (self.registry.order_of(citation.act_key), position)
        return key


def _known_hint(act: Act, dispositivo: str) -> str:
    article = dispositivo.split("_", 1)[0]
    siblings = [d for d in act.ids() if d.split("_", 1)[0] == article][:12]
    if siblings:
        return f"{act.key} has no {dispositivo}; dispositivos of that article: {', '.join(siblings)}"
    return (
        f"{act.key} has no {dispositivo} (declare external dispositivos in lawcode/data/external_acts.yaml)"
    )
