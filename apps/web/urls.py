from django.urls import path

from apps.web import views

urlpatterns = [
    path("", views.home, name="home"),
    path("municipios/trocar/", views.municipality_switch, name="municipality_switch"),
    path("municipios/<str:ibge_code>/", views.municipality_home, name="municipality_home"),
    path("municipios/<str:ibge_code>/cartoes/", views.municipality_cards, name="municipality_cards"),
]
