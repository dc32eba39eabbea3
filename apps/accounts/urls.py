from django.urls import path

from apps.accounts import views

urlpatterns = [
    path("entrar/", views.LoginView.as_view(), name="login"),
    path("entrar/verificacao/", views.second_factor_verify, name="second_factor_verify"),
    path("sair/", views.LogoutView.as_view(), name="logout"),
    path("conta/", views.account_security, name="account_security"),
    path("conta/autenticador/novo/", views.second_factor_enrol, name="second_factor_enrol"),
    path("conta/autenticador/<int:pk>/remover/", views.authenticator_remove, name="authenticator_remove"),
    path("conta/codigos-de-recuperacao/", views.recovery_codes_regenerate, name="recovery_codes_regenerate"),
    path("conta/confirmar-identidade/", views.reauthenticate, name="reauthenticate"),
    path("conta/senha/", views.PasswordChangeView.as_view(), name="password_change"),
    path("senha/esqueci/", views.PasswordResetView.as_view(), name="password_reset"),
    path("senha/esqueci/enviado/", views.PasswordResetDoneView.as_view(), name="password_reset_done"),
    path(
        "senha/redefinir/<uidb64>/<token>/",
        views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path("senha/redefinida/", views.PasswordResetCompleteView.as_view(), name="password_reset_complete"),
]
