from django.urls import path

from apps.inspections import views

app_name = "inspections"

PREFIX = "municipios/<str:ibge_code>/vistorias/"

urlpatterns = [
    path(PREFIX, views.agenda, name="agenda"),
    path(f"{PREFIX}calendario/", views.calendar_view, name="calendar"),
    path(f"{PREFIX}nao-realizadas/", views.missed_list, name="missed"),
    path(f"{PREFIX}nao-realizadas/<int:pk>/lavrar-auto/", views.missed_confirm, name="missed_confirm"),
    path(f"{PREFIX}nao-realizadas/<int:pk>/descartar/", views.missed_dismiss, name="missed_dismiss"),
    path(f"{PREFIX}agendar/", views.schedule_by_plate, name="schedule_by_plate"),
    path(f"{PREFIX}veiculos/<int:vehicle_pk>/agendar/", views.schedule, name="schedule"),
    path(f"{PREFIX}<int:pk>/", views.detail, name="detail"),
    path(f"{PREFIX}<int:pk>/registrar/", views.record, name="record"),
    path(f"{PREFIX}<int:pk>/registrar/itens/<str:code>/", views.item_toggle, name="item"),
    path(f"{PREFIX}<int:pk>/reagendar/", views.reschedule, name="reschedule"),
]
