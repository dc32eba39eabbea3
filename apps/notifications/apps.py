from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "apps.notifications"
    label = "notifications"
    verbose_name = "Avisos aos autorizatários e condutores"

    def ready(self) -> None:
        from apps.dueprocess.events import register_judgment_recorded
        from apps.enforcement.hooks import register_notice_sent
        from apps.finance.hooks import register_guide_issued
        from apps.inspections.hooks import register_inspection_failed, register_inspection_scheduled
        from apps.licensing.hooks import register_cure_opened
        from apps.licensing.sweep import register_sweep_step
        from apps.notifications import events, menu, permissions, sweep  # noqa: F401  (registrations run on import)

        # Its place (last: after every step that changes a date or records a reminder) is in SWEEP_ORDER.
        register_sweep_step("notifications", sweep.notify_deadlines, label="Avisos de prazos")
        # The apps where these events happen call their hooks; they never import notifications (docs/architecture.md).
        register_notice_sent(events.notify_notice)
        register_judgment_recorded(events.notify_judgment)
        register_guide_issued(events.notify_guide_issued)
        register_inspection_scheduled(events.notify_inspection_scheduled)
        register_inspection_failed(events.notify_inspection_failed)
        register_cure_opened(events.notify_cure_opened)
