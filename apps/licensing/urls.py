from django.urls import path

from apps.licensing import views

app_name = "licensing"

PREFIX = "municipios/<str:ibge_code>/licenciamento/"

urlpatterns = [
    path(f"{PREFIX}requerimentos/", views.application_list, name="application_list"),
    path(f"{PREFIX}requerimentos/<int:pk>/", views.application_detail, name="application_detail"),
    path(
        f"{PREFIX}requerimentos/<int:pk>/acao/<slug:action>/",
        views.application_action,
        name="application_action",
    ),
    path(f"{PREFIX}autorizatarios/<int:operator_id>/", views.operator_permits, name="operator_permits"),
    path(
        f"{PREFIX}autorizatarios/<int:operator_id>/novo-requerimento/",
        views.application_create,
        name="application_create",
    ),
    path(f"{PREFIX}alvaras/", views.permit_list, name="permit_list"),
    path(f"{PREFIX}alvaras/<int:pk>/", views.permit_detail, name="permit_detail"),
    path(f"{PREFIX}alvaras/<int:pk>/pdf/", views.permit_pdf, name="permit_pdf"),
]
