from django.apps import AppConfig


class RegistryConfig(AppConfig):
    name = "apps.registry"
    label = "registry"
    verbose_name = "Cadastro"

    def ready(self) -> None:
        from apps.registry import cards, menu, permissions  # noqa: F401  (registrations run on import)
