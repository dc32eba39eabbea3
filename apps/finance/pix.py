"""Static PIX BR Code (the "copia e cola" payload and the QR code content), per the Banco Central manual.

The payload is a list of EMV TLV fields (two-digit id, two-digit length, value), closed by a CRC16-CCITT-FALSE
over everything before it, including the "6304" of the CRC field itself:

    00 payload format "01"          01 point of initiation ("12": pay once; omitted in the manual's example)
    26 merchant account: 00 GUI "br.gov.bcb.pix", 01 PIX key, 02 optional description
    52 MCC "0000"   53 currency "986" (BRL)   54 amount "123.45" (optional)   58 country "BR"
    59 receiver name (≤ 25)   60 city (≤ 15)   62 additional data: 05 txid (≤ 25 alphanumeric, or "***")
    63 CRC

Names, cities and descriptions are made ASCII (accents stripped) because bank apps read bytes, and a byte
limit on "São José do Rio Preto" counts "ã" twice. Invalid input raises PixError with a Portuguese message
naming the field; nothing is silently truncated, so the receiver a payer sees is exactly what was configured.
"""

from __future__ import annotations

import re
import unicodedata
import uuid
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Literal

from validate_docbr import CNPJ, CPF

GUI = "br.gov.bcb.pix"
MAX_NAME_BYTES = 25
MAX_CITY_BYTES = 15
MAX_TXID_CHARS = 25
MAX_KEY_CHARS = 77
MAX_AMOUNT_CHARS = 13
NO_TXID = "***"

_TXID = re.compile(r"^[A-Za-z0-9]{1,25}$")
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
_PHONE = re.compile(r"^\+[1-9][0-9]{7,14}$")
_PRINTABLE_ASCII = re.compile(r"^[\x20-\x7e]*$")

KeyKind = Literal["cpf", "cnpj", "email", "phone", "evp"]


