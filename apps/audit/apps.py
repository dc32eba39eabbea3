from django.apps import AppConfig


class AuditConfig(AppConfig):
    name = "apps.audit"
    label = "audit"
    verbose_name = "Auditoria"

    def ready(self) -> None:
        from apps.accounts.auditing import AuditWriters, install_audit_writers
        from apps.audit import cards, menu, permissions, services  # noqa: F401  (registrations run on import)

        # accounts, tenancy and web sit below audit: they record their acts through this seam.
        install_audit_writers(
            AuditWriters(
                record=services.audit_record,
                personal_data_read=services.audit_personal_data_read,
                list_export=services.audit_list_export,
            )
        )
