from django.apps import AppConfig


class InspectionsConfig(AppConfig):
    name = "apps.inspections"
    label = "inspections"
    verbose_name = "Vistorias"

    def ready(self) -> None:
        from apps.inspections import cards, menu, permissions, sweep  # noqa: F401  (registrations run on import)
        from apps.licensing.sweep import register_sweep_step

        # Its place (after overdue inspections are flagged) is in apps.licensing.sweep.SWEEP_ORDER.
        register_sweep_step(
            "missed_inspections",
            sweep.find_missed_inspections,
            label="Vistorias do calendário não realizadas",
        )
