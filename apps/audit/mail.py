"""The checkpoint sent to the auditors: a copy the application server cannot take back."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.mail import EmailMessage


def mail_checkpoint(path: Path, recipients: list[str]) -> None:
    message = EmailMessage(
        subject=f"[Outorga] Ponto de verificação da trilha de auditoria — {path.name}",
        body=(
            "Segue em anexo o ponto de verificação assinado (HMAC-SHA256) das cadeias de auditoria do Outorga: "
            "para cada cadeia, o número de sequência e o hash do último evento.\n\n"
            "Guarde este e-mail. Para conferir o banco de dados contra ele, salve o anexo numa pasta e execute\n"
            "    python manage.py audit_verify --checkpoints <pasta>\n"
            "Uma cadeia apagada, encurtada ou recalculada deixa de conferir com este ponto de verificação."
        ),
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=recipients,
    )
    message.attach(path.name, path.read_text(encoding="utf-8"), "application/json")
    message.send()
