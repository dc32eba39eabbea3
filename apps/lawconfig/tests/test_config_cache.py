"""config_for keeps the Config it built per process, yet every configuration change is seen by the next call,
whoever made it: a save, queryset.update/delete, bulk_create, raw SQL, a row moved to another municipality. A
change rolled back is never served."""

import datetime as dt
from collections.abc import Callable

import pytest
from django.db import connection, transaction

from apps.lawconfig.config import config_for
from apps.lawconfig.models import ConfigStamp, MunicipalClosure
from apps.tenancy.models import Municipality

DAY = dt.date(2026, 3, 3)
OTHER_DAY = dt.date(2026, 3, 10)


def closures(municipality: Municipality) -> list[tuple[dt.date, str]]:
    return [(entry.date, entry.name) for entry in config_for(municipality).closures]


def close(municipality: Municipality, day: dt.date = DAY, description: str = "Ponto facultativo") -> None:
    MunicipalClosure.objects.create(municipality=municipality, date=day, description=description)


def test_an_unchanged_configuration_costs_one_query_and_is_the_same_config(
    olimpia: Municipality, django_assert_num_queries: Callable[..., object]
) -> None:
    close(olimpia)
    first = config_for(olimpia)
    with django_assert_num_queries(1):  # type: ignore[attr-defined]
        again = config_for(olimpia)
    assert again is first


def test_a_save_is_seen_at_once(olimpia: Municipality) -> None:
    assert closures(olimpia) == []
    close(olimpia)
    assert closures(olimpia) == [(DAY, "Ponto facultativo")]


def test_queryset_update_is_seen_at_once(olimpia: Municipality) -> None:
    close(olimpia)
    assert closures(olimpia) == [(DAY, "Ponto facultativo")]
    MunicipalClosure.objects.filter(municipality=olimpia).update(description="Decreto 9/2026")
    assert closures(olimpia) == [(DAY, "Decreto 9/2026")]


def test_queryset_delete_and_bulk_create_are_seen_at_once(olimpia: Municipality) -> None:
    close(olimpia)
    assert closures(olimpia) == [(DAY, "Ponto facultativo")]
    MunicipalClosure.objects.filter(municipality=olimpia).delete()
    assert closures(olimpia) == []
    MunicipalClosure.objects.bulk_create(
        [MunicipalClosure(municipality=olimpia, date=OTHER_DAY, description="X")]
    )
    assert closures(olimpia) == [(OTHER_DAY, "X")]


def test_raw_sql_is_seen_at_once(olimpia: Municipality) -> None:
    close(olimpia)
    assert closures(olimpia) == [(DAY, "Ponto facultativo")]
    with connection.cursor() as cursor:
        cursor.execute("UPDATE lawconfig_municipalclosure SET date = %s", [OTHER_DAY])
    assert closures(olimpia) == [(OTHER_DAY, "Ponto facultativo")]


def test_a_row_moved_to_another_municipality_changes_both(
    olimpia: Municipality, make_municipality: Callable[..., Municipality]
) -> None:
    other = make_municipality("3502804", "Araçatuba", "SP", ["olimpia_sp_escolar"])
    close(olimpia)
    assert closures(olimpia) == [(DAY, "Ponto facultativo")] and closures(other) == []
    MunicipalClosure.objects.filter(municipality=olimpia).update(municipality=other)
    assert closures(olimpia) == [] and closures(other) == [(DAY, "Ponto facultativo")]


def test_an_instance_loaded_before_the_change_still_sees_it(olimpia: Municipality) -> None:
    loaded_earlier = Municipality.objects.get(pk=olimpia.pk)
    assert closures(loaded_earlier) == []
    close(olimpia)
    assert closures(loaded_earlier) == [(DAY, "Ponto facultativo")]


def test_a_change_rolled_back_is_never_served(olimpia: Municipality) -> None:
    close(olimpia)
    assert closures(olimpia) == [(DAY, "Ponto facultativo")]
    with pytest.raises(RuntimeError), transaction.atomic():
        MunicipalClosure.objects.filter(municipality=olimpia).update(description="Nunca publicado")
        assert closures(olimpia) == [(DAY, "Nunca publicado")]  # the writer sees its own change
        raise RuntimeError("rollback")
    assert closures(olimpia) == [(DAY, "Ponto facultativo")]
    # The next real change must not meet the rolled-back Config either (a reused counter would).
    MunicipalClosure.objects.filter(municipality=olimpia).update(description="Decreto 9/2026")
    assert closures(olimpia) == [(DAY, "Decreto 9/2026")]


def test_every_configuration_write_changes_the_stamp(olimpia: Municipality) -> None:
    def stamp() -> str:
        return ConfigStamp.objects.get(municipality=olimpia).token

    close(olimpia)
    seen = {stamp()}
    MunicipalClosure.objects.filter(municipality=olimpia).update(description="Y")
    seen.add(stamp())
    MunicipalClosure.objects.filter(municipality=olimpia).delete()
    seen.add(stamp())
    assert len(seen) == 3


def test_a_new_municipality_has_its_stamp_and_an_unconfigured_one_is_cached_too(
    make_municipality: Callable[..., Municipality], django_assert_num_queries: Callable[..., object]
) -> None:
    town = make_municipality("3557105", "Votuporanga", "SP", ["votuporanga_sp_escolar"])
    assert ConfigStamp.objects.filter(municipality=town).exists()  # created with the municipality
    first = config_for(town)
    with django_assert_num_queries(1):  # type: ignore[attr-defined]
        assert config_for(town) is first


def test_a_missing_stamp_is_never_trusted(olimpia: Municipality) -> None:
    close(olimpia)
    assert closures(olimpia) == [(DAY, "Ponto facultativo")]
    ConfigStamp.objects.filter(
        municipality=olimpia
    ).delete()  # removed by hand: nothing may be cached under it
    assert closures(olimpia) == [(DAY, "Ponto facultativo")]
    MunicipalClosure.objects.filter(
        municipality=olimpia
    ).delete()  # a delete changes a stamp, never creates one
    assert not ConfigStamp.objects.filter(municipality=olimpia).exists()
    assert closures(olimpia) == []


def test_a_stamp_the_caller_just_read_spares_the_query_and_a_new_one_is_seen_at_once(
    olimpia: Municipality, django_assert_num_queries: Callable[..., object]
) -> None:
    first = config_for(olimpia)
    token = ConfigStamp.objects.get(municipality=olimpia).token
    with django_assert_num_queries(0):  # type: ignore[attr-defined]
        assert config_for(olimpia, stamp=token) is first
    close(olimpia)  # the public lookup's SELECT would read the new stamp with the permit
    token = ConfigStamp.objects.get(municipality=olimpia).token
    assert [(e.date, e.name) for e in config_for(olimpia, stamp=token).closures] == [
        (DAY, "Ponto facultativo")
    ]
    assert config_for(olimpia, stamp="").closures  # no stamp: the rows are read, never a kept Config
