from django.urls import reverse

from apps.web.menu import MenuEntry, register_menu_entry

register_menu_entry(
    MenuEntry(
        key="audit_subjects",
        label="Titulares (LGPD)",
        order=96,
        model_label="audit.auditevent",
        action="audit",
        url=lambda municipality: reverse("privacy:subject_search"),
    )
)
register_menu_entry(
    MenuEntry(
        key="audit_requests",
        label="Requerimentos LGPD",
        order=97,
        model_label="audit.datasubjectrequest",
        url=lambda municipality: reverse("privacy:request_list"),
    )
)
