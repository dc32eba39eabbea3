from django.urls import path

from apps.enforcement import views

app_name = "enforcement"

PREFIX = "municipios/<str:ibge_code>/fiscalizacao/"

urlpatterns = [
    path(f"{PREFIX}autos/", views.case_list, name="case_list"),
    path(f"{PREFIX}autos/meus/", views.my_cases, name="my_cases"),
    path(f"{PREFIX}autos/novo/", views.case_new, name="case_new"),
    path(f"{PREFIX}autos/novo/placa/", views.plate_lookup, name="plate_lookup"),
    path(f"{PREFIX}autos/novo/infracoes/", views.infraction_search, name="infraction_search"),
    path(f"{PREFIX}autos/<int:pk>/", views.case_detail, name="case_detail"),
    path(f"{PREFIX}autos/<int:pk>/pdf/", views.case_pdf, name="case_pdf"),
    path(f"{PREFIX}autos/<int:pk>/provas/", views.evidence_add, name="evidence_add"),
    path(f"{PREFIX}autos/<int:pk>/provas/<int:evidence_id>/", views.evidence_file, name="evidence_file"),
    path(f"{PREFIX}autos/<int:pk>/transito/", views.traffic_only, name="traffic_only"),
    path(f"{PREFIX}autos/<int:pk>/notificar/", views.notice_new, name="notice_new"),
    path(f"{PREFIX}notificacoes/<int:notice_id>/retorno/", views.notice_receipt, name="notice_receipt"),
    path(f"{PREFIX}notificacoes/<int:notice_id>/pdf/", views.notice_pdf, name="notice_pdf"),
    path(f"{PREFIX}editais/", views.edital_list, name="edital_list"),
    path(f"{PREFIX}editais/novo/", views.edital_new, name="edital_new"),
    path(f"{PREFIX}editais/<int:pk>/pdf/", views.edital_pdf, name="edital_pdf"),
]
