from django.apps import AppConfig


class FinanceConfig(AppConfig):
    name = "apps.finance"
    label = "finance"
    verbose_name = "Financeiro"

    def ready(self) -> None:
        from apps.finance import cards, lawconfig_card, permissions  # noqa: F401  (registrations run on import)
        from apps.finance.hooks import register_guide_changed, register_guide_issued
        from apps.finance.pix_hooks import charge_follows_guide, charge_for_new_guide

        register_guide_issued(charge_for_new_guide)
        register_guide_changed(charge_follows_guide)
