from django.urls import reverse

from apps.web.menu import MenuEntry, register_menu_entry

register_menu_entry(
    MenuEntry(
        key="platform-substitutions",
        label="Substituições (aplicativos)",
        order=62,
        url=lambda municipality: reverse("platforms:substitution-queue", args=[municipality.ibge_code]),
        model_label="platforms.substitutionreport",
        action="view",
    )
)

register_menu_entry(
    MenuEntry(
        key="platform-credentials",
        label="Tokens das plataformas",
        order=63,
        url=lambda municipality: reverse("platforms:credentials", args=[municipality.ibge_code]),
        model_label="platforms.platformcredential",
        action="view",
    )
)

register_menu_entry(
    MenuEntry(
        key="platform-rosters",
        label="Cadastros das plataformas",
        order=64,
        url=lambda municipality: reverse("platforms:roster-imports", args=[municipality.ibge_code]),
        model_label="platforms.rosterimport",
        action="view",
    )
)
