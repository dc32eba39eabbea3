from apps.reports.permissions import REPORT
from apps.web.menu import MenuEntry, municipality_url, register_menu_entry

register_menu_entry(
    MenuEntry(
        key="reports",
        label="Relatórios",
        order=92,
        model_label=REPORT,
        url=municipality_url("reports:report"),
    )
)
