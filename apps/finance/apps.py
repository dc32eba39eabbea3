from django.apps import AppConfig


class FinanceConfig(AppConfig):
    name = "apps.finance"
    label = "finance"
    verbose_name = "Financeiro"

    def ready(self) -> None:
        from apps.finance import cards, lawconfig_card, permissions  # noqa: F401  (registrations run on import)
