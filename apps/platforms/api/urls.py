from django.urls import path

from apps.platforms.api import views

app_name = "platform-api"

urlpatterns = [
    path("<str:ibge_code>/checks/", views.CheckView.as_view(), name="checks"),
    path("<str:ibge_code>/substitutions/", views.SubstitutionCreateView.as_view(), name="substitutions"),
    path(
        "<str:ibge_code>/substitutions/<int:pk>/", views.SubstitutionDetailView.as_view(), name="substitution"
    ),
    path("<str:ibge_code>/changes/", views.ChangeFeedView.as_view(), name="changes"),
    path("<str:ibge_code>/roster/", views.RosterUploadView.as_view(), name="roster"),
    path("<str:ibge_code>/roster/<int:pk>/", views.RosterImportView.as_view(), name="roster-import"),
]
