import datetime as dt
from typing import Any

from django.apps import AppConfig


class RegistryConfig(AppConfig):
    name = "apps.registry"
    label = "registry"
    verbose_name = "Cadastro"

    def ready(self) -> None:
        from apps.accounts.actors import Actor
        from apps.audit.labels import register_value_labeller
        from apps.lawconfig.hooks import register_configuration_changed
        from apps.registry import cards, menu, permissions  # noqa: F401  (registrations run on import)
        from apps.registry.catalog import document_kind_label
        from apps.registry.services import documents_rejudge

        def rejudge_documents(actor: Actor, municipality: Any, as_of: dt.date) -> None:
            documents_rejudge(actor=actor, municipality=municipality, as_of=as_of)

        register_configuration_changed(rejudge_documents)
        register_value_labeller("kind", document_kind_label)
