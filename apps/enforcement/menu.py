"""Main-menu entries: agents file autos; every reader of autos reaches the list and the editais."""

from apps.web.menu import MenuEntry, municipality_url, register_menu_entry

register_menu_entry(
    MenuEntry(
        key="enforcement_new",
        label="Novo auto",
        order=48,
        model_label="enforcement.infractioncase",
        action="file",
        url=municipality_url("enforcement:case_new"),
    )
)
register_menu_entry(
    MenuEntry(
        key="enforcement_cases",
        label="Autos de infração",
        order=50,
        model_label="enforcement.infractioncase",
        url=municipality_url("enforcement:case_list"),
    )
)
