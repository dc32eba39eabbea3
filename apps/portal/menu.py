from apps.web.menu import MenuEntry, municipality_url, register_menu_entry

for _key, _label, _order, _url_name, _model_label in (
    ("portal-accounts", "Contas do portal", 90, "staff-accounts", "portalaccount"),
    ("portal-submissions", "Documentos enviados pelo portal", 91, "staff-submissions", "documentsubmission"),
):
    register_menu_entry(
        MenuEntry(
            key=_key,
            label=_label,
            order=_order,
            url=municipality_url(f"portal:{_url_name}"),
            model_label=f"portal.{_model_label}",
        )
    )
