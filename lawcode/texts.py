"""Law texts as data: dispositivos with stable ids and dated wording versions.

``parse_law_text(text, source=..., in_force=..., amendments=...)`` turns the verbatim text of a municipal law
into a ``LawText``. It copes with the three shapes we have: one dispositivo per line (Olímpia), blank-line
separated blocks with amended wordings (Votuporanga) and PDF extraction with hard-wrapped lines (Patrocínio).

Ids (see docs/lawcode/design.md): ``art13`` (caput), ``art1A`` (Art. 1º-A), ``art25_par2`` (§ 2º),
``art22_parun`` (parágrafo único), ``art13_incII`` (inciso), ``art4_par4_incI``, ``art4_incII_c`` (alínea).

Amendments: a dispositivo followed by "(Redação dada pela <marker>)" is a new wording of the dispositivo with
the same id; "(Inserido pela <marker>)" creates one that exists only from the amendment's ``in_force`` date.
The original wording is valid until the day before. Example::

    law = parse_law_text(path.read_text(), source=str(path), in_force=date(2015, 12, 22),
                         amendments=[Amendment("lei6151_2018", "Lei nº 6.151, de 20.03.2018", date(2018, 3, 20))])
    law.wording("art4_par2", on=date(2019, 1, 1)).version_key   # "lei6151_2018"
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from lawcode.errors import DispositivoNotInForceError, LawTextError, UnknownDispositivoError

ORIGINAL = "original"
_ROMAN_VALUES = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}
_ROMAN = r"[IVXLC]+"

# "º", "°" or a plain "o" ("Art. 1o", common in compiled federal texts) may follow the number.
_ORDINAL = r"(?:[º°]|o(?=[\s.\-]))?"
_ARTICLE = re.compile(rf"^Art\.?\s*(\d+)\s*\.?\s*{_ORDINAL}\s*(?:-\s*([A-Z])\b)?\s*[.:\-–]?\s*(.*)$")
_PARAGRAPH = re.compile(rf"^§\s*(\d+)\s*\.?\s*{_ORDINAL}\s*(?:-\s*([A-Z])\b)?\s*[.:\-–]?\s*(.*)$")
_SOLE_PARAGRAPH = re.compile(r"^Par[áa]grafo\s+[úÚuU]nico\s*[.:\-–]?\s*(.*)$", re.IGNORECASE)
_INCISO = re.compile(rf"^({_ROMAN})\s*[-–—]\s*(.*)$")
_ALINEA = re.compile(r"^([a-z])\)\s*(.*)$")
_HEADING = re.compile(r"^(CAP[ÍI]TULO|SE[ÇC][ÃA]O|Se[çc][ãa]o|T[ÍI]TULO|LIVRO)\b")
_MONTHS = "janeiro|fevereiro|março|abril|maio|junho|julho|agosto|setembro|outubro|novembro|dezembro"
_CLOSING = re.compile(rf",\s*(?:em\s+)?\d{{1,2}}º?\s+de\s+(?:{_MONTHS})\s+de\s+\d{{4}}\.?\s*$", re.IGNORECASE)
_AMENDMENT_NOTE = re.compile(
    r"\(\s*(Reda[çc][ãa]o\s+dada|Inserid[oa]|Acrescid[oa]|Inclu[íi]d[oa]|Revogad[oa])\s+pel[ao]\s+([^)]+?)\s*\)"
    r"\s*\.?\s*$",
    re.IGNORECASE,
)
_ID_PART = re.compile(rf"^(?:art(\d+)([A-Z]?)|par(\d+)([A-Z]?)|parun|inc({_ROMAN})|([a-z]))$")


class Kind(StrEnum):
    """Level of a dispositivo in the law's structure."""

    ARTICLE = "article"
    PARAGRAPH = "paragraph"
    INCISO = "inciso"
    ALINEA = "alinea"


@dataclass(frozen=True)
class Amendment:
    """An amending act as declared in regime.yaml: its key, the marker text used in the law and its start."""

    key: str
    marker: str
    in_force: dt.date
    cite_as: str | None = None


@dataclass(frozen=True)
class Wording:
    """One wording of a dispositivo, valid from ``valid_from`` to ``valid_until`` (inclusive; None = open)."""

    version_key: str
    valid_from: dt.date
    valid_until: dt.date | None
    text: str
    line: int
    inserted: bool = False

    def covers(self, on: dt.date) -> bool:
        return self.valid_from <= on and (self.valid_until is None or on <= self.valid_until)


