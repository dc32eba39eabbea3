from django.urls import path

from apps.signing import views

app_name = "signing"

urlpatterns = [
    path("municipios/<str:ibge_code>/assinatura-de-documentos/", views.policy, name="policy"),
]
