from django.apps import AppConfig


class ReplayConfig(AppConfig):
    name = "apps.replay"
    label = "replay"
    verbose_name = "Reavaliação de decisões"
