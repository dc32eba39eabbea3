from apps.web.menu import MenuEntry, municipality_url, register_menu_entry

register_menu_entry(
    MenuEntry(
        key="notifications",
        label="Avisos enviados",
        order=92,
        url=municipality_url("notifications:staff-list"),
        model_label="notifications.notification",
        action="view",
    )
)
