from django.apps import AppConfig


class WhatIfConfig(AppConfig):
    name = "apps.whatif"
    label = "whatif"
    verbose_name = "Simulação de mudança na lei"

    def ready(self) -> None:
        from apps.whatif import menu, permissions  # noqa: F401  (registrations run on import)
