from django.urls import path

from apps.reports import views

app_name = "reports"

urlpatterns = [
    path("municipios/<str:ibge_code>/relatorios/", views.report, name="report"),
    path("municipios/<str:ibge_code>/relatorios/mensal.pdf", views.monthly_pdf, name="monthly_pdf"),
]
