"""``python -m lawcode new-regime``: a regime folder's skeleton, written from the text of its law(s).

    python -m lawcode new-regime --law lei-8698-2012.txt --law lei-9093-2014.txt --id exemplo_sp_taxi

What it writes (never over an existing folder) is a head start for a person, not a regime:

- ``law.txt`` (and one ``<act key>.txt`` per further act), verbatim, parsed into dispositivos by lawcode.texts;
  the lines the parser could not place in any dispositivo are reported, with their line numbers;
- ``regime.yaml`` with the acts, their numbers and the dates found in the text (enactment, publication, entry
  into force after a vacatio legis, amending acts), each guess commented for a person to confirm;
- ``not_computable.yaml`` empty, listing every dispositivo as a comment marked A FAZER — so ``coverage``
  shows them all as LACUNA until a rule, parameter, infraction or interpretation cites each;
- ``procedure.yaml`` with every section marked ``todo`` (loading fails, naming each, until a person writes
  them: a law's due process cannot be guessed);
- ``candidate_parameters.yaml``: every number of days, years, months, hours, seats/vehicles/permits/inhabitants,
  percentage and amount in UFESP/UFM/R$ found in the text (digits, small numbers spelled out, "em dobro"),
  with its citation, for a person to confirm
  (copy into parameters.yaml) or discard;
- empty parameters, interpretations, catalog and calendar files, ``__init__.py`` and ``rules/__init__.py``.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

from lawcode.deadlines import in_force_after_vacatio
from lawcode.errors import RegimeDefinitionError
from lawcode.texts import (
    _HEADING,
    Amendment,
    EditorialNote,
    LawText,
    _is_all_caps,
    _Line,
    _Parser,
    _split_amendment_note,
)

MONTHS = {
    "janeiro": 1,
    "fevereiro": 2,
    "março": 3,
    "marco": 3,
    "abril": 4,
    "maio": 5,
    "junho": 6,
    "julho": 7,
    "agosto": 8,
    "setembro": 9,
    "outubro": 10,
    "novembro": 11,
    "dezembro": 12,
}
_REGIME_ID = re.compile(r"^([a-z][a-z0-9_]*)_([a-z]{2})_([a-z][a-z0-9]*)$")
_DATE = r"(\d{1,2})\s*[/.]\s*(\d{1,2})\s*[/.]\s*(\d{4})|(\d{1,2})º?\s+de\s+([a-zç]+)\s+de\s+(\d{4})"
_LAW_TITLE = re.compile(
    r"\bLEI(?:\s+(?:MUNICIPAL|ORDIN[ÁA]RIA|COMPLEMENTAR))?\s+N[º°o.]*\s*([\d.]+)(?:\s*/\s*(\d{4}))?"
    rf"(?:\s*,?\s*DE\s+(?:{_DATE}))?",
    re.IGNORECASE,
)
_PUBLISHED = re.compile(
    rf"(?:Pub\.|publicad[ao]|publica[çc][ãa]o)[^\n]*?(?:\bde|\bem|\bno dia|\bdia)\s+(?:{_DATE})",
    re.IGNORECASE,
)
# An amendment marker that says when the amending law was published ("…, publicada em 12.03.2019").
_MARKER_PUBLISHED = re.compile(
    rf"publicad[ao]\s+(?:no\s+[^,;]*?\s+)?(?:em|dia|no dia)\s+(?:{_DATE})", re.IGNORECASE
)
_ON_PUBLICATION = re.compile(r"entra(?:rá)?\s+em\s+vigor\s+na\s+data\s+de\s+sua\s+publica", re.IGNORECASE)
_VACATIO = re.compile(
    r"entra(?:rá)?\s+em\s+vigor\s+(\d+)\s*(?:\([^)]*\))?\s*dias\s+(?:após|depois\s+d)a?\s*(?:sua\s+)?publica",
    re.IGNORECASE,
)
_MUNICIPALITY = re.compile(
    r"(?i:Prefeit(?:o|ura)\s+Municipal\s+d[aeo]\s+(?:Est[âa]ncia\s+\w+\s+de\s+)?)"
    r"([A-ZÀ-Ý][\wÀ-ÿ']*(?:[ \t]+(?:[Dd][AEOaeo][Ss]?[ \t]+)?[A-ZÀ-Ý][\wÀ-ÿ']*)*)"
)
_NUMBER = r"(?<![\d/.,º°])(\d{1,3}(?:\.\d{3})+(?:,\d+)?|\d+(?:,\d+)?)(?![\d/])"
_SPELLED = r"(?:\s*\([^)]{1,60}\))?"
# (pattern after the number, unit, what) — the order matters: "dias úteis" before "dias".
_UNITS: tuple[tuple[str, str, str], ...] = (
    (r"dias?\s+[úu]teis", "business_days", "dias úteis"),
    (r"dias?\s+corridos", "calendar_days", "dias corridos"),
    (r"dias?\b", "days", "dias"),
    (r"anos?\b", "years", "anos"),
    (r"m[eê]s(?:es)?\b", "months", "meses"),
    (r"horas?\b", "hours", "horas"),
    (r"UFESP['’]?s?\b", "ufesp", "UFESP"),
    (r"UFM['’]?s?\b", "ufm", "UFM"),
    (r"(?:%|por\s+cento)", "percent", "por cento"),
    (
        r"(lugares|assentos|passageiros|pessoas|portas|habitantes|ve[íi]culos?|permiss[õo]es|alunos|condutores|"
        r"monitor(?:es)?|cilindradas|t[áa]xis?|"
        r"auxiliar(?:es)?|autoriza[çc][õo]es|substitui[çc][õo]es|trocas?|associados|cooperados)\b",
        "count",
        "",
    ),
)
_MONEY = re.compile(r"R\$\s*" + _NUMBER)
# Numbers the law spells out ("duas substituições", "vinte e um anos", "cento e trinta e cinco UFM", "mil e
# quinhentos habitantes"), and "em dobro" (a multiplier of 2). A spelled number right after the same number in
# digits ("15 (quinze) dias") is not counted twice: the digits already were.
_UNITS_WORDS = {
    "zero": 0, "um": 1, "uma": 1, "dois": 2, "duas": 2, "três": 3, "tres": 3, "quatro": 4, "cinco": 5,
    "seis": 6, "sete": 7, "oito": 8, "nove": 9, "dez": 10, "onze": 11, "doze": 12, "treze": 13,
    "catorze": 14, "quatorze": 14, "quinze": 15, "dezesseis": 16, "dezessete": 17, "dezoito": 18,
    "dezenove": 19,
}  # fmt: skip
_TENS_WORDS = {
    "vinte": 20, "trinta": 30, "quarenta": 40, "cinquenta": 50, "cinqüenta": 50, "sessenta": 60,
    "setenta": 70, "oitenta": 80, "noventa": 90,
}  # fmt: skip
_HUNDREDS_WORDS = {
    "cem": 100, "cento": 100, "duzentos": 200, "duzentas": 200, "trezentos": 300, "trezentas": 300,
    "quatrocentos": 400, "quatrocentas": 400, "quinhentos": 500, "quinhentas": 500, "seiscentos": 600,
    "seiscentas": 600, "setecentos": 700, "setecentas": 700, "oitocentos": 800, "oitocentas": 800,
    "novecentos": 900, "novecentas": 900,
}  # fmt: skip
_NUMBER_WORDS = {**_UNITS_WORDS, **_TENS_WORDS, **_HUNDREDS_WORDS, "mil": 1000}
_WORD = "|".join(sorted(_NUMBER_WORDS, key=len, reverse=True))
_SPELLED_NUMBER = re.compile(rf"(?<![(\w])((?:{_WORD})(?:(?:\s+e\s+|\s+)(?:{_WORD}))*)\b\s+", re.IGNORECASE)


def spelled_number(text: str) -> int | None:
    """The value of a number written in Portuguese words ("vinte e um" = 21, "cento e trinta e cinco" = 135,
    "dois mil e quinhentos" = 2500); None when the words do not form one number."""
    words = [w for w in re.split(r"\s+", text.strip().lower()) if w and w != "e"]
    if not words or any(w not in _NUMBER_WORDS for w in words):
        return None
    total, group = 0, 0
    for word in words:
        value = _NUMBER_WORDS[word]
        if value == 1000:
            total += (group or 1) * 1000
            group = 0
        else:
            group += value
    return total + group


_DOUBLE = re.compile(r"\bem\s+dobro\b", re.IGNORECASE)


@dataclass(frozen=True)
class UnplacedLine:
    line: int
    text: str
    after: str | None
    """The dispositivo just above (the line probably belongs to it)."""


@dataclass(frozen=True)
class Candidate:
    value: Decimal
    unit: str
    cite: str
    line: int
    excerpt: str
    what: str = ""
    placed: bool = True
    until: dt.date | None = None
    """Found in an earlier wording, in force until this day (a value for the period before the amendment)."""


@dataclass(frozen=True)
class ActDraft:
    key: str
    file: str
    source: Path
    text: str
    title: str
    enacted: dt.date | None
    published: dt.date | None
    in_force: dt.date | None
    in_force_reason: str
    amendments: tuple[Amendment, ...]
    law: LawText
    unplaced: tuple[UnplacedLine, ...]
    owners: dict[int, str | None] = field(repr=False)
    severity: dict[str, str] = field(default_factory=dict)
    """The severity heading each inciso sits under (leve, media, grave, gravissima), for the catalog draft."""
    notes: tuple[EditorialNote, ...] = ()
    """Bracketed notes of a consolidated text: earlier wordings (with the day they ended) and editorial notes."""


@dataclass(frozen=True)
class Skeleton:
    regime_id: str
    folder: Path
    municipality: str
    uf: str
    kind: str
    acts: tuple[ActDraft, ...]
    candidates: tuple[Candidate, ...]


# Severity headings inside an article ("LEVES", "MÉDIAS", "GRAVES", "GRAVÍSSIMAS", "INFRAÇÕES GRAVES").
_SEVERITY = re.compile(r"\b(LEVES?|M[ÉE]DIAS?|GRAV[ÍI]SSIMAS?|GRAVES?)\b", re.IGNORECASE)
_SEVERITY_KEYS = {"leve": "leve", "media": "media", "grave": "grave", "gravissima": "gravissima"}


class _TracingParser(_Parser):
    """The law-text parser, remembering which dispositivo each line went to, which lines it dropped, and the
    severity heading (LEVES, GRAVES…) each inciso sits under."""

    def __init__(self, source: str, in_force: dt.date, amendments: Sequence[Amendment]) -> None:
        super().__init__(source, in_force, amendments)
        self.owners: dict[int, str | None] = {}
        self.unplaced: list[UnplacedLine] = []
        self.severity: dict[str, str] = {}
        self._heading_severity: tuple[str | None, str] | None = None

    def feed(self, line: _Line) -> None:
        before = self.state.current
        super().feed(line)
        current = self.state.current
        self.owners[line.number] = current.id if current is not None else None
        if current is not None and current is not before:
            heading = self._heading_severity
            if heading is not None and heading[0] == self.state.article and current.id != self.state.article:
                self.severity[current.id] = heading[1]
            elif current.id == self.state.article:
                self._heading_severity = None  # a new article: its own headings, if any

    def continuation(self, line: _Line) -> None:
        state = self.state
        if _is_all_caps(line.text) and (match := _SEVERITY.search(line.text)):
            word = unicodedata.normalize("NFKD", match.group(1).lower()).encode("ascii", "ignore").decode()
            self._heading_severity = (state.article, _SEVERITY_KEYS[word.rstrip("s")])
        structural = bool(_HEADING.match(line.text)) or _is_all_caps(line.text)
        if state.current is not None and not structural and (state.in_heading or state.previous_blank):
            self.unplaced.append(UnplacedLine(line.number, line.text, state.current.id))
        super().continuation(line)


def build_skeleton(
    laws: Sequence[Path], regime_id: str, out: Path, municipality: str | None = None
) -> Skeleton:
    """Read and parse the laws (the first is the regime's main act) and gather what the skeleton holds."""
    match = _REGIME_ID.match(regime_id)
    if match is None:
        raise RegimeDefinitionError(
            f"regime id {regime_id!r} must read <municipality>_<uf>_<kind>, e.g. exemplo_sp_escolar",
            message_pt=f"o id {regime_id!r} deve ser <município>_<uf>_<tipo>, por exemplo exemplo_sp_escolar",
            field="id",
        )
    town_slug, uf, kind = match.groups()
    texts = [_read(path) for path in laws]
    town = municipality or _municipality(texts[0]) or town_slug.replace("_", " ").title()
    slug = _slug(town)
    acts = tuple(
        _act(path, text, slug, first=index == 0)
        for index, (path, text) in enumerate(zip(laws, texts, strict=True))
    )
    main_key = acts[0].key
    candidates = tuple(c for act in acts for c in candidate_parameters(act, main_key))
    return Skeleton(regime_id, out / regime_id, town, uf.upper(), kind, acts, candidates)


def _read(path: Path) -> str:
    """The text as published: UTF-8, or Windows-1252 (common on municipal sites) — accents kept either way."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise RegimeDefinitionError(f"cannot read {path} ({exc.strerror})", file=str(path)) from exc
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("cp1252", errors="strict")


def _act(path: Path, text: str, town_slug: str, *, first: bool) -> ActDraft:
    title_match = _LAW_TITLE.search(text)
    number = title_match.group(1).rstrip(".") if title_match else None
    enacted = _date_from(title_match.groups()[2:]) if title_match else None
    year = (title_match.group(2) if title_match else None) or (str(enacted.year) if enacted else None)
    key = f"{town_slug}-{(number or 'lei').replace('.', '')}-{year or 'ano'}"
    published = _published(text)
    in_force, reason = _in_force(text, enacted, published)
    amendments = _amendments(text)
    start = in_force or enacted or dt.date(1900, 1, 1)
    parser = _TracingParser(str(path), start, amendments)
    law = parser.run(text)
    dated = _dated_by_earlier_wordings(law, parser.notes, amendments)
    if dated != amendments:  # an earlier wording's last day dates the amendment that replaced it
        amendments = dated
        parser = _TracingParser(str(path), start, amendments)
        law = parser.run(text)
    return ActDraft(
        key=key,
        file="law.txt" if first else f"{key}.txt",
        source=path,
        text=text,
        title=_title(number, year, enacted),
        enacted=enacted,
        published=published,
        in_force=in_force,
        in_force_reason=reason,
        amendments=amendments,
        law=law,
        unplaced=tuple(parser.unplaced),
        owners=parser.owners,
        notes=tuple(parser.notes),
        severity=dict(parser.severity),
    )


def _dated_by_earlier_wordings(
    law: LawText, notes: Sequence[EditorialNote], amendments: tuple[Amendment, ...]
) -> tuple[Amendment, ...]:
    """A consolidated text says how long the earlier wording lasted ("[até 20.06.2013: (redação original) …]"):
    the amendment that gave the dispositivo its current wording is in force from the next day — the date of its
    publication, not of the marker."""
    by_key = {amendment.key: amendment for amendment in amendments}
    changed: dict[str, Amendment] = {}
    for note in notes:
        if note.until is None or note.after is None or note.after not in law.ids():
            continue
        key = law.get(note.after).versions[-1].version_key
        if key in by_key:
            amendment = by_key[key]
            changed[key] = Amendment(amendment.key, amendment.marker, note.until + dt.timedelta(days=1))
    return tuple(changed.get(amendment.key, amendment) for amendment in amendments)


def _date_from(groups: Sequence[str | None]) -> dt.date | None:
    day, month, year, day_w, month_w, year_w = (list(groups) + [None] * 6)[:6]
    try:
        if day and month and year:
            return dt.date(int(year), int(month), int(day))
        if day_w and month_w and year_w and month_w.lower() in MONTHS:
            return dt.date(int(year_w), MONTHS[month_w.lower()], int(day_w))
    except ValueError:
        return None
    return None


def _published(text: str) -> dt.date | None:
    match = _PUBLISHED.search(text)
    return _date_from(match.groups()) if match else None


def _in_force(text: str, enacted: dt.date | None, published: dt.date | None) -> tuple[dt.date | None, str]:
    if vacatio := _VACATIO.search(text):
        days = int(vacatio.group(1))
        base = published or enacted
        if base is not None:
            return in_force_after_vacatio(
                base, days
            ), f"{days} dias após a publicação (LC 95/1998, art. 8º, § 1º)"
        return None, f"{days} dias após a publicação, mas a data de publicação não foi encontrada"
    if _ON_PUBLICATION.search(text):
        base = published or enacted
        shown = "publicação" if published else "data da lei (publicação não encontrada: confirme)"
        return base, f"em vigor na data de sua publicação — usada a {shown}"
    return enacted, "cláusula de vigência não encontrada: confirme a data"


def _amendments(text: str) -> tuple[Amendment, ...]:
    markers: dict[str, Amendment] = {}
    for raw in text.splitlines():
        _, note = _split_amendment_note(raw.strip())
        if note is None or note[1] in markers:
            continue
        marker = note[1]
        published = _MARKER_PUBLISHED.search(marker)
        found = published or re.search(_DATE, marker)
        on = _date_from(found.groups()) if found else None
        number = re.search(r"(\d[\d.]*)", marker)
        year = on.year if on else "ano"
        key = f"lei{number.group(1).replace('.', '') if number else 'x'}_{year}"
        markers[marker] = Amendment(key, marker, on or dt.date(1900, 1, 1))
    return tuple(markers.values())


def _title(number: str | None, year: str | None, enacted: dt.date | None) -> str:
    if enacted is not None:
        month = next(name for name, value in MONTHS.items() if value == enacted.month and name != "marco")
        return f"Lei nº {number}, de {enacted.day} de {month} de {enacted.year}"
    return f"Lei nº {number or '?'}/{year or '?'}"


def _municipality(text: str) -> str | None:
    match = _MUNICIPALITY.search(text)
    if match is None:
        return None
    name = match.group(1).strip()
    return _title_case(name) if name.isupper() else name


def _title_case(name: str) -> str:
    small = {"de", "da", "do", "das", "dos", "e"}
    return " ".join(w.lower() if w.lower() in small else w.capitalize() for w in name.split())


def _slug(name: str) -> str:
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")


def candidate_parameters(act: ActDraft, main_key: str) -> list[Candidate]:
    """Every number with a unit in the act's text, cited to the dispositivo holding (or just above) it."""
    prefix = "" if act.key == main_key else f"{act.key}:"
    unplaced = {item.line: item for item in act.unplaced}
    out: list[Candidate] = []
    for number, raw in enumerate(act.text.splitlines(), 1):
        owner = act.owners.get(number)
        placed = number not in unplaced
        if owner is None and placed:
            continue  # header, signature or a heading: nothing there is a parameter of a dispositivo
        owner = owner or unplaced[number].after
        cite = f"{prefix}{owner}"
        for value, unit, what, start, end in _numbers(raw):
            excerpt = raw[max(0, start - 60) : end + 40].strip()
            out.append(Candidate(value, unit, cite, number, excerpt, what, placed))
    lines = act.text.splitlines()
    for note in act.notes:
        if note.until is None or note.after is None:
            continue  # an editorial note, not a wording: its numbers are no parameter
        for number in range(note.line, note.last_line + 1):
            raw = lines[number - 1]
            for value, unit, what, start, end in _numbers(raw):
                excerpt = raw[max(0, start - 60) : end + 40].strip()
                cite = f"{prefix}{note.after}"
                out.append(Candidate(value, unit, cite, number, excerpt, what, True, note.until))
    return sorted(out, key=lambda c: c.line)


def _numbers(line: str) -> list[tuple[Decimal, str, str, int, int]]:
    found: list[tuple[Decimal, str, str, int, int]] = []
    taken: list[tuple[int, int]] = []
    for match in _MONEY.finditer(line):
        found.append((_decimal(match.group(1)), "brl", "reais", match.start(), match.end()))
        taken.append(match.span())
    for match in re.finditer(_NUMBER + _SPELLED + r"\s*", line):
        if any(start <= match.start() < end for start, end in taken):
            continue
        unit = _unit_after(line[match.end() :])
        if unit is not None:
            found.append((_decimal(match.group(1)), unit[0], unit[1], match.start(), match.end() + unit[2]))
    for match in _SPELLED_NUMBER.finditer(line):
        unit = _unit_after(line[match.end() :])
        number = spelled_number(match.group(1))
        if unit is not None and number is not None:
            found.append((Decimal(number), unit[0], unit[1], match.start(), match.end() + unit[2]))
    for match in _DOUBLE.finditer(line):
        found.append((Decimal(2), "count", "em dobro (multiplicador)", match.start(), match.end()))
    return sorted(found, key=lambda item: item[3])


def _unit_after(rest: str) -> tuple[str, str, int] | None:
    """(unit, what, length) of the unit word that starts ``rest``, if any."""
    for pattern, unit, what in _UNITS:
        unit_match = re.match(pattern, rest, re.IGNORECASE)
        if unit_match:
            return unit, what or unit_match.group(1).lower(), unit_match.end()
    return None


def _decimal(text: str) -> Decimal:
    return Decimal(text.replace(".", "").replace(",", "."))


# --- writing ----------------------------------------------------------------------------------------------


def write_skeleton(skeleton: Skeleton) -> list[Path]:
    """Write the folder; refuses to touch an existing one. Returns the files written."""
    folder = skeleton.folder
    if folder.exists():
        raise RegimeDefinitionError(
            f"{folder} already exists; new-regime never overwrites a folder",
            message_pt=f"{folder} já existe; new-regime nunca sobrescreve uma pasta",
            file=str(folder),
        )
    files = {
        **EMPTY_FILES,
        "catalog.yaml": _catalog_yaml(skeleton),
        "regime.yaml": _regime_yaml(skeleton),
        "procedure.yaml": PROCEDURE_TODO,
        "not_computable.yaml": _not_computable_yaml(skeleton),
        "candidate_parameters.yaml": _candidates_yaml(skeleton),
        "__init__.py": f'"""{skeleton.acts[0].title} — {skeleton.municipality}/{skeleton.uf}."""\n\n'
        "from . import rules as rules\n",
    }
    for act in skeleton.acts:
        files[act.file] = act.text
    written = []
    for relative, text in files.items():
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


def _yaml_date(value: dt.date | None) -> str:
    return value.isoformat() if value else "null  # A FAZER: não encontrada no texto"


def _regime_yaml(skeleton: Skeleton) -> str:
    lines = [
        "# Gerado por python -m lawcode new-regime a partir do texto da lei: confirme cada valor.",
        f"id: {skeleton.regime_id}",
        f"name: {skeleton.kind} — {skeleton.municipality}/{skeleton.uf}  # A FAZER: nome do serviço",
        f"municipality: {skeleton.municipality}",
        f"uf: {skeleton.uf}",
        f"kind: {skeleton.kind}",
        "acts:",
    ]
    for act in skeleton.acts:
        lines += [
            f"  - key: {act.key}",
            f"    file: {act.file}",
            f"    title: {act.title}",
            f"    enacted: {_yaml_date(act.enacted)}",
            f"    published: {_yaml_date(act.published)}",
            f"    in_force: {_yaml_date(act.in_force)}  # {act.in_force_reason}",
        ]
        for note in act.notes:
            lines.append(f"    # linha {note.line}: {_note_pt(note)}")
        if not act.amendments:
            lines.append("    amendments: []")
            continue
        lines.append("    amendments:  # confirme a data em que cada redação passou a valer")
        for amendment in act.amendments:
            lines += [
                f"      - key: {amendment.key}",
                f'        marker: "{amendment.marker}"',
                f"        in_force: {amendment.in_force.isoformat()}",
            ]
    return "\n".join(lines) + "\n"


def _catalog_yaml(skeleton: Skeleton) -> str:
    """The empty catalog, with every inciso found under a severity heading listed as a draft comment (its
    severity and its "Penalidade: …" line), for a person to turn into entries."""
    lines = [EMPTY_FILES["catalog.yaml"].rstrip("\n")]
    for act in skeleton.acts:
        prefix = "" if act is skeleton.acts[0] else f"{act.key}:"
        for dispositivo_id, severity in act.severity.items():
            text = " ".join(act.law.get(dispositivo_id).text.split())
            shown = text if len(text) <= 100 else text[:97] + "..."
            lines.append(f"# A FAZER: {prefix}{dispositivo_id} ({severity}) — {shown}")
    return "\n".join(lines) + "\n"


def _note_pt(note: EditorialNote) -> str:
    """How the skeleton reports a bracketed note of a consolidated text (kept out of the dispositivos)."""
    where = f" de {note.after}" if note.after else ""
    if note.until is not None:
        since = note.until + dt.timedelta(days=1)
        return (
            f"redação anterior{where} em vigor até {note.until:%d/%m/%Y}: a redação atual vale desde "
            f"{since:%d/%m/%Y} (confirme) — {note.text[:120]}"
        )
    return f"nota do texto consolidado{where}: {note.text[:160]}"


def _not_computable_yaml(skeleton: Skeleton) -> str:
    lines = [
        "# Dispositivos que nenhuma regra, parâmetro, infração ou interpretação pode computar, cada um com o motivo.",
        "# new-regime listou abaixo TODOS os dispositivos como A FAZER: cite cada um no que o implementa e apague",
        "# a linha, ou passe-o para o mapa not_computable com o motivo. `coverage` mostra os pendentes como LACUNA.",
        "not_computable: {}",
    ]
    for act in skeleton.acts:
        prefix = "" if act is skeleton.acts[0] else f"{act.key}:"
        lines.append(f"# --- {act.title} ({act.file})")
        for dispositivo_id in act.law.ids():
            text = " ".join(act.law.get(dispositivo_id).text.split())
            shown = text if len(text) <= 90 else text[:87] + "..."
            lines.append(f"#   {prefix}{dispositivo_id}: A FAZER — {shown}")
    return "\n".join(lines) + "\n"


def _candidates_yaml(skeleton: Skeleton) -> str:
    lines = [
        "# Números com unidade encontrados no texto por python -m lawcode new-regime. Este arquivo não é carregado:",
        "# confirme cada um (copie para parameters.yaml: description, unit, values: [{from, value, cite}]) ou",
        "# descarte-o. placed: false = a linha ficou fora de qualquer dispositivo (cite é o dispositivo acima).",
        "candidates:" if skeleton.candidates else "candidates: []",
    ]
    for candidate in skeleton.candidates:
        lines += [
            f"  - cite: {candidate.cite}",
            f"    value: {candidate.value}",
            f"    unit: {candidate.unit}",
            f"    what: {_quoted(candidate.what)}",
            f"    line: {candidate.line}",
            f"    text: {_quoted(candidate.excerpt)}",
        ]
        if not candidate.placed:
            lines.append("    placed: false")
        if candidate.until is not None:
            lines.append(
                f"    until: {candidate.until.isoformat()}  # redação anterior, em vigor até este dia"
            )
    return "\n".join(lines) + "\n"


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


EMPTY_FILES = {
    "parameters.yaml": "# Parâmetros confirmados (veja candidate_parameters.yaml e docs/lawcode/design.md).\n{}\n",
    "interpretations.yaml": "# Cada ambiguidade da lei, como escolha nomeada (INT-...).\n{}\n",
    "catalog.yaml": "# Infrações: {code, cite, severity, title, description, keywords}.\ninfractions: []\n",
    "calendar.yaml": "# Feriados municipais e dias sem expediente (opcional).\nmunicipal_holidays: []\nclosures: []\n",
    "rules/__init__.py": '"""Os módulos de regras (@rule) do regime; importe cada um aqui."""\n',
}

PROCEDURE_TODO = """\
# O processo e a fiscalização como a lei os declara (docs/lawcode/design.md, "procedure.yaml"). Nada aqui
# pode ser adivinhado do texto: enquanto houver uma chave `todo`, o regime não carrega e o erro lista cada uma.
due_process:
  todo: >-
    instâncias em ordem (key first/second, label, cite, judged_by, engine_instance, suspensive,
    suspensive_cite) e fine_due_on_first_condemnation ({cite: …} ou {absent: motivo})
auto:
  todo: "{cite: artigo que lista o conteúdo do auto, items: [...], omission: {...}} ou {absent: motivo, omission: ...}"
clandestine:
  todo: "{cite: dispositivo, infraction: código do catálogo} ou {absent: motivo}"
traffic_only_guard:
  todo: >-
    {cite: dispositivo que afasta a penalidade municipal por fato punido só como infração de trânsito}
    ou {absent: motivo}
complaint_basis:
  todo: "cites: [dispositivos que uma denúncia do público invoca]"
nullity:
  todo: >-
    rules: [{limit: penalty_notice, cite: dispositivo, reason: o que o processo mostra}] para cada prazo cuja
    perda anula o auto ou a notificação, ou {absent: motivo}
electronic_notice:
  todo: >-
    {cite ou interpretation: base da notificação eletrônica, acts: [atos que ela pode levar], terms: {text: termos
    de adesão, cite ou interpretation}, lapse: {cite ou interpretation, days ou days_by_option, counting} ou
    {absent: motivo}} ou {absent: motivo} quando a lei não a admite
"""


def report(skeleton: Skeleton, written: Sequence[Path]) -> list[str]:
    """What the command prints: the folder, what the parser could not place, the candidates found."""
    lines = [f"pasta {skeleton.folder} ({len(written)} arquivos)"]
    for act in skeleton.acts:
        lines.append(
            f"{act.file}: {act.title} — {len(act.law.ids())} dispositivos; vigência {act.in_force_reason}"
        )
        for item in act.unplaced:
            after = f" (depois de {item.after})" if item.after else ""
            lines.append(f"  linha {item.line} não colocada em nenhum dispositivo{after}: {item.text[:100]}")
        for note in act.notes:
            lines.append(f"  linha {note.line}: {_note_pt(note)}")
    lines.append(
        f"candidate_parameters.yaml: {len(skeleton.candidates)} candidatos a parâmetro para confirmar"
    )
    lines.append("próximo passo: escreva procedure.yaml (o regime não carrega enquanto houver `todo`)")
    lines.append(
        "depois: escreva facts.yaml com application_fields (os campos do requerimento que a lei pede)"
    )
    return lines


def new_regime(laws: Sequence[Path], regime_id: str, out: Path, municipality: str | None = None) -> list[str]:
    """Build and write the skeleton; the report lines. LawTextError (file:line) when a text cannot be parsed."""
    if not laws:
        raise RegimeDefinitionError("give at least one --law file", message_pt="informe ao menos um --law")
    skeleton = build_skeleton(laws, regime_id, out, municipality)
    written = write_skeleton(skeleton)
    return report(skeleton, written)
