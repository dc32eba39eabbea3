from django.urls import include, path

from apps.platforms import views

app_name = "platforms"

urlpatterns = [
    path(
        "municipios/<str:ibge_code>/aplicativos/substituicoes/",
        views.substitution_queue,
        name="substitution-queue",
    ),
    path(
        "municipios/<str:ibge_code>/aplicativos/substituicoes/<int:pk>/decidir/",
        views.substitution_decide,
        name="substitution-decide",
    ),
    path("municipios/<str:ibge_code>/aplicativos/credenciais/", views.credentials, name="credentials"),
    path(
        "municipios/<str:ibge_code>/aplicativos/credenciais/<int:pk>/revogar/",
        views.credential_revoke_view,
        name="credential-revoke",
    ),
    path("municipios/<str:ibge_code>/aplicativos/cadastros/", views.roster_imports, name="roster-imports"),
    path(
        "municipios/<str:ibge_code>/aplicativos/cadastros/<int:pk>/",
        views.roster_import_progress,
        name="roster-import",
    ),
    path(
        "municipios/<str:ibge_code>/aplicativos/cadastros/<int:pk>/recusas.csv",
        views.roster_import_report,
        name="roster-import-report",
    ),
    path("api/v1/platform/", include("apps.platforms.api.urls")),
]
