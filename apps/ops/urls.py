from django.urls import path

from apps.ops import views

app_name = "ops"

urlpatterns = [
    path("saude/vivo/", views.live, name="live"),
    path("saude/pronto/", views.ready, name="ready"),
    path("metricas/", views.metrics, name="metrics"),
]
