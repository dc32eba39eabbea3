from django.apps import AppConfig


class WebConfig(AppConfig):
    name = "apps.web"
    label = "web"
    verbose_name = "Interface web"

    def ready(self) -> None:
        from apps.web import tenancy_cards  # noqa: F401  (registrations run on import)
