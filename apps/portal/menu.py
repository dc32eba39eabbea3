from django.urls import reverse

from apps.web.menu import MenuEntry, register_menu_entry

register_menu_entry(
    MenuEntry(
        key="portal-accounts",
        label="Contas do portal",
        order=90,
        url=lambda municipality: reverse("portal:staff-accounts", args=[municipality.ibge_code]),
        model_label="portal.portalaccount",
        action="view",
    )
)

register_menu_entry(
    MenuEntry(
        key="portal-submissions",
        label="Documentos enviados pelo portal",
        order=91,
        url=lambda municipality: reverse("portal:staff-submissions", args=[municipality.ibge_code]),
        model_label="portal.documentsubmission",
        action="view",
    )
)
