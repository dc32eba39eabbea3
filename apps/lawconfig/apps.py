from django.apps import AppConfig


class LawconfigConfig(AppConfig):
    name = "apps.lawconfig"
    label = "lawconfig"
    verbose_name = "Configuração legal do município"

    def ready(self) -> None:
        from apps.lawconfig import cards, permissions  # noqa: F401  (registrations run on import)
