"""Load the demo accounts of ``make run`` (idempotent) and print their credentials."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.core.management.base import BaseCommand
from django.db import transaction

from piattaforma import actions, roles
from piattaforma.models import User

DEMO_PASSWORD = "Tavolo-Verde-2026"  # noqa: S105  (demo accounts of the embedded default only)
DEMO_USERS = (
    ("mario", "mario@demo.invalid", roles.PLAYERS),
    ("giulia", "giulia@demo.invalid", roles.PLAYERS),
    ("luca", "luca@demo.invalid", roles.PLAYERS),
    ("anna", "anna@demo.invalid", roles.PLAYERS),
    ("moderatore", "moderatore@demo.invalid", roles.MODERATORS),
    ("staff", "staff@demo.invalid", roles.STAFF),
)


class Command(BaseCommand):
    help = "Crea i conti dimostrativi (giocatori, un moderatore, uno staff) e ne stampa le credenziali."

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        for nickname, email, role in DEMO_USERS:
            user = User.objects.filter(nickname__iexact=nickname).first()
            if user is None:
                user = User.objects.create_user(
                    nickname=nickname, email=email, password=DEMO_PASSWORD, date_of_birth=date(1990, 5, 17)
                )
                actions.user_set_role(user=user, role=role)
        self.stdout.write(f"Conti dimostrativi (password per tutti: {DEMO_PASSWORD}):")
        for nickname, _email, role in DEMO_USERS:
            self.stdout.write(f"  {nickname:<12} {role}")
        self.stdout.write("Back office: /backoffice/ (utente 'staff'; 'moderatore' vede solo la moderazione)")
