from django.urls import reverse

from apps.web.menu import MenuEntry, register_menu_entry

register_menu_entry(
    MenuEntry(
        key="notifications",
        label="Avisos enviados",
        order=92,
        url=lambda municipality: reverse("notifications:staff-list", args=[municipality.ibge_code]),
        model_label="notifications.notification",
        action="view",
    )
)
