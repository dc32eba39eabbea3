from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "apps.notifications"
    label = "notifications"
    verbose_name = "Avisos aos autorizatários e condutores"

    def ready(self) -> None:
        from apps.licensing.sweep import register_sweep_step
        from apps.notifications import menu, permissions, sweep  # noqa: F401  (registrations run on import)

        # After every step that changes a date or records one (the reminders are 160 and 170).
        register_sweep_step("notifications", sweep.notify_deadlines, 180, label="Avisos de prazos")
