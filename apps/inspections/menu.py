from django.urls import reverse

from apps.web.menu import MenuEntry, register_menu_entry

register_menu_entry(
    MenuEntry(
        key="inspections",
        label="Vistorias",
        order=45,
        model_label="inspections.inspection",
        action="view",
        url=lambda municipality: reverse("inspections:agenda", args=[municipality.ibge_code]),
    )
)
