from django.urls import reverse

from apps.web.menu import MenuEntry, register_menu_entry

register_menu_entry(
    MenuEntry(
        key="signing_policy",
        label="Assinatura de documentos",
        order=94,
        model_label="signing.signingpolicy",
        url=lambda municipality: reverse("signing:policy", args=[municipality.ibge_code]),
    )
)
