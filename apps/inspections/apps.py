from django.apps import AppConfig


class InspectionsConfig(AppConfig):
    name = "apps.inspections"
    label = "inspections"
    verbose_name = "Vistorias"

    def ready(self) -> None:
        from apps.inspections import cards, menu, permissions  # noqa: F401  (registrations run on import)
