from django.apps import AppConfig


class PortalConfig(AppConfig):
    name = "apps.portal"
    label = "portal"
    verbose_name = "Portal do autorizatário e do condutor"

    def ready(self) -> None:
        from apps.portal import menu, permissions  # noqa: F401  (registrations run on import)
