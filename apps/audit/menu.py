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

register_menu_entry(
    MenuEntry(
        key="audit_subjects",
        label="Titulares (LGPD)",
        order=96,
        model_label="audit.auditevent",
        action="audit",
        url=lambda municipality: reverse("audit:subject_search"),
    )
)
register_menu_entry(
    MenuEntry(
        key="audit_requests",
        label="Requerimentos LGPD",
        order=97,
        model_label="audit.datasubjectrequest",
        url=lambda municipality: reverse("audit:request_list"),
    )
)
