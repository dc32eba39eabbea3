from apps.web.menu import MenuEntry, municipality_url, register_menu_entry

register_menu_entry(
    MenuEntry(
        key="inspections",
        label="Vistorias",
        order=45,
        model_label="inspections.inspection",
        action="view",
        url=municipality_url("inspections:agenda"),
    )
)