@dataclass
class Dispositivo:
    """An article (its caput), paragraph, inciso or alínea, with every wording it has had."""

    id: str
    kind: Kind
    parent: str | None
    line: int
    versions: list[Wording] = field(default_factory=list)

    @property
    def label(self) -> str:
        """Portuguese label: "art. 4º, II, c"."""
        return label_for(self.id)

    @property
    def text(self) -> str:
        """The latest wording's text (for explanations; use ``wording_on`` for a dated text)."""
        return self.versions[-1].text

    def wording_on(self, on: dt.date) -> Wording | None:
        return next((w for w in reversed(self.versions) if w.covers(on)), None)


def roman_to_int(numeral: str) -> int:
    """Value of a Roman numeral; raises ValueError if it is not in canonical form (e.g. "IIII")."""
    total = 0
    for index, char in enumerate(numeral):
        value = _ROMAN_VALUES[char]
        following = _ROMAN_VALUES[numeral[index + 1]] if index + 1 < len(numeral) else 0
        total += -value if value < following else value
    if total <= 0 or int_to_roman(total) != numeral:
        raise ValueError(f"not a canonical Roman numeral: {numeral}")
    return total


def int_to_roman(number: int) -> str:
    """Canonical Roman numeral of a positive integer (14 → "XIV")."""
    pairs = (
        (100, "C"),
        (90, "XC"),
        (50, "L"),
        (40, "XL"),
        (10, "X"),
        (9, "IX"),
        (5, "V"),
        (4, "IV"),
        (1, "I"),
    )
    out = []
    for value, numeral in pairs:
        while number >= value:
            out.append(numeral)
            number -= value
    return "".join(out)


def _ordinal(number: str) -> str:
    """Brazilian drafting style: ordinals for 1–9 ("art. 4º", "§ 2º"), cardinals from 10 ("art. 13")."""
    return f"{number}º" if int(number) < 10 else number


@functools.cache
def label_for(dispositivo_id: str) -> str:
    """Portuguese label of an id: ``art4A_par2_incV_c`` → ``art. 4º-A, § 2º, V, c``.

    Raises UnknownDispositivoError when the id does not follow the scheme.
    """
    parts = []
    for piece in dispositivo_id.split("_"):
        match = _ID_PART.match(piece)
        if match is None:
            raise UnknownDispositivoError(
                dispositivo_id, known_hint="ids look like art13_incII or art25_par2"
            )
        art, art_letter, par, par_letter, inciso, alinea = match.groups()
        if inciso is not None and not _is_roman(inciso):
            raise UnknownDispositivoError(dispositivo_id, known_hint=f"{inciso} is not a Roman numeral")
        if art is not None:
            parts.append(f"art. {_ordinal(art)}" + (f"-{art_letter}" if art_letter else ""))
        elif par is not None:
            parts.append(f"§ {_ordinal(par)}" + (f"-{par_letter}" if par_letter else ""))
        elif piece == "parun":
            parts.append("parágrafo único")
        else:
            parts.append(inciso or alinea)
    if not parts or not parts[0].startswith("art."):
        raise UnknownDispositivoError(dispositivo_id, known_hint="ids start with the article, e.g. art13")
    return ", ".join(parts)


@functools.cache
def is_dispositivo_id(text: str) -> bool:
    """True when ``text`` follows the id scheme (it may still not exist in a given law)."""
    try:
        label_for(text)
    except UnknownDispositivoError:
        return False
    return True


