from django.urls import reverse

from apps.dueprocess.choices import Instance
from apps.web.menu import MenuEntry, register_menu_entry

register_menu_entry(
    MenuEntry(
        key="dueprocess_first",
        label="Julgamentos (1ª instância)",
        order=52,
        model_label="dueprocess.appeal",
        action="judge_first",
        url=lambda m: reverse("dueprocess:queue", args=[m.ibge_code, Instance.FIRST]),
    )
)
register_menu_entry(
    MenuEntry(
        key="dueprocess_second",
        label="Julgamentos (2ª instância / JARI)",
        order=53,
        model_label="dueprocess.appeal",
        action="judge_second",
        url=lambda m: reverse("dueprocess:queue", args=[m.ibge_code, Instance.SECOND]),
    )
)
register_menu_entry(
    MenuEntry(
        key="dueprocess_active_debt",
        label="Dívida ativa (multas)",
        order=72,
        model_label="dueprocess.sanction",
        action="export",
        url=lambda m: reverse("dueprocess:active_debt", args=[m.ibge_code]),
    )
)
