"""Payment providers: the interface the wallet talks to, and the embedded sandbox.

A provider is called inside the deposit/withdrawal transaction only to learn the outcome it already
knows (the sandbox settles at once). A real card/bank provider answers "pending" and later calls
back (webhook view -> ``wallet.actions.deposit_settle``); it must never block a database transaction
on a network round trip.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from django.conf import settings
from django.utils.module_loading import import_string


@dataclass(frozen=True, slots=True)
class ProviderResult:
    """What the provider says about one payment."""

    status: str  # "settled", "pending" or "failed"
    reference: str


class PaymentProvider(Protocol):
    """Moves real money in (deposit) and out (payout of an approved withdrawal)."""

    name: str

    def deposit(self, *, payment_id: int, user_id: int, amount: int) -> ProviderResult: ...

    def payout(self, *, payment_id: int, user_id: int, amount: int) -> ProviderResult: ...


class SandboxProvider:
    """The embedded provider: deposits settle at once; approved withdrawals are paid at once."""

    name = "sandbox"

    def deposit(self, *, payment_id: int, user_id: int, amount: int) -> ProviderResult:
        return ProviderResult("settled", f"sandbox-dep-{payment_id}")

    def payout(self, *, payment_id: int, user_id: int, amount: int) -> ProviderResult:
        return ProviderResult("settled", f"sandbox-out-{payment_id}")


def get_provider() -> PaymentProvider:
    """The configured provider (setting WALLET_PAYMENT_PROVIDER, a dotted class path; sandbox by default)."""
    path = getattr(settings, "WALLET_PAYMENT_PROVIDER", "wallet.providers.SandboxProvider")
    provider: PaymentProvider = import_string(path)()
    return provider