@dataclass
class LawText:
    """A parsed law: dispositivos in text order, each with its dated wordings."""

    source: str
    in_force: dt.date
    dispositivos: dict[str, Dispositivo]
    name: str = ""
    """The act key (set by the regime loader), used in messages instead of the file path."""

    def ids(self) -> list[str]:
        """Every dispositivo id (articles, paragraphs, incisos, alíneas) in text order."""
        return list(self.dispositivos)

    def all_ids_including_parents(self) -> list[str]:
        """Every id the coverage matrix must list: each dispositivo and every ancestor, in text order.

        Parents are dispositivos themselves (an article's id stands for its caput), so this is ``ids()``
        checked for closure: a parent missing from the text would be a parser bug, and raises LawTextError.
        """
        for dispositivo in self.dispositivos.values():
            if dispositivo.parent is not None and dispositivo.parent not in self.dispositivos:
                raise LawTextError(f"{dispositivo.id} has no parent {dispositivo.parent}", file=self.source)
        return self.ids()

    def has(self, dispositivo_id: str) -> bool:
        return dispositivo_id in self.dispositivos

    def get(self, dispositivo_id: str) -> Dispositivo:
        try:
            return self.dispositivos[dispositivo_id]
        except KeyError:
            raise UnknownDispositivoError(dispositivo_id, file=self.source) from None

    def ancestors(self, dispositivo_id: str) -> list[str]:
        """Parents of a dispositivo, nearest first (``art4_incII_c`` → ``[art4_incII, art4]``)."""
        out = []
        parent = self.get(dispositivo_id).parent
        while parent is not None:
            out.append(parent)
            parent = self.dispositivos[parent].parent
        return out

    def children(self, dispositivo_id: str) -> list[str]:
        return [d.id for d in self.dispositivos.values() if d.parent == dispositivo_id]

    def wording(self, dispositivo_id: str, *, on: dt.date) -> Wording:
        """The wording in force on ``on``; DispositivoNotInForceError if none (before insertion, say)."""
        dispositivo = self.get(dispositivo_id)
        found = dispositivo.wording_on(on)
        if found is None:
            raise DispositivoNotInForceError(
                self.name or self.source, dispositivo_id, on, _validity(dispositivo)
            )
        return found

    def position(self, dispositivo_id: str) -> int:
        """Index of the dispositivo in text order (to sort citations)."""
        return list(self.dispositivos).index(dispositivo_id)


def _validity(dispositivo: Dispositivo) -> str:
    spans = []
    for wording in dispositivo.versions:
        end = wording.valid_until.isoformat() if wording.valid_until else "…"
        spans.append(f"{wording.valid_from.isoformat()}–{end} ({wording.version_key})")
    return ", ".join(spans)


@dataclass
class _Line:
    number: int
    text: str


@dataclass(frozen=True)
class EditorialNote:
    """A bracketed note of a consolidated text — an earlier wording ("[até 20.06.2013: (redação original) …]")
    or a note ("[Este inciso foi acrescentado pela Lei …]"): never text of a dispositivo, kept apart with the
    lines it spans and the dispositivo it follows."""

    line: int
    last_line: int
    text: str
    after: str | None
    until: dt.date | None
    """For an earlier wording: the last day it was in force ("até DD.MM.AAAA")."""


_EARLIER_UNTIL = re.compile(r"^\[\s*at[ée]\s+(\d{1,2})[./](\d{1,2})[./](\d{4})\s*:", re.IGNORECASE)


@dataclass
class _ParserState:
    """Where we are in the structure while reading the text."""

    article: str | None = None
    paragraph: str | None = None
    inciso: str | None = None
    current: Dispositivo | None = None
    in_heading: bool = False
    previous_blank: bool = False


