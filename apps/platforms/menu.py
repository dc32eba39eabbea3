from apps.web.menu import MenuEntry, municipality_url, register_menu_entry

for _key, _label, _order, _url_name, _model_label in (
    ("platform-substitutions", "Substituições (aplicativos)", 62, "substitution-queue", "substitutionreport"),
    ("platform-credentials", "Tokens das plataformas", 63, "credentials", "platformcredential"),
    ("platform-rosters", "Cadastros das plataformas", 64, "roster-imports", "rosterimport"),
):
    register_menu_entry(
        MenuEntry(
            key=_key,
            label=_label,
            order=_order,
            url=municipality_url(f"platforms:{_url_name}"),
            model_label=f"platforms.{_model_label}",
        )
    )
