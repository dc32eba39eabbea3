"""Home cards and the menu entry of tenancy: the team of the municipality by role, the regimes it runs, and the
link to the team.

They live in web, not tenancy: web's home page and menu show the municipality of tenancy, which sits below web in
the layers (docs/architecture.md) and so never registers with web's registries."""

from __future__ import annotations

from django.urls import reverse

from apps.tenancy.choices import Role
from apps.tenancy.models import Membership
from apps.tenancy.querysets import user_can
from apps.tenancy.regimes import regime_summary
from apps.web.cards import Card, CardContext, CardItem, register_card
from apps.web.menu import MenuEntry, register_menu_entry


@register_card
def team_card(ctx: CardContext) -> Card | None:
    if not user_can(ctx.user, ctx.municipality.pk, "tenancy.membership", "view"):
        return None
    memberships = Membership.objects.for_user(ctx.user, "view").filter(municipality=ctx.municipality)
    counts = memberships.count_by_role()
    items = tuple(CardItem(label, counts.get(value, 0)) for value, label in Role.choices)
    return Card(key="team", title="Equipe por papel", items=items, order=10)


@register_card
def regimes_card(ctx: CardContext) -> Card | None:
    if not user_can(ctx.user, ctx.municipality.pk, "tenancy.municipality", "view"):
        return None
    items = tuple(CardItem(*regime_summary(regime_id)) for regime_id in ctx.municipality.regimes)
    return Card(
        key="regimes",
        title="Regimes em vigor",
        items=items,
        order=20,
        empty_message="Nenhum regime configurado para este município.",
    )


register_menu_entry(
    MenuEntry(
        key="team",
        label="Equipe",
        order=90,
        model_label="tenancy.membership",
        action="view",
        url=lambda municipality: reverse("tenancy:team_list", args=[municipality.ibge_code]),
    )
)
