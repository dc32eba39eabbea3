from django.apps import AppConfig


class SigningConfig(AppConfig):
    name = "apps.signing"
    label = "signing"
    verbose_name = "Assinatura e verificação de documentos"

    def ready(self) -> None:
        from apps.signing import menu, permissions  # noqa: F401  (registrations run on import)
