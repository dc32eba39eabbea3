from django.urls import path

from apps.tenancy import views

app_name = "tenancy"

urlpatterns = [
    path("municipios/<str:ibge_code>/equipe/", views.team_list, name="team_list"),
    path("municipios/<str:ibge_code>/equipe/<int:user_id>/", views.member_detail, name="member_detail"),
]
