"""Alerts to the people who run the site: an e-mail to every active staff user and to ADMINS."""

from __future__ import annotations

from django.conf import settings
from django.core.mail import mail_admins, send_mail

from piattaforma.models import User


def alert_staff(*, subject: str, body: str) -> None:
    """E-mail every active staff user (with an address) and the ADMINS; call it after commit."""
    recipients = list(
        User.objects.filter(is_staff=True, is_active=True).exclude(email="").values_list("email", flat=True)
    )
    if recipients:
        send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, recipients)
    mail_admins(subject, body)
