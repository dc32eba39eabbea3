from django.apps import AppConfig


class PublicConfig(AppConfig):
    name = "apps.public"
    label = "public"
    verbose_name = "Consulta pública, denúncias e dados abertos"

    def ready(self) -> None:
        from apps.public import cards, menu, permissions  # noqa: F401  (registrations run on import)
