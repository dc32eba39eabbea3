from django.apps import AppConfig


class AuditConfig(AppConfig):
    name = "apps.audit"
    label = "audit"
    verbose_name = "Auditoria"

    def ready(self) -> None:
        from apps.audit import cards, menu, permissions  # noqa: F401  (registrations run on import)
