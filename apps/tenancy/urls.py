from django.urls import path

from apps.tenancy import views

app_name = "tenancy"

_TEAM = "municipios/<str:ibge_code>/equipe/"

urlpatterns = [
    path("instalacao/municipios/", views.municipality_list, name="municipality_list"),
    path("instalacao/municipios/novo/", views.municipality_new, name="municipality_new"),
    path(_TEAM, views.team_list, name="team_list"),
    path("municipios/<str:ibge_code>/contato-publico/", views.public_contact, name="public_contact"),
    path("municipios/<str:ibge_code>/regimes/", views.regimes, name="regimes"),
    path(f"{_TEAM}convidar/", views.staff_invite, name="staff_invite"),
    path(
        f"{_TEAM}convites/<int:pk>/cancelar/", views.staff_invitation_revoke, name="staff_invitation_revoke"
    ),
    path(f"{_TEAM}<int:user_id>/", views.member_detail, name="member_detail"),
    path(f"{_TEAM}<int:user_id>/papeis/", views.member_roles, name="member_roles"),
    path(f"{_TEAM}<int:user_id>/papeis/novo/", views.member_role_add, name="member_role_add"),
    path(
        f"{_TEAM}<int:user_id>/papeis/<int:membership_id>/retirar/",
        views.member_role_remove,
        name="member_role_remove",
    ),
    path(f"{_TEAM}<int:user_id>/conta/", views.member_set_active, name="member_set_active"),
    path(
        f"{_TEAM}<int:user_id>/segundo-fator/",
        views.member_second_factor_reset,
        name="member_second_factor_reset",
    ),
    path("convite/<str:token>/", views.invitation_accept, name="invitation_accept"),
]
