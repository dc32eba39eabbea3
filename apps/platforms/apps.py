from django.apps import AppConfig


class PlatformsConfig(AppConfig):
    name = "apps.platforms"
    label = "platforms"
    verbose_name = "Plataformas de aplicativo (API, substituições e cadastros)"

    def ready(self) -> None:
        from apps.platforms import menu, permissions  # noqa: F401  (registrations run on import)
        from apps.platforms.api import schema  # noqa: F401  (OpenAPI security scheme)
