from django.apps import AppConfig


class PortalConfig(AppConfig):
    name = "apps.portal"
    label = "portal"
    verbose_name = "Portal do autorizatário e do condutor"

    def ready(self) -> None:
        from apps.enforcement.hooks import register_electronic_consent
        from apps.portal import menu, permissions  # noqa: F401  (registrations run on import)
        from apps.portal.services import standing_consent

        register_electronic_consent(standing_consent)
