from django.urls import path

from apps.registry import traffic_views, views

app_name = "registry"

_BASE = "municipios/<str:ibge_code>/cadastro/"

urlpatterns = [
    path(f"{_BASE}autorizatarios/", views.operator_list_view, name="operator_list"),
    path(f"{_BASE}autorizatarios/novo/", views.operator_create, name="operator_create"),
    path(f"{_BASE}autorizatarios/<int:pk>/", views.operator_detail, name="operator_detail"),
    path(f"{_BASE}autorizatarios/<int:pk>/condutores/novo/", views.driver_create, name="driver_create"),
    path(f"{_BASE}autorizatarios/<int:pk>/monitores/novo/", views.attendant_create, name="attendant_create"),
    path(f"{_BASE}autorizatarios/<int:pk>/veiculos/novo/", views.vehicle_create, name="vehicle_create"),
    path(f"{_BASE}autorizatarios/<int:pk>/documentos/novo/", views.document_upload, name="document_upload"),
    path(f"{_BASE}veiculos/", views.vehicle_list, name="vehicle_list"),
    path(f"{_BASE}condutores/", views.driver_list, name="driver_list"),
    path(f"{_BASE}documentos/", views.document_list, name="document_list"),
    path(f"{_BASE}pessoas/nova/", views.person_create, name="person_create"),
    path(f"{_BASE}pessoas/<int:pk>/editar/", views.person_edit, name="person_edit"),
    path(f"{_BASE}empresas/nova/", views.company_create, name="company_create"),
    path(f"{_BASE}empresas/<int:pk>/editar/", views.company_edit, name="company_edit"),
    path(f"{_BASE}condutores/<int:pk>/editar/", views.driver_edit, name="driver_edit"),
    path(f"{_BASE}condutores/<int:pk>/prontuario/", traffic_views.driver_record, name="driver_record"),
    path(
        f"{_BASE}condutores/<int:pk>/prontuario/infracoes/<int:infraction_pk>/retirar/",
        traffic_views.traffic_infraction_remove,
        name="traffic_infraction_remove",
    ),
    path(f"{_BASE}veiculos/<int:pk>/editar/", views.vehicle_edit, name="vehicle_edit"),
    path(f"{_BASE}veiculos/<int:pk>/vinculo/", views.vehicle_ownership, name="vehicle_ownership"),
    path(f"{_BASE}documentos/catalogo/", views.document_catalog_view, name="document_catalog"),
    path(f"{_BASE}documentos/<int:pk>/arquivo/", views.document_file, name="document_file"),
    path(f"{_BASE}<str:kind>/<int:pk>/encerrar/", views.link_deactivate, name="link_deactivate"),
]
