from django.urls import path

from apps.lawconfig import views

app_name = "lawconfig"

_BASE = "municipios/<str:ibge_code>/configuracao-legal/"

urlpatterns = [
    path("instalacao/valores-externos/", views.external_values, name="external_values"),
    path(_BASE, views.overview, name="overview"),
    path(f"{_BASE}ufm/", views.ufm_add, name="ufm_add"),
    path(f"{_BASE}parametros/", views.parameter_value_add, name="parameter_value_add"),
    path(
        f"{_BASE}interpretacoes/<str:interpretation_id>/",
        views.interpretation_choose,
        name="interpretation_choose",
    ),
    path(f"{_BASE}dias-sem-expediente/", views.closure_add, name="closure_add"),
    path(f"{_BASE}dias-sem-expediente/<int:pk>/remover/", views.closure_remove, name="closure_remove"),
]
