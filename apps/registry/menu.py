from collections.abc import Callable

from django.urls import reverse

from apps.tenancy.models import Municipality
from apps.web.menu import MenuEntry, register_menu_entry


def _list_url(model: str) -> Callable[[Municipality], str]:
    def url(municipality: Municipality) -> str:
        return reverse(f"registry:{model}_list", args=[municipality.ibge_code])

    return url


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
            model_label=f"registry.{_model}",
            url=_list_url(_model),
        )
    )
