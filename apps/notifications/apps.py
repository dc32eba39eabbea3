from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "apps.notifications"
    label = "notifications"
    verbose_name = "Avisos aos autorizatários e condutores"

    def ready(self) -> None:
        from apps.licensing.sweep import register_sweep_step
        from apps.notifications import menu, permissions, sweep  # noqa: F401  (registrations run on import)

        # Its place (last: after every step that changes a date or records a reminder) is in SWEEP_ORDER.
        register_sweep_step("notifications", sweep.notify_deadlines, label="Avisos de prazos")
