from django.apps import AppConfig


class DueProcessConfig(AppConfig):
    name = "apps.dueprocess"
    label = "dueprocess"
    verbose_name = "Processo administrativo: defesa, recursos, penalidades e multas"

    def ready(self) -> None:
        # Registrations run on import: permissions, enforcement hooks (timeline, history), the fine payment
        # handler and the home cards.
        from apps.dueprocess import cards, demo, hooks, menu, permissions  # noqa: F401