class _Parser:
    def __init__(self, source: str, in_force: dt.date, amendments: Sequence[Amendment]) -> None:
        self.source = source
        self.in_force = in_force
        self.amendments = {a.marker: a for a in amendments}
        self.dispositivos: dict[str, Dispositivo] = {}
        self.state = _ParserState()
        self.notes: list[EditorialNote] = []
        self._note_lines: dict[int, tuple[int, str]] = {}

    def error(self, line: _Line, message: str, message_pt: str) -> LawTextError:
        return LawTextError(message, message_pt=message_pt, file=self.source, line=line.number)

    def run(self, text: str) -> LawText:
        lines = [_Line(i + 1, raw.strip()) for i, raw in enumerate(text.splitlines())]
        # The closing "Cidade, 10 de janeiro de 2020." comes after the last article; a wrapped line of the body
        # that happens to end in a date must not cut the law short.
        lines = self._without_editorial_notes(lines)
        last_article = max((line.number for line in lines if _ARTICLE.match(line.text)), default=0)
        for line in lines:
            if line.number in self._note_lines:
                self._note_at(line)
                continue
            if not line.text:
                self.state.previous_blank = True
                continue
            if line.number > last_article and self._is_closing(line):
                break
            self.feed(line)
            self.state.previous_blank = False
        if not self.dispositivos:
            raise LawTextError(
                "no article found in the law text",
                message_pt="nenhum artigo no texto da lei",
                file=self.source,
            )
        return LawText(self.source, self.in_force, self.dispositivos)

    def _without_editorial_notes(self, lines: list[_Line]) -> list[_Line]:
        """Find the bracketed blocks of a consolidated text (a line opening with "[" up to the line closing
        with "]"); their lines are set aside as notes, so an earlier wording never mixes into the text in force
        nor restarts the numbering."""
        self._note_lines = {}
        index = 0
        while index < len(lines):
            line = lines[index]
            if not line.text.startswith("["):
                index += 1
                continue
            end = index
            while end < len(lines) - 1 and not lines[end].text.endswith("]"):
                end += 1
            if not lines[end].text.endswith("]"):
                raise self.error(
                    line,
                    "an editorial note opened with '[' is never closed with ']'",
                    "nota entre colchetes aberta com '[' e nunca fechada com ']'",
                )
            text = " ".join(item.text for item in lines[index : end + 1] if item.text)
            self._note_lines[line.number] = (lines[end].number, text)
            for item in lines[index + 1 : end + 1]:
                self._note_lines[item.number] = (-1, "")
            index = end + 1
        return lines

    def earlier_wording_after(self, line: _Line) -> str | None:
        """The text of the earlier wording a consolidated text gives in brackets right after ``line``
        ("[até 20.06.2013: (redação original) Art. 3º …]"), without the brackets, the date and the label."""
        found = self._note_lines.get(line.number + 1)
        if found is None or found[0] < 0:
            return None
        text = found[1]
        head = _EARLIER_UNTIL.match(text)
        if head is None:
            return None
        body = text[head.end() :].rstrip("]").strip()
        body = re.sub(r"^\((?:reda[çc][ãa]o\s+original|[^)]*)\)\s*", "", body, flags=re.IGNORECASE)
        for pattern in (_ARTICLE, _PARAGRAPH, _SOLE_PARAGRAPH, _INCISO, _ALINEA):
            if match := pattern.match(body):
                return str(match.groups()[-1]).strip()
        return body or None

    def _note_at(self, line: _Line) -> None:
        last, text = self._note_lines[line.number]
        if last < 0:
            return  # a later line of a note already kept
        current = self.state.current
        until = None
        if match := _EARLIER_UNTIL.match(text):
            day, month, year = (int(g) for g in match.groups())
            try:
                until = dt.date(year, month, day)
            except ValueError:
                until = None
        self.notes.append(EditorialNote(line.number, last, text, current.id if current else None, until))

    def _is_closing(self, line: _Line) -> bool:
        started = self.state.current is not None
        return started and bool(_CLOSING.search(line.text)) and not self._starts_dispositivo(line)

    def _starts_dispositivo(self, line: _Line) -> bool:
        patterns = (_ARTICLE, _PARAGRAPH, _SOLE_PARAGRAPH, _INCISO, _ALINEA)
        return any(p.match(line.text) for p in patterns)

    def feed(self, line: _Line) -> None:
        body, note = _split_amendment_note(line.text)
        parsed = self.identify(line, body)
        if parsed is None:
            self.continuation(line)
            return
        dispositivo_id, kind, parent, text = parsed
        self.state.in_heading = False
        self.add(line, dispositivo_id, kind, parent, text, note)

    def identify(self, line: _Line, body: str) -> tuple[str, Kind, str | None, str] | None:
        """(id, kind, parent, text) when the line starts a dispositivo, else None (heading or continuation)."""
        state = self.state
        if match := _ARTICLE.match(body):
            number, letter, text = match.groups()
            return f"art{int(number)}{letter or ''}", Kind.ARTICLE, None, text
        if state.article is None:
            return None
        if match := _SOLE_PARAGRAPH.match(body):
            return f"{state.article}_parun", Kind.PARAGRAPH, state.article, match.group(1)
        if match := _PARAGRAPH.match(body):
            number, letter, text = match.groups()
            return f"{state.article}_par{int(number)}{letter or ''}", Kind.PARAGRAPH, state.article, text
        if (match := _INCISO.match(body)) and _is_roman(match.group(1)):
            parent = state.paragraph or state.article
            return f"{parent}_inc{match.group(1)}", Kind.INCISO, parent, match.group(2)
        if match := _ALINEA.match(body):
            parent = state.inciso or state.paragraph or state.article
            return f"{parent}_{match.group(1)}", Kind.ALINEA, parent, match.group(2)
        return None

    def continuation(self, line: _Line) -> None:
        """A line that starts no dispositivo: heading, header/footer, or the rest of a hard-wrapped one."""
        state = self.state
        if _HEADING.match(line.text) or _is_all_caps(line.text):
            state.in_heading = True
            return
        if state.in_heading or state.current is None:
            return
        if state.previous_blank:
            # Blank-line separated texts (Votuporanga) never wrap a dispositivo over a blank line: a loose
            # block there is a heading or an editorial note, not more text of the dispositivo above.
            state.in_heading = True
            return
        last = state.current.versions[-1]
        state.current.versions[-1] = Wording(
            last.version_key,
            last.valid_from,
            last.valid_until,
            f"{last.text} {line.text}".strip(),
            last.line,
            last.inserted,
        )

    def add(
        self,
        line: _Line,
        dispositivo_id: str,
        kind: Kind,
        parent: str | None,
        text: str,
        note: tuple[str, str] | None,
    ) -> None:
        if parent is not None and parent not in self.dispositivos:
            raise self.error(
                line,
                f"{dispositivo_id} appears before its parent {parent}",
                f"{dispositivo_id} aparece antes do dispositivo pai {parent}",
            )
        amendment = self.amendment_for(line, note)
        existing = self.dispositivos.get(dispositivo_id)
        earlier = self.earlier_wording_after(line)
        if note is not None and note[0] == "rewording" and existing is None and earlier is not None:
            # A consolidated text: the wording in force, then the earlier one in brackets.
            existing = self.create(line, dispositivo_id, kind, parent, earlier, None)
        if note is not None and note[0] == "rewording":
            dispositivo = self.reword(line, existing, dispositivo_id, text, amendment)
        elif note is not None and note[0] == "repeal" and amendment is not None:
            dispositivo = self.repeal(line, existing, dispositivo_id, kind, parent, text, amendment)
        elif existing is not None:
            raise self.error(
                line,
                f"duplicate dispositivo {dispositivo_id} (first at line {existing.line}); if it is a new wording, "
                "the line must end with '(Redação dada pela <marker>)'",
                f"dispositivo {dispositivo_id} repetido (primeiro na linha {existing.line})",
            )
        else:
            dispositivo = self.create(line, dispositivo_id, kind, parent, text, amendment)
        self.move_to(dispositivo)

    def create(
        self,
        line: _Line,
        dispositivo_id: str,
        kind: Kind,
        parent: str | None,
        text: str,
        amendment: Amendment | None,
    ) -> Dispositivo:
        """A new dispositivo: original wording, or inserted by ``amendment`` from its start date."""
        self.check_numbering(line, dispositivo_id, kind, parent)
        start = amendment.in_force if amendment else self.inherited_start(parent)
        key = amendment.key if amendment else ORIGINAL
        wording = Wording(key, start, None, text, line.number, inserted=amendment is not None)
        dispositivo = Dispositivo(dispositivo_id, kind, parent, line.number, [wording])
        self.dispositivos[dispositivo_id] = dispositivo
        return dispositivo

    def check_numbering(self, line: _Line, dispositivo_id: str, kind: Kind, parent: str | None) -> None:
        """Dispositivos are numbered in sequence; a gap or a step back means a misread line.

        In hard-wrapped texts a continuation line can start like an inciso ("V - …") or an alínea ("a) …");
        numbering is the check that catches it: articles increase, and the n-th inciso/alínea/paragraph of a
        parent is numbered n (a lettered one, "§ 2º-A", follows its base number).
        """
        siblings = [d.id for d in self.dispositivos.values() if d.kind is kind and d.parent == parent]
        previous = _sequence_key(siblings[-1]) if siblings else None
        current = _sequence_key(dispositivo_id)
        if kind is Kind.ARTICLE:
            in_order = previous is None or current > previous
        elif current[1]:
            in_order = previous is not None and current[0] == previous[0] and current[1] > previous[1]
        else:
            in_order = current[0] == (previous[0] + 1 if previous else 1) or dispositivo_id.endswith("_parun")
        if not in_order:
            after = f"after {siblings[-1]}" if siblings else "as the first of its kind"
            raise self.error(
                line,
                f"{dispositivo_id} is out of sequence ({after}); if a wrapped line starts like a dispositivo, "
                "join it to the previous line in law.txt",
                f"{dispositivo_id} fora de sequência ({after}); verifique se uma linha quebrada foi lida como "
                "novo dispositivo",
            )

    def amendment_for(self, line: _Line, note: tuple[str, str] | None) -> Amendment | None:
        if note is None:
            return None
        marker = note[1]
        if marker not in self.amendments:
            declared = ", ".join(repr(m) for m in self.amendments) or "none"
            raise self.error(
                line,
                f"amendment marker {marker!r} is not declared in regime.yaml (acts[].amendments[].marker); "
                f"declared: {declared}",
                f"a alteração {marker!r} não está declarada em regime.yaml (acts[].amendments[].marker)",
            )
        return self.amendments[marker]

    def reword(
        self,
        line: _Line,
        existing: Dispositivo | None,
        dispositivo_id: str,
        text: str,
        amendment: Amendment | None,
    ) -> Dispositivo:
        if existing is None or amendment is None:
            raise self.error(
                line,
                f"new wording of {dispositivo_id} but no earlier wording precedes it",
                f"nova redação de {dispositivo_id} sem redação anterior no texto",
            )
        last = existing.versions[-1]
        if amendment.in_force <= last.valid_from:
            raise self.error(
                line,
                f"amendment {amendment.key} starts on or before the wording it replaces",
                f"a alteração {amendment.key} começa antes da redação que substitui",
            )
        existing.versions[-1] = Wording(
            last.version_key,
            last.valid_from,
            amendment.in_force - dt.timedelta(days=1),
            last.text,
            last.line,
            last.inserted,
        )
        existing.versions.append(Wording(amendment.key, amendment.in_force, None, text, line.number))
        return existing

    def repeal(
        self,
        line: _Line,
        existing: Dispositivo | None,
        dispositivo_id: str,
        kind: Kind,
        parent: str | None,
        text: str,
        amendment: Amendment,
    ) -> Dispositivo:
        """'(Revogado pela X)': the dispositivo's last wording ends the day before X takes effect.

        Compiled texts often print only the note in place of the revoked text; then the dispositivo is
        created with that note as its (only) wording, valid until the repeal.
        """
        until = amendment.in_force - dt.timedelta(days=1)
        if existing is None:
            start = self.inherited_start(parent)
            note = text or f"(revogado pela {amendment.cite_as or amendment.marker})"
            existing = Dispositivo(
                dispositivo_id,
                kind,
                parent,
                line.number,
                [Wording(ORIGINAL, start, until, note, line.number)],
            )
            self.dispositivos[dispositivo_id] = existing
            return existing
        last = existing.versions[-1]
        existing.versions[-1] = Wording(
            last.version_key, last.valid_from, until, last.text, last.line, last.inserted
        )
        return existing

    def inherited_start(self, parent: str | None) -> dt.date:
        """An unmarked child of an inserted dispositivo exists only from the insertion."""
        if parent is None:
            return self.in_force
        return self.dispositivos[parent].versions[0].valid_from

    def move_to(self, dispositivo: Dispositivo) -> None:
        state = self.state
        state.current = dispositivo
        if dispositivo.kind is Kind.ARTICLE:
            state.article, state.paragraph, state.inciso = dispositivo.id, None, None
        elif dispositivo.kind is Kind.PARAGRAPH:
            state.paragraph, state.inciso = dispositivo.id, None
        elif dispositivo.kind is Kind.INCISO:
            state.inciso = dispositivo.id


