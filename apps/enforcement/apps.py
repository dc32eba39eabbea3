from django.apps import AppConfig


class EnforcementConfig(AppConfig):
    name = "apps.enforcement"
    label = "enforcement"
    verbose_name = "Fiscalização e autos de infração"

    def ready(self) -> None:
        from apps.enforcement import cards, menu, permissions  # noqa: F401  (registrations run on import)
        from apps.enforcement.services.notices import electronic_lapse_sweep
        from apps.licensing.sweep import register_sweep_step

        register_sweep_step(
            "electronic_ciencia",
            electronic_lapse_sweep,
            label="Ciência de notificações eletrônicas por decurso",
        )
