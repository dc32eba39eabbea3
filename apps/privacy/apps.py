from django.apps import AppConfig


class PrivacyConfig(AppConfig):
    name = "apps.privacy"
    label = "privacy"
    verbose_name = "Proteção de dados (LGPD)"

    def ready(self) -> None:
        from apps.audit.people import register_people_matcher
        from apps.privacy import cards, menu  # noqa: F401  (registrations run on import)
        from apps.privacy.subjects import events_about_query

        register_people_matcher(events_about_query)
