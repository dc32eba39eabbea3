from django.apps import AppConfig


class JobsConfig(AppConfig):
    name = "apps.jobs"
    label = "jobs"
    verbose_name = "Rotinas e e-mails"

    def ready(self) -> None:
        from apps.jobs import menu, metrics, permissions  # noqa: F401  (registrations run on import)
