from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "apps.accounts"
    label = "accounts"
    verbose_name = "Contas de usuário"

    def ready(self) -> None:
        from apps.accounts import receivers  # noqa: F401  (registrations run on import)
