from django.urls import path

from apps.finance import views

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
]
