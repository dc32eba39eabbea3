from django.urls import path

from apps.audit import views

app_name = "audit"

urlpatterns = [
    path("auditoria/", views.event_list, name="event_list"),
]
