from django.urls import reverse

from apps.web.menu import MenuEntry, register_menu_entry

register_menu_entry(
    MenuEntry(
        key="audit",
        label="Auditoria",
        order=95,
        model_label="audit.auditevent",
        action="view",
        url=lambda municipality: f"{reverse('audit:event_list')}?municipality={municipality.ibge_code}",
    )
)
