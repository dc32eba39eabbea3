from django.urls import path

from apps.notifications import views

app_name = "notifications"

urlpatterns = [path("municipios/<str:ibge_code>/avisos/", views.staff_list, name="staff-list")]