def _sequence_key(dispositivo_id: str) -> tuple[int, str]:
    """(number, letter) of the last level of an id: art11A → (11, "A"), incXIV → (14, ""), c → (3, "")."""
    last = dispositivo_id.rsplit("_", 1)[-1]
    match = _ID_PART.match(last)
    if match is None or last == "parun":
        return (1, "")
    art, art_letter, par, par_letter, inciso, alinea = match.groups()
    if art is not None:
        return (int(art), art_letter)
    if par is not None:
        return (int(par), par_letter)
    if inciso is not None:
        return (roman_to_int(inciso), "")
    return (ord(alinea) - ord("a") + 1, "")


def _split_amendment_note(text: str) -> tuple[str, tuple[str, str] | None]:
    """Strip a trailing "(Redação dada pela X)" / "(Inserido pela X)"; return (text, (kind, marker))."""
    match = _AMENDMENT_NOTE.search(text)
    if match is None:
        return text, None
    word = match.group(1).lower()
    kind = "rewording" if word.startswith("reda") else "repeal" if word.startswith("revog") else "insertion"
    marker = re.sub(r"^(?:a|o)\s+", "", match.group(2).strip())
    return text[: match.start()].rstrip(), (kind, marker)


def _is_roman(numeral: str) -> bool:
    try:
        roman_to_int(numeral)
    except ValueError:
        return False
    return True


def _is_all_caps(text: str) -> bool:
    letters = [c for c in text if c.isalpha()]
    return len(letters) >= 3 and all(c.isupper() for c in letters)


def parse_law_text(
    text: str, *, source: str, in_force: dt.date, amendments: Sequence[Amendment] = ()
) -> LawText:
    """Parse a law text into dispositivos; raises LawTextError (file:line) on anything it cannot place."""
    return _Parser(source, in_force, amendments).run(text)
