"""CNAB 240 return files of boleto/DAM collection (FEBRABAN layout, segments T and U), read for settlement.

Each detail record (record type 3) is 240 characters; a title is a segment T followed by its segment U. The
fields read, by their 1-based positions in the FEBRABAN layout:

    T: 001–003 bank · 008 record type "3" · 014 segment "T" · 016–017 movement code · 038–057 nosso número ·
       059–073 número do documento (Outorga writes the guide number there, e.g. "000123/2026") ·
       074–081 due date (DDMMAAAA) · 082–096 nominal value (13 digits + 2 decimals)
    U: 014 segment "U" · 016–017 movement code · 018–032 interest/fine · 033–047 discount ·
       078–092 amount paid · 138–145 date of the occurrence (payment) · 146–153 date of the credit

Movement 06 (liquidação) and 17 (liquidação após baixa) are payments; any other movement (entrada confirmada,
baixa, tarifa…) is listed in the preview and ignored. A malformed file is refused whole, naming the line.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

LINE_LENGTH = 240
PAYMENT_MOVEMENTS = {"06": "Liquidação", "17": "Liquidação após baixa"}


class CnabError(ValueError):
    """A file that is not a CNAB 240 return; the message (Portuguese) names the line."""


@dataclass(frozen=True)
class Title:
    line: int
    bank: str
    movement: str
    our_number: str
    document_number: str
    due_on: dt.date | None
    nominal_brl: Decimal
    charges_brl: Decimal
    discount_brl: Decimal
    paid_brl: Decimal
    paid_on: dt.date | None
    credited_on: dt.date | None

    @property
    def is_payment(self) -> bool:
        return self.movement in PAYMENT_MOVEMENTS

    @property
    def key(self) -> str:
        """What makes this payment unique across files (a file applied twice settles once)."""
        day = self.paid_on.strftime("%Y%m%d") if self.paid_on else "sem-data"
        return f"CNAB{self.bank}{self.our_number.strip()}{day}"[:64]

    @property
    def movement_label(self) -> str:
        return PAYMENT_MOVEMENTS.get(self.movement, f"Movimento {self.movement} (não é pagamento)")


def _money(text: str, line: int) -> Decimal:
    if not text.strip().isdigit():
        raise CnabError(f"Linha {line}: valor não numérico ({text.strip() or 'em branco'}).")
    return Decimal(int(text)) / 100


def _date(text: str, line: int) -> dt.date | None:
    if text.strip("0 ") == "":
        return None
    try:
        return dt.datetime.strptime(text, "%d%m%Y").date()
    except ValueError:
        raise CnabError(f"Linha {line}: data inválida ({text}).") from None


def parse(content: str) -> list[Title]:
    """The titles of a return file; CnabError for anything that is not one."""
    lines = [raw.rstrip("\r") for raw in content.split("\n") if raw.strip("\r")]
    if not lines or lines[0][7:8] != "0":
        raise CnabError("O arquivo não começa com o header de arquivo CNAB 240 (registro tipo 0).")
    titles: list[Title] = []
    pending_t: tuple[int, str] | None = None
    for number, line in enumerate(lines, start=1):
        if len(line) != LINE_LENGTH:
            raise CnabError(f"Linha {number}: tem {len(line)} caracteres; o CNAB 240 exige {LINE_LENGTH}.")
        if line[7] != "3":
            continue
        segment = line[13]
        if segment == "T":
            if pending_t is not None:
                raise CnabError(f"Linha {pending_t[0]}: segmento T sem o segmento U que o completa.")
            pending_t = (number, line)
        elif segment == "U":
            if pending_t is None:
                raise CnabError(f"Linha {number}: segmento U sem o segmento T que o precede.")
            titles.append(_title(pending_t[0], pending_t[1], line))
            pending_t = None
    if pending_t is not None:
        raise CnabError(f"Linha {pending_t[0]}: segmento T sem o segmento U que o completa.")
    return titles


def _title(number: int, t: str, u: str) -> Title:
    return Title(
        line=number,
        bank=t[0:3],
        movement=t[15:17],
        our_number=t[37:57].strip(),
        document_number=t[58:73].strip(),
        due_on=_date(t[73:81], number),
        nominal_brl=_money(t[81:96], number),
        charges_brl=_money(u[17:32], number + 1),
        discount_brl=_money(u[32:47], number + 1),
        paid_brl=_money(u[77:92], number + 1),
        paid_on=_date(u[137:145], number + 1),
        credited_on=_date(u[145:153], number + 1),
    )
