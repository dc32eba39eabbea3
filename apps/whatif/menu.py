from django.urls import reverse

from apps.web.menu import MenuEntry, register_menu_entry

register_menu_entry(
    MenuEntry(
        key="whatif",
        label="Simular mudança na lei",
        order=93,
        url=lambda municipality: reverse("whatif:runs", args=[municipality.ibge_code]),
        model_label="whatif.whatifrun",
        action="view",
    )
)
