from django.apps import AppConfig


class TenancyConfig(AppConfig):
    name = "apps.tenancy"
    label = "tenancy"
    verbose_name = "Municípios e papéis"

    def ready(self) -> None:
        from apps.tenancy import permissions  # noqa: F401  (registrations run on import)
