"""The regulator's authorisation of money paid into games (rules 004, "Autorizzazioni AAMS", "Rebuy").

"Tutte le iscrizioni e cancellazioni dei tornei a pagamento devono essere autorizzate", and at a
cash table "effettuato il versamento al giocatore comparirà il biglietto AAMS relativo alla
transazione effettuata": each paid registration, cancellation, buy-in and rebuy is sent to the
regulator, which answers after a moment with a ticket number ("numero del biglietto rilasciato da
AAMS") or a refusal, or does not answer in time. The apps talk to it only through ``Authorizer``;
``get_authorizer`` builds the one configured in ``settings.REGULATOR`` (default: the embedded
``SimulatedRegulator``). Calls happen outside any database transaction (tournaments.tasks, the
lobby's door), never while a row is locked.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from typing import Any, Protocol

from django.conf import settings
from django.utils.module_loading import import_string


@dataclass(frozen=True, slots=True)
class Decision:
    """The regulator's answer: authorised with a ticket number, or refused with a reason."""

    authorised: bool
    ticket: str = ""
    reason: str = ""


class AuthorisationTimeout(Exception):
    """The regulator did not answer in time: nothing was decided, ask again later."""


class Authorizer(Protocol):
    """What the platform needs from the regulator."""

    def open_tournament(self, *, tournament_ref: str, name: str, cost: int) -> str:
        """Announce a money tournament; return the regulator's code of the tournament."""
        ...

    def authorise_entry(
        self, *, request_id: str, tournament_code: str, player_ref: str, amount: int
    ) -> Decision:
        """Authorise one paid registration (``request_id`` is stable across retries)."""
        ...

    def authorise_cancellation(self, *, request_id: str, tournament_code: str, ticket: str) -> Decision:
        """Authorise the cancellation of the registration that received ``ticket``."""
        ...

    def authorise_table_payment(
        self, *, request_id: str, table_code: str, player_ref: str, amount: int, kind: str
    ) -> Decision:
        """Authorise money moved onto a cash table (``kind``: "buy_in" or "rebuy")."""
        ...

    def void_table_payment(self, *, request_id: str, ticket: str) -> Decision:
        """Withdraw the ticket of a table payment the platform did not carry out after all."""
        ...


class SimulatedRegulator:
    """The embedded default: a stand-in for the regulator's service, with no network.

    It answers after ``delay`` seconds; ``mode`` "accept" authorises everything, "refuse" refuses
    everything, "timeout" never answers (raises AuthorisationTimeout after the delay).
    ``refuse_players`` refuses only those player refs. Tickets are derived from the request id, so
    asking twice for the same request gives the same ticket, as an idempotent service would.
    """

    def __init__(self, *, delay: float = 0.3, mode: str = "accept", refuse_players: tuple[str, ...] = ()):
        if mode not in ("accept", "refuse", "timeout"):
            raise ValueError(f"unknown simulator mode {mode!r}")
        self.delay = delay
        self.mode = mode
        self.refuse_players = set(refuse_players)

    @staticmethod
    def _number(prefix: str, seed: str) -> str:
        digits = int(hashlib.sha256(seed.encode()).hexdigest()[:15], 16) % 10**16
        return f"{prefix}{digits:016d}"

    def _answer(self, request_id: str, refuse: bool) -> Decision:
        if self.delay:
            time.sleep(self.delay)
        if self.mode == "timeout":
            raise AuthorisationTimeout(request_id)
        if self.mode == "refuse" or refuse:
            return Decision(False, reason="Rifiutata dal simulatore")
        return Decision(True, ticket=self._number("ADM", request_id))

    def open_tournament(self, *, tournament_ref: str, name: str, cost: int) -> str:
        return self._number("TRN", f"tournament:{tournament_ref}")

    def authorise_entry(
        self, *, request_id: str, tournament_code: str, player_ref: str, amount: int
    ) -> Decision:
        return self._answer(request_id, player_ref in self.refuse_players)

    def authorise_cancellation(self, *, request_id: str, tournament_code: str, ticket: str) -> Decision:
        return self._answer(request_id, False)

    def authorise_table_payment(
        self, *, request_id: str, table_code: str, player_ref: str, amount: int, kind: str
    ) -> Decision:
        return self._answer(request_id, player_ref in self.refuse_players)

    def void_table_payment(self, *, request_id: str, ticket: str) -> Decision:
        return self._answer(request_id, False)


def get_authorizer() -> Authorizer:
    """The regulator configured in ``settings.REGULATOR`` ({"backend": dotted path, options})."""
    config: dict[str, Any] = dict(getattr(settings, "REGULATOR", {}))
    backend = config.pop("backend", "piattaforma.regulator.SimulatedRegulator")
    authorizer: Authorizer = import_string(backend)(**config)
    return authorizer
