from django.apps import AppConfig


class OpsConfig(AppConfig):
    name = "apps.ops"
    label = "ops"
    verbose_name = "Saúde e métricas"

    def ready(self) -> None:
        from apps.ops import permissions  # noqa: F401  (registrations run on import)
