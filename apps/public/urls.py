"""Public routes at the site root (namespace "public"), including the QR route licensing reserved, and the
secretariat's complaint queue under the municipality."""

from django.urls import path

from apps.licensing.urls_public import VERIFY_ROUTE
from apps.public import api, views

app_name = "public"

urlpatterns = [
    path("consulta/", views.search, name="search"),
    path(VERIFY_ROUTE, views.verify_token, name="verify-token"),
    path("verificar-documento/", views.document_check, name="document-check"),
    path("verificar-documento/<str:code>/", views.document_code, name="document-code"),
    path("api/publica/v1/documentos/", api.document_route, name="document-json"),
    path("consulta/denunciar/", views.complaint_new, name="complaint"),
    path("consulta/denuncia-registrada/", views.complaint_sent, name="complaint-sent"),
    path("dados-abertos/", views.open_data, name="open-data"),
    path(
        "dados-abertos/<str:ibge_code>/alvaras-em-vigor-planilha.csv",
        views.open_data_file,
        {"fmt": "planilha"},
        name="open-data-sheet",
    ),
    path(
        "dados-abertos/<str:ibge_code>/alvaras-em-vigor.<str:fmt>",
        views.open_data_file,
        name="open-data-file",
    ),
    path("api/publica/v1/verificacao/", api.verification_route, name="verify-json"),
    path("municipios/<str:ibge_code>/denuncias/", views.complaint_queue, name="complaint-queue"),
    path("municipios/<str:ibge_code>/denuncias/<int:pk>/", views.complaint_detail, name="complaint-detail"),
]
