from __future__ import annotations

from django.template import Context, Template


def test_it_renders_the_regime_name_instead_of_its_id() -> None:
    rendered = Template("{% load regimes %}{{ rid|regime_name }}").render(
        Context({"rid": "votuporanga_sp_escolar"})
    )
    assert rendered == "Transporte escolar de Votuporanga-SP"
