from django.urls import path

from apps.privacy import views

app_name = "privacy"

# Under /auditoria/: the encarregado (DPO) works beside the audit trail, and the addresses predate this app.
urlpatterns = [
    path("auditoria/titulares/", views.subject_search, name="subject_search"),
    path("auditoria/titulares/<int:person_id>/", views.subject_detail, name="subject_detail"),
    path("auditoria/titulares/<int:person_id>/relatorio.pdf", views.subject_report, name="subject_report"),
    path("auditoria/requerimentos/", views.request_list, name="request_list"),
    path("auditoria/requerimentos/novo/", views.request_create, name="request_create"),
    path("auditoria/requerimentos/<int:request_id>/", views.request_detail, name="request_detail"),
]
