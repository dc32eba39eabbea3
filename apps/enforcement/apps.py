from django.apps import AppConfig


class EnforcementConfig(AppConfig):
    name = "apps.enforcement"
    label = "enforcement"
    verbose_name = "Fiscalização e autos de infração"

    def ready(self) -> None:
        from apps.enforcement import cards, menu, permissions  # noqa: F401  (registrations run on import)
