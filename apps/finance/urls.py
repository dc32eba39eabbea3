from django.urls import path

from apps.finance import pix_webhook, views, views_pix

app_name = "finance"

PREFIX = "municipios/<str:ibge_code>/financeiro/"

urlpatterns = [
    path(f"{PREFIX}guias/", views.guide_list, name="guide_list"),
    path(f"{PREFIX}guias/<int:pk>/", views.guide_detail, name="guide_detail"),
    path(f"{PREFIX}guias/<int:pk>/pdf/", views.guide_pdf_view, name="guide_pdf"),
    path(f"{PREFIX}guias/<int:pk>/pagamento/", views.payment_register, name="payment_register"),
    path(f"{PREFIX}guias/<int:pk>/cancelar/", views.guide_cancel, name="guide_cancel"),
    path(f"{PREFIX}guias/<int:pk>/restituicao/", views.refund_create, name="refund_create"),
    path(f"{PREFIX}guias-aguardando-valor/", views.waiting_list, name="waiting_list"),
    path(f"{PREFIX}restituicoes/", views.refund_list, name="refund_list"),
    path(f"{PREFIX}restituicoes/<int:pk>/pagar/", views.refund_mark_paid, name="refund_mark_paid"),
    path(f"{PREFIX}configuracao/", views.settings_edit, name="settings_edit"),
    path(f"{PREFIX}configuracao/taxas/", views.fee_create, name="fee_create"),
    # Charges with due date at the municipality's PSP (issue 30): the bank's webhook, the review queue, terms.
    path("pix/webhook/<str:ibge_code>/pix", pix_webhook.pix_webhook, name="pix_webhook"),
    path(f"{PREFIX}conferencia/", views_pix.review_list, name="review_list"),
    path(f"{PREFIX}conferencia/<int:pk>/decidir/", views_pix.review_decide, name="review_decide"),
    path(f"{PREFIX}conferencia/retorno-cnab/", views_pix.cnab_upload, name="cnab_upload"),
    path(f"{PREFIX}configuracao/cobranca-pix/", views_pix.charge_terms_edit, name="charge_terms_edit"),
]
