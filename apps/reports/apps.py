from django.apps import AppConfig


class ReportsConfig(AppConfig):
    name = "apps.reports"
    label = "reports"
    verbose_name = "Relatórios"

    def ready(self) -> None:
        from apps.reports import menu, permissions  # noqa: F401  (registrations run on import)
