from django.apps import AppConfig


class SigningConfig(AppConfig):
    name = "apps.signing"
    label = "signing"
    verbose_name = "Assinatura e verificação de documentos"
