from apps.dueprocess.choices import Instance
from apps.web.menu import MenuEntry, municipality_url, register_menu_entry

register_menu_entry(
    MenuEntry(
        key="dueprocess_first",
        label="Julgamentos (1ª instância)",
        order=52,
        model_label="dueprocess.appeal",
        action="judge_first",
        url=municipality_url("dueprocess:queue", Instance.FIRST),
    )
)
register_menu_entry(
    MenuEntry(
        key="dueprocess_second",
        label="Julgamentos (2ª instância)",
        order=53,
        model_label="dueprocess.appeal",
        action="judge_second",
        url=municipality_url("dueprocess:queue", Instance.SECOND),
    )
)
register_menu_entry(
    MenuEntry(
        key="dueprocess_active_debt",
        label="Dívida ativa (multas)",
        order=72,
        model_label="dueprocess.sanction",
        action="export",
        url=municipality_url("dueprocess:active_debt"),
    )
)
