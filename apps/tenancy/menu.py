from django.urls import reverse

from apps.web.menu import MenuEntry, register_menu_entry

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
