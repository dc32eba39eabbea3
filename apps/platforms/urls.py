from django.urls import include, path

from apps.platforms import views

app_name = "platforms"

urlpatterns = [
    path("municipios/<str:ibge_code>/aplicativos/substituicoes/", views.substitution_queue,
         name="substitution-queue"),
    path("municipios/<str:ibge_code>/aplicativos/substituicoes/<int:pk>/decidir/", views.substitution_decide,
         name="substitution-decide"),
    path("api/v1/platform/", include("apps.platforms.api.urls")),
]  # fmt: skip
