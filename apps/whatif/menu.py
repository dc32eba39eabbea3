from apps.web.menu import MenuEntry, municipality_url, register_menu_entry

register_menu_entry(
    MenuEntry(
        key="whatif",
        label="Simular mudança na lei",
        order=93,
        url=municipality_url("whatif:runs"),
        model_label="whatif.whatifrun",
        action="view",
    )
)
