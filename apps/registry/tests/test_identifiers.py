import pytest
from django.core.exceptions import ValidationError

from apps.registry import identifiers as ids


def test_cpf_is_normalized_formatted_and_checked() -> None:
    assert ids.validate_cpf("529.982.247-25") == "52998224725"
    assert ids.format_cpf("52998224725") == "529.982.247-25"
    with pytest.raises(ValidationError, match="CPF: número inválido"):
        ids.validate_cpf("529.982.247-26")
    with pytest.raises(ValidationError, match="CPF: informe os 11 dígitos"):
        ids.validate_cpf("1234")


@pytest.mark.parametrize("value", ["12ABC34501DE35", "12.abc.345/01de-35", "11.222.333/0001-81"])
def test_cnpj_accepts_numeric_and_alphanumeric(value: str) -> None:
    assert len(ids.validate_cnpj(value)) == 14


def test_cnpj_alphanumeric_is_stored_upper_and_formatted() -> None:
    assert ids.validate_cnpj("12.abc.345/01de-35") == "12ABC34501DE35"
    assert ids.format_cnpj("12ABC34501DE35") == "12.ABC.345/01DE-35"


@pytest.mark.parametrize("value", ["12ABC34501DE36", "11222333000182", "12ABC34501DEX5", "123"])
def test_cnpj_refuses_bad_check_digits_and_shapes(value: str) -> None:
    with pytest.raises(ValidationError, match="CNPJ"):
        ids.validate_cnpj(value)


def test_plate_formats_and_conversion() -> None:
    assert ids.plate_format("abc-1234") == "old"
    assert ids.plate_format("ABC1C34") == "mercosul"
    assert ids.plate_format("AB12345") is None
    assert ids.to_mercosul("ABC-1234") == "ABC1C34"
    assert ids.to_mercosul("ABC1C34") == "ABC1C34"
    assert ids.plate_final_digit("ABC1C34") == 4
    assert ids.format_plate("ABC1234") == "ABC-1234"
    with pytest.raises(ValidationError, match="Placa"):
        ids.validate_plate("A1C1234")


def test_renavam_pads_and_checks() -> None:
    assert ids.validate_renavam("63977637130") == "63977637130"
    with pytest.raises(ValidationError, match="RENAVAM: número inválido"):
        ids.validate_renavam("63977637131")
    with pytest.raises(ValidationError, match="RENAVAM: informe até 11 dígitos"):
        ids.validate_renavam("6397763713A")


def test_cnh_number_is_only_a_warning() -> None:
    assert ids.cnh_number_warning("123") is not None
    assert ids.cnh_number_warning("02650306461") is None
