from django.apps import AppConfig


class JobsConfig(AppConfig):
    name = "apps.jobs"
    label = "jobs"
    verbose_name = "Rotinas e e-mails"

    def ready(self) -> None:
        from apps.accounts import outbox
        from apps.jobs import menu, metrics, permissions  # noqa: F401  (registrations run on import)
        from apps.jobs.services import MailDraft, mail_queue

        def enqueue(recipient: str, subject: str, body: str, reason: str) -> None:
            mail_queue(drafts=[MailDraft(recipient=recipient, subject=subject, body=body)], reason=reason)

        outbox.register(enqueue)  # accounts sits below jobs: it reaches the outbox through this hook
