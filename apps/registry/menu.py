from apps.web.menu import MenuEntry, municipality_url, register_menu_entry

for _key, _label, _order, _model in (
    ("registry-operators", "Autorizatários", 20, "operator"),
    ("registry-vehicles", "Veículos", 21, "vehicle"),
    ("registry-drivers", "Condutores", 22, "driver"),
    ("registry-documents", "Documentos", 23, "document"),
):
    register_menu_entry(
        MenuEntry(
            key=_key,
            label=_label,
            order=_order,
            url=municipality_url(f"registry:{_model}_list"),
            model_label=f"registry.{_model}",
        )
    )
