"""Main-menu entries: agents file autos; every reader of autos reaches the list and the editais."""

from django.urls import reverse

from apps.web.menu import MenuEntry, register_menu_entry

register_menu_entry(
    MenuEntry(
        key="enforcement_new",
        label="Novo auto",
        order=48,
        model_label="enforcement.infractioncase",
        action="file",
        url=lambda municipality: reverse("enforcement:case_new", args=[municipality.ibge_code]),
    )
)
register_menu_entry(
    MenuEntry(
        key="enforcement_cases",
        label="Autos de infração",
        order=50,
        model_label="enforcement.infractioncase",
        url=lambda municipality: reverse("enforcement:case_list", args=[municipality.ibge_code]),
    )
)
