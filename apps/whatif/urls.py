from django.urls import path

from apps.whatif import views

app_name = "whatif"

_BASE = "municipios/<str:ibge_code>/simulacoes/"

urlpatterns = [
    path(_BASE, views.runs, name="runs"),
    path(f"{_BASE}<int:pk>/", views.run_detail, name="run"),
]
