from apps.web.menu import MenuEntry, municipality_url, register_menu_entry

register_menu_entry(
    MenuEntry(
        key="complaints",
        label="Denúncias",
        order=60,
        url=municipality_url("public:complaint-queue"),
        model_label="public.complaint",
        action="view",
    )
)
