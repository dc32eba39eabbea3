from __future__ import annotations

import binascii
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from apps.finance import pix
from apps.finance.pix import PixCharge, PixError, payload

EVP = "123e4567-e12b-12d1-a456-426655440000"
# Manual de Padrões para Iniciação do Pix (BCB), static example: random key, no amount, txid "***".
BCB_STATIC = (
    "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR"
    "5913Fulano de Tal6008BRASILIA62070503***63041D3D"
)
# BR Code manual, composite example with amount 123.45 (only its CRC is ours to check).
BCB_COMPOSITE_WITH_AMOUNT = (
    "00020104141234567890123426580014BR.GOV.BCB.PIX0136123e4567-e12b-12d1-a456-42665544000027300012BR.COM.OUTRO"
    "011001234567895204000053039865406123.455802BR5917NOME DO RECEBEDOR6008BRASILIA61087007490062190515"
    "RP12345678-201980390012BR.COM.OUTRO01190123.ABCD.3456.WXYZ6304AD38"
)


def charge(**overrides: object) -> PixCharge:
    fields: dict[str, object] = {"key": EVP, "receiver_name": "Fulano de Tal", "city": "BRASILIA"}
    fields.update(overrides)
    return PixCharge(**fields)  # type: ignore[arg-type]


def test_it_reproduces_the_central_bank_example_byte_for_byte() -> None:
    assert payload(charge()) == BCB_STATIC


def test_its_crc_is_ccitt_false() -> None:
    assert pix.crc16("123456789") == "29B1"  # the catalogue check value of CRC-16/CCITT-FALSE
    assert pix.crc16(BCB_COMPOSITE_WITH_AMOUNT[:-4]) == "AD38"


def test_it_encodes_amount_txid_and_single_use() -> None:
    text = payload(charge(amount=Decimal("150.5"), txid="3533908202600001"[:25], single_use=True))
    fields = pix.parse(text)
    assert fields["01"] == "12"
    assert fields["54"] == "150.50"
    assert pix.parse_fields(fields["62"]) == {"05": "3533908202600001"}
    assert pix.parse_fields(fields["26"]) == {"00": "br.gov.bcb.pix", "01": EVP}
    assert text[-4:] == f"{binascii.crc_hqx(text[:-4].encode(), 0xFFFF):04X}"


def test_it_keeps_fields_in_the_order_the_manual_lists_them() -> None:
    text = payload(charge(amount=Decimal("1.00"), txid="ABC123", single_use=True))
    assert list(pix.parse(text)) == ["00", "01", "26", "52", "53", "54", "58", "59", "60", "62"]


def test_it_strips_accents_from_name_and_city() -> None:
    fields = pix.parse(payload(charge(receiver_name="Prefeitura de Olímpia", city="São João")))
    assert (fields["59"], fields["60"]) == ("Prefeitura de Olimpia", "Sao Joao")


def test_it_refuses_a_name_over_25_bytes_naming_the_field() -> None:
    with pytest.raises(PixError) as error:
        payload(charge(receiver_name="Prefeitura Municipal de Olímpia"))
    assert error.value.field == "receiver_name"
    assert "Nome do recebedor: no máximo 25 caracteres" in str(error.value)


def test_it_accepts_exactly_25_and_15_characters() -> None:
    fields = pix.parse(payload(charge(receiver_name="A" * 25, city="B" * 15)))
    assert (len(fields["59"]), len(fields["60"])) == (25, 15)


def test_it_refuses_a_city_over_15_bytes() -> None:
    with pytest.raises(PixError, match="Cidade do recebedor: no máximo 15"):
        payload(charge(city="São José do Rio Preto"))


def test_it_refuses_characters_that_have_no_ascii_form() -> None:
    with pytest.raises(PixError, match="Nome do recebedor: use apenas"):
        payload(charge(receiver_name="Prefeitura 🚌"))


@pytest.mark.parametrize(
    "key",
    ["52998224725", "11222333000181", "+5517991234567", "financeiro@olimpia.sp.gov.br", EVP],
)
def test_it_accepts_each_kind_of_pix_key(key: str) -> None:
    assert pix.parse_fields(pix.parse(payload(charge(key=key)))["26"])["01"] == key


@pytest.mark.parametrize(
    "key",
    [
        "52998224700",
        "529.982.247-25",
        "17991234567",
        "Financeiro@Olimpia.sp.gov.br",
        "chave qualquer",
        "x" * 78,
    ],
)
def test_it_refuses_invalid_keys(key: str) -> None:
    with pytest.raises(PixError) as error:
        payload(charge(key=key))
    assert error.value.field == "key" and "Chave PIX" in str(error.value)


@pytest.mark.parametrize(
    ("amount", "message"),
    [
        (Decimal("0"), "maior que zero"),
        (Decimal("-1.00"), "maior que zero"),
        (Decimal("1.005"), "duas casas decimais"),
        (Decimal("12345678901.00"), "no máximo 13"),
        (Decimal("NaN"), "Valor"),
        (1.5, "nunca ponto flutuante"),
    ],
)
def test_it_refuses_invalid_amounts(amount: object, message: str) -> None:
    with pytest.raises(PixError, match=message):
        payload(charge(amount=amount))


@pytest.mark.parametrize("txid", ["GUIA 1", "GUIA-1", "A" * 26, ""])
def test_it_refuses_invalid_txids(txid: str) -> None:
    with pytest.raises(PixError, match="txid"):
        payload(charge(txid=txid))


def test_parse_refuses_a_payload_with_a_wrong_crc() -> None:
    with pytest.raises(PixError, match="CRC"):
        pix.parse(BCB_STATIC[:-4] + "0000")


@given(
    cents=st.integers(min_value=1, max_value=999_999_999_999),  # "9999999999.99": 13 characters
    txid=st.from_regex(r"\A[A-Za-z0-9]{1,25}\Z"),
    name=st.text(alphabet="ABCDEFGHIJ abcdefghij çãéíõú", min_size=1, max_size=20).filter(str.strip),
)
def test_every_payload_parses_back_with_a_valid_crc(cents: int, txid: str, name: str) -> None:
    amount = Decimal(cents) / 100
    fields = pix.parse(payload(charge(amount=amount, txid=txid, receiver_name=name)))
    assert Decimal(fields["54"]) == amount
    assert fields["59"] == pix.ascii_text(name)
    assert pix.parse_fields(fields["62"])["05"] == txid
