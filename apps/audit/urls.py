from django.urls import path

from apps.audit import views

app_name = "audit"

urlpatterns = [
    path("auditoria/", views.event_list, name="event_list"),
    path("auditoria/<int:event_id>/", views.event_detail, name="event_detail"),
]
