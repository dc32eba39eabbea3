from django.urls import path

from apps.replay import views

app_name = "replay"

urlpatterns = [
    path(
        "municipios/<str:ibge_code>/decisoes/<str:source>/<int:pk>/reavaliacao/",
        views.decision_replay,
        name="decision",
    ),
]
