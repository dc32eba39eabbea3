from django.apps import AppConfig


class DueProcessConfig(AppConfig):
    name = "apps.dueprocess"
    label = "dueprocess"
    verbose_name = "Processo administrativo: defesa, recursos, penalidades e multas"

    def ready(self) -> None:
        # Registrations run on import: permissions, enforcement hooks (timeline, history), the fine payment
        # handler and the home cards.
        from apps.dueprocess import cards, hooks, menu, permissions, sweep  # noqa: F401
        from apps.dueprocess.services import effects, nullity  # noqa: F401
        from apps.enforcement.hooks import register_case_opened
        from apps.finance.waiting import retry_waiting
        from apps.licensing.hooks import register_permit_notes, register_permit_replaced
        from apps.licensing.sweep import register_sweep_step as step

        register_case_opened(effects.apply_immediate)
        register_permit_replaced(effects.carry_to_successor)
        register_permit_notes(effects.permit_notes)

        # Each step's place in the night is its name's in apps.licensing.sweep.SWEEP_ORDER.
        step("cases_voided", nullity.void_lapsed_cases, label="Processos arquivados por prazo perdido")
        step("cases_finalized", sweep.finalize_lapsed, label="Processos transitados sem recurso")
        step("conditional_cassations", sweep.revoke_unregularized, label="Cassações sem regularização")
        step(
            "suspensions_held",
            sweep.hold_suspensions_awaiting_inspection,
            label="Suspensões até vistoria",
        )
        # Fine guides that waited for a value (next year's UFESP…) are issued once it is entered; the value's
        # entry queues that at once (apps.finance.waiting), the night retries as a safety net.
        step("waiting_guides_issued", retry_waiting, label="Guias emitidas ao chegar o valor")
