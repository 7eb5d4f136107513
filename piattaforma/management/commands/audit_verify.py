"""Verify the audit log's hash chain: ``manage.py audit_verify`` (exit status 1 and the first broken row)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from piattaforma.audit import audit_verify


class Command(BaseCommand):
    help = "Verifica la catena di impronte del registro di audit e indica la prima riga interrotta."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--chunk-size", type=int, default=2000, help="Righe lette per volta.")

    def handle(self, *args: Any, **options: Any) -> None:
        report = audit_verify(chunk_size=options["chunk_size"])
        if not report.ok:
            raise CommandError(f"Catena di audit interrotta ({report.problem}): {report.message}")
        self.stdout.write(
            self.style.SUCCESS(
                f"Catena di audit integra: {report.rows_checked} righe, ultima {report.head_seq}, "
                f"impronta {report.head_hash}; {report.unsealed} righe in attesa di sigillo"
            )
        )
