from django.apps import AppConfig


class FinanceConfig(AppConfig):
    name = "apps.finance"
    label = "finance"
    verbose_name = "Financeiro"

    def ready(self) -> None:
        from apps.finance import cards, lawconfig_card, permissions, waiting  # noqa: F401  (registrations on import)
        from apps.finance.hooks import register_guide_changed, register_guide_issued
        from apps.finance.pix_hooks import charge_follows_guide, charge_for_new_guide
        from apps.lawconfig.hooks import register_configuration_changed

        # A value entered on a screen issues the guides that were waiting for it (the daily sweep's step
        # "waiting_guides_issued", registered by the apps above licensing that own such guides, retries the rest).
        register_configuration_changed(waiting.value_entered)
        register_guide_issued(charge_for_new_guide)
        register_guide_changed(charge_follows_guide)
