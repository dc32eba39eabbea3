"""Portal routes under /portal/ (namespace "portal") and the staff screen under the municipality."""

from django.urls import path

from apps.portal import staff_views, views

app_name = "portal"

urlpatterns = [
    path("portal/entrar/", views.PortalLoginView.as_view(), name="login"),
    path("portal/entrar/govbr/", views.GovBrLoginView.as_view(), name="govbr-login"),
    path("portal/entrar/govbr/retorno/", views.GovBrCallbackView.as_view(), name="govbr-callback"),
    path("portal/primeiro-acesso/", views.claim, name="claim"),
    path("portal/convite/<str:token>/", views.invitation_accept, name="invitation-accept"),
    path("portal/", views.home, name="home"),
    path("portal/veiculos/", views.vehicles, name="vehicles"),
    path("portal/alvaras/<int:pk>/pdf/", views.permit_pdf, name="permit-pdf"),
    path("portal/documentos/", views.documents, name="documents"),
    path("portal/documentos/<int:pk>/renovar/", views.document_renew, name="document-renew"),
    path("portal/prontuarios/", views.driving_records, name="driving-records"),
    path("portal/requerimentos/", views.applications, name="applications"),
    path("portal/requerimentos/novo/", views.application_new, name="application-new"),
    path("portal/requerimentos/<int:pk>/", views.application_detail, name="application"),
    path("portal/pagamentos/", views.guides, name="guides"),
    path("portal/pagamentos/<int:pk>/", views.guide_detail, name="guide"),
    path("portal/pagamentos/<int:pk>/guia.pdf", views.guide_pdf_download, name="guide-pdf"),
    path("portal/pagamentos/<int:pk>/comprovante.pdf", views.guide_receipt, name="guide-receipt"),
    path("portal/autos/", views.cases, name="cases"),
    path("portal/autos/<int:pk>/", views.case_detail, name="case"),
    path("portal/notificacoes/<int:pk>/pdf/", views.notice_pdf, name="notice-pdf"),
    path("portal/avisos/", views.notifications, name="notifications"),
    path("portal/notificacao-eletronica/", views.electronic_notice, name="electronic-notice"),
    path("portal/avisos/<int:pk>/", views.notification_open, name="notification"),
    path("municipios/<str:ibge_code>/portal/contas/", staff_views.account_list, name="staff-accounts"),
    path(
        "municipios/<str:ibge_code>/portal/contas/<int:pk>/situacao/",
        staff_views.account_set_active,
        name="staff-account-set-active",
    ),
    path(
        "municipios/<str:ibge_code>/portal/documentos-enviados/",
        staff_views.submission_list,
        name="staff-submissions",
    ),
    path(
        "municipios/<str:ibge_code>/portal/documentos-enviados/<int:pk>/arquivo/",
        staff_views.submission_file,
        name="staff-submission-file",
    ),
    path(
        "municipios/<str:ibge_code>/portal/documentos-enviados/<int:pk>/<str:verdict>/",
        staff_views.submission_decide,
        name="staff-submission-decide",
    ),
]
