from django.urls import path

from apps.jobs import views

app_name = "jobs"

urlpatterns = [path("operacao/", views.overview, name="overview")]
