from django.urls import reverse

from apps.reports.permissions import REPORT
from apps.web.menu import MenuEntry, register_menu_entry

register_menu_entry(
    MenuEntry(
        key="reports",
        label="Relatórios",
        order=92,
        model_label=REPORT,
        url=lambda municipality: reverse("reports:report", args=[municipality.ibge_code]),
    )
)
