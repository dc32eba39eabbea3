"""Finance: fee schedule, payment guides (PDF + static PIX BR Code), payments, refunds.

What other apps call (all keyword-only, each one transaction with its audit event; refusals are Django
ValidationError keyed by field, in Portuguese, with nothing stored):

    services.fee_guide_issue(actor, municipality, fee_kind, payer_name, payer_document, origin_type, origin_id,
                             fact_date, as_of, regime_id=None) -> PaymentGuide
        the fee in force on fact_date (FeeSchedule), valued in reais by the engine (fine_amount question).
    services.guide_issue(actor, municipality, regime_id, charge=valuation.Charge(quantity, unit, cite,
                         description, fee_kind="", auto_date=None), payer_name, payer_document, origin_type,
                         origin_id, fact_date, as_of, due_on=None) -> PaymentGuide        (fines: unit "ufesp"/"ufm")
    services.payment_register(actor, guide, paid_on, amount_brl, method, reference, as_of) -> Payment
    services.guide_cancel(actor, guide, reason, as_of) / refund_create(actor, payment, amount_brl, due_on, reason,
                          as_of) / refund_mark_paid(actor, refund, paid_on, reference, as_of)
    origins.register_payment_handler(origin_type, handler)   # handler(*, guide, payment, actor, as_of)
"""
