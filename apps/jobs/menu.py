from django.urls import reverse

from apps.web.menu import MenuEntry, register_menu_entry

register_menu_entry(
    MenuEntry(
        key="jobs",
        label="Rotinas e e-mails",
        order=96,
        model_label="jobs.outboundmail",
        action="view",
        url=lambda municipality: f"{reverse('jobs:overview')}?municipio={municipality.ibge_code}",
    )
)
