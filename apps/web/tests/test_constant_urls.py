"""The remembered {% url %} and {% static %} of literal names (apps/web/templatetags/constant_urls.py)."""

from __future__ import annotations

import pytest
from django.template import Context, Template
from django.template.defaulttags import URLNode
from django.test import override_settings
from django.urls import NoReverseMatch, reverse, set_script_prefix

from apps.web.templatetags.constant_urls import ConstantStaticNode, ConstantURLNode


def test_a_literal_name_without_arguments_is_remembered_and_the_rest_is_djangos() -> None:
    template = Template("{% url 'public:search' %}|{% url name %}|{% url 'public:complaint-detail' 'x' 1 %}")
    nodes = [type(node) for node in template.nodelist if isinstance(node, URLNode)]
    assert nodes == [ConstantURLNode, URLNode, URLNode]
    rendered = template.render(Context({"name": "public:open-data"}))
    assert rendered == "|".join(
        [
            reverse("public:search"),
            reverse("public:open-data"),
            reverse("public:complaint-detail", args=["x", 1]),
        ]
    )


def test_the_script_prefix_is_part_of_the_key() -> None:
    template = Template("{% url 'public:search' %}")
    try:
        assert template.render(Context()) == "/consulta/"
        set_script_prefix("/outorga/")
        assert template.render(Context()) == "/outorga/consulta/"
    finally:
        set_script_prefix("/")
    assert template.render(Context()) == "/consulta/"


def test_an_unknown_name_still_fails_every_time() -> None:
    template = Template("{% url 'no-such-route' %}")
    for _ in range(2):
        with pytest.raises(NoReverseMatch):
            template.render(Context())


def test_an_overridden_setting_empties_the_cache_and_escaping_is_kept() -> None:
    template = Template("{% load static constant_urls %}{% static 'css/a&b.css' %}")
    assert isinstance(template.nodelist[-1], ConstantStaticNode)
    assert template.render(Context()).endswith("css/a%26b.css")
    with override_settings(
        STATIC_URL="/elsewhere/",
        STORAGES={"staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}},
    ):
        assert template.render(Context()) == "/elsewhere/css/a%26b.css"
    assert not template.render(Context()).startswith("/elsewhere/")
