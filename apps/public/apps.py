from django.apps import AppConfig


class PublicConfig(AppConfig):
    name = "apps.public"
    label = "public"
    verbose_name = "Consulta pública, denúncias e dados abertos"

    def ready(self) -> None:
        from django.db.models.signals import post_delete, post_save

        from apps.audit.observers import register_recorded
        from apps.public import cards, menu, metrics, permissions  # noqa: F401  (registrations run on import)
        from apps.public.kept import forget_towns
        from apps.public.refresh import PERMIT, permit_recorded
        from apps.tenancy.models import Municipality

        for signal in (post_save, post_delete):
            signal.connect(forget_towns, sender=Municipality, dispatch_uid=f"public-{signal}")
        register_recorded(PERMIT, permit_recorded)
