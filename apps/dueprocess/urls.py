from django.urls import path

from apps.dueprocess import views

app_name = "dueprocess"

PREFIX = "municipios/<str:ibge_code>/processos/"

urlpatterns = [
    path(f"{PREFIX}fila/<str:instance>/", views.queue, name="queue"),
    path(f"{PREFIX}recursos/<int:pk>/julgar/", views.judge, name="judge"),
    path(f"{PREFIX}autos/<int:pk>/", views.case_page, name="case"),
    path(f"{PREFIX}autos/<int:pk>/recurso/", views.appeal_new, name="appeal_new"),
    path(f"{PREFIX}autos/<int:pk>/definitiva/", views.finalize, name="finalize"),
    path(f"{PREFIX}autos/<int:pk>/regularizacao/", views.regularize, name="regularize"),
    path(f"{PREFIX}regularizacoes/<int:pk>/", views.regularization_file, name="regularization_file"),
    path(f"{PREFIX}efeitos/<int:pk>/liberar/", views.seizure_release, name="seizure_release"),
    path(f"{PREFIX}anexos/<int:pk>/", views.attachment_file, name="attachment"),
    path(f"{PREFIX}penalidades/<int:pk>/guia/", views.fine_issue, name="fine_issue"),
    path("municipios/<str:ibge_code>/financeiro/divida-ativa/", views.active_debt_view, name="active_debt"),
    path("municipios/<str:ibge_code>/financeiro/divida-ativa/eventos/", views.tax_feed_view, name="tax_feed"),
]
