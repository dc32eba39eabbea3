"""Django's `{% url %}` and `{% static %}`, remembering the URL of a literal name (a template builtin, settings).

Every page's header and menu reverse the same handful of names ('home', 'login', 'public:search', …): on the
public lookup page those eleven reverses were a fifth of its rendering CPU (issue 12). Such a URL depends on
nothing but the URLconf, the script prefix and the current namespace, all three part of the key, so it is
computed once per process for each; the cache is emptied when a test overrides a setting. Any other use of the
tag (arguments, a variable name, a failed reverse) is Django's, unchanged. Likewise the base template's nine
`{% static %}` of literal paths, which it takes from here by loading this library after Django's `static`.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.signals import setting_changed
from django.template import Library, Node
from django.template.base import Parser, Token
from django.template.context import Context
from django.template.defaulttags import URLNode
from django.template.defaulttags import url as django_url
from django.templatetags.static import StaticNode
from django.templatetags.static import do_static as django_static
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils.html import conditional_escape

register = Library()
_URLS: dict[tuple[object, ...], str] = {}
_STATIC: dict[str, str] = {}


def _forget(**_: object) -> None:
    """STORAGES, STATIC_URL and ROOT_URLCONF are settings: a test that overrides one starts afresh."""
    _URLS.clear()
    _STATIC.clear()


setting_changed.connect(_forget, dispatch_uid="apps.web.constant_urls")


class ConstantURLNode(URLNode):
    """A `{% url 'name' %}` whose name is a literal, with no argument and no `as`."""

    def render(self, context: Context) -> str:
        name = self.view_name.var
        current_app = _current_app(context)
        key = (name, get_urlconf() or settings.ROOT_URLCONF, get_script_prefix(), current_app)
        url = _URLS.get(key)
        if url is None:
            url = _URLS[key] = reverse(name, current_app=current_app)  # NoReverseMatch: not remembered
        return conditional_escape(url) if context.autoescape else url


def _current_app(context: Context) -> Any:
    """As URLNode.render finds it."""
    try:
        return context.request.current_app  # type: ignore[attr-defined]
    except AttributeError:
        try:
            return context.request.resolver_match.namespace  # type: ignore[attr-defined]
        except AttributeError:
            return None


@register.tag
def url(parser: Parser, token: Token) -> Node:
    node = django_url(parser, token)
    constant = isinstance(node.view_name.var, str) and not node.view_name.filters
    if not constant or node.args or node.kwargs or node.asvar:
        return node
    return ConstantURLNode(node.view_name, node.args, node.kwargs, node.asvar)


class ConstantStaticNode(StaticNode):
    """A `{% static 'path' %}` of a literal path: the storage's answer (with a manifest, the hashed name) is
    fixed for the process, the storage being built from settings."""

    def url(self, context: Context) -> str:
        path = self.path.var
        found = _STATIC.get(path)
        if found is None:
            found = _STATIC[path] = super().url(context)  # a manifest's ValueError: not remembered
        return found


@register.tag
def static(parser: Parser, token: Token) -> Node:
    """Django's `{% static %}`; a template takes this one by loading this library after `static`."""
    node = django_static(parser, token)
    if isinstance(node.path.var, str) and not node.path.filters:
        return ConstantStaticNode(varname=node.varname, path=node.path)
    return node
