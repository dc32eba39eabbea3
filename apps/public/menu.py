from django.urls import reverse

from apps.web.menu import MenuEntry, register_menu_entry

register_menu_entry(
    MenuEntry(
        key="complaints",
        label="Denúncias",
        order=60,
        url=lambda municipality: reverse("public:complaint-queue", args=[municipality.ibge_code]),
        model_label="public.complaint",
        action="view",
    )
)