class PixError(ValueError):
    """Invalid PIX input; ``field`` names it, the message (str) is Portuguese and shown to users."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


@dataclass(frozen=True)
class PixCharge:
    """Everything a static BR Code carries."""

    key: str
    receiver_name: str
    city: str
    amount: Decimal | None = None
    txid: str = NO_TXID
    description: str = ""
    single_use: bool = False


def ascii_text(text: str) -> str:
    """``São Paulo`` → ``Sao Paulo``: accents stripped, spaces collapsed."""
    decomposed = unicodedata.normalize("NFKD", text)
    stripped = "".join(char for char in decomposed if not unicodedata.combining(char))
    return " ".join(stripped.split())


def key_kind(key: str) -> KeyKind:
    """The kind of a PIX key as stored in the DICT; PixError for anything that is not a valid key."""
    if len(key) > MAX_KEY_CHARS:
        raise PixError("key", f"Chave PIX: no máximo {MAX_KEY_CHARS} caracteres (tem {len(key)}).")
    if key.isdigit() and len(key) == 11 and CPF().validate(key):
        return "cpf"
    if key.isdigit() and len(key) == 14 and CNPJ().validate(key):
        return "cnpj"
    if _PHONE.match(key):
        return "phone"
    if _EMAIL.match(key) and key == key.lower():
        return "email"
    if _is_uuid(key):
        return "evp"
    raise PixError(
        "key",
        "Chave PIX inválida: informe CPF ou CNPJ (só dígitos, válidos), e-mail em minúsculas, "
        "telefone no formato +5517999999999 ou chave aleatória (UUID).",
    )


def _is_uuid(key: str) -> bool:
    try:
        return str(uuid.UUID(key)) == key.lower() and len(key) == 36
    except ValueError:
        return False


def receiver_name_field(name: str) -> str:
    return _limited_ascii(name, "receiver_name", "Nome do recebedor", MAX_NAME_BYTES)


def city_field(city: str) -> str:
    return _limited_ascii(city, "city", "Cidade do recebedor", MAX_CITY_BYTES)


def _limited_ascii(text: str, field: str, label: str, limit: int) -> str:
    value = ascii_text(text)
    if not value:
        raise PixError(field, f"{label}: campo obrigatório.")
    if not _PRINTABLE_ASCII.match(value):
        raise PixError(
            field, f"{label}: use apenas letras, números e sinais comuns (sem símbolos especiais)."
        )
    if len(value.encode("ascii")) > limit:
        raise PixError(
            field, f"{label}: no máximo {limit} caracteres sem acentos (tem {len(value)}): {value!r}."
        )
    return value


def amount_field(amount: Decimal) -> str:
    """``Decimal("10")`` → ``"10.00"``; refuses floats, zero, negatives and fractions of a centavo."""
    if not isinstance(amount, Decimal):
        raise PixError("amount", "Valor: informe um número decimal em reais (nunca ponto flutuante).")
    try:
        cents = amount.quantize(Decimal("0.01"))
    except InvalidOperation:
        raise PixError("amount", "Valor: número inválido.") from None
    if not amount.is_finite() or cents != amount:
        raise PixError("amount", "Valor: use no máximo duas casas decimais (centavos).")
    if cents <= 0:
        raise PixError("amount", "Valor: deve ser maior que zero.")
    text = f"{cents:.2f}"
    if len(text) > MAX_AMOUNT_CHARS:
        raise PixError(
            "amount", f"Valor: no máximo {MAX_AMOUNT_CHARS} caracteres (R$ {text} é grande demais)."
        )
    return text


def txid_field(txid: str) -> str:
    if txid == NO_TXID or _TXID.match(txid):
        return txid
    raise PixError(
        "txid",
        f"Identificador da transação (txid): até {MAX_TXID_CHARS} letras ou números, sem espaços nem símbolos, "
        f"ou '***'.",
    )


def tlv(field_id: str, value: str) -> str:
    """One EMV field; values over 99 characters cannot be encoded (two-digit length)."""
    if len(value) > 99:
        raise PixError(field_id, f"Campo {field_id} do BR Code excede 99 caracteres ({len(value)}).")
    return f"{field_id}{len(value):02d}{value}"


def crc16(data: str) -> str:
    """CRC16-CCITT-FALSE (polynomial 0x1021, initial 0xFFFF), four upper-case hex digits."""
    crc = 0xFFFF
    for byte in data.encode("ascii"):
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
            crc &= 0xFFFF
    return f"{crc:04X}"


def payload(charge: PixCharge) -> str:
    """The BR Code "copia e cola" text for ``charge``; PixError names the first invalid field."""
    key_kind(charge.key)
    fields = [tlv("00", "01")]
    if charge.single_use:
        fields.append(tlv("01", "12"))
    fields.append(tlv("26", _merchant_account(charge)))
    fields += [tlv("52", "0000"), tlv("53", "986")]
    if charge.amount is not None:
        fields.append(tlv("54", amount_field(charge.amount)))
    fields += [
        tlv("58", "BR"),
        tlv("59", receiver_name_field(charge.receiver_name)),
        tlv("60", city_field(charge.city)),
    ]
    fields.append(tlv("62", tlv("05", txid_field(charge.txid))))
    body = "".join(fields) + "6304"
    return body + crc16(body)


def _merchant_account(charge: PixCharge) -> str:
    account = tlv("00", GUI) + tlv("01", charge.key)
    description = ascii_text(charge.description)
    if description:
        account += tlv("02", description)
    if len(account) > 99:
        raise PixError("description", "Descrição do PIX longa demais para o BR Code; encurte-a.")
    return account


def parse(text: str) -> dict[str, str]:
    """Top-level fields of a payload by id (nested ones stay encoded); PixError if malformed or CRC wrong."""
    if len(text) < 8 or text[-8:-4] != "6304" or crc16(text[:-4]) != text[-4:].upper():
        raise PixError("payload", "BR Code inválido: CRC ausente ou incorreto.")
    return parse_fields(text[:-8])


def parse_fields(text: str) -> dict[str, str]:
    fields: dict[str, str] = {}
    position = 0
    while position < len(text):
        field_id, length_text = text[position : position + 2], text[position + 2 : position + 4]
        if not length_text.isdigit() or position + 4 + int(length_text) > len(text):
            raise PixError("payload", f"BR Code inválido: campo {field_id} malformado.")
        end = position + 4 + int(length_text)
        fields[field_id] = text[position + 4 : end]
        position = end
    return fields
