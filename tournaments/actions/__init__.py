"""Every write of the tournaments, one module a concern; other code calls the names this package
exports.

Lock order, everywhere: the tournament row first (``common.tournament_lock``), then its
registrations, then the wallet's accounts (inside the wallet actions). Money moves only through
wallet actions, on the tournament's pool account; a refund reverses exactly the entry transaction,
so the ledger stays zero-sum whatever path a registration takes. The regulator is asked outside
any transaction (``registration_authorise``), and its answer applied under the locks
(``registration_decide``).

- ``creation``: tournaments created, a sit&go repeated, schedules and the tournaments they create.
- ``registration``: who may enter, registration and cancellation, a training entry's confirmation.
- ``regulator``: the regulator's answer on each entry and cancellation, a money tournament's code.
- ``closing``: the close of registration, and the opening of an announced tournament.
- ``sweeps``: the beat's sweep of what is due.
- ``staff``: a tournament cancelled by staff.
- ``faults``: one player's entry given back, or one turn's match replayed, for a fault of the
  platform.
- ``common``: what they share: the lock, staff checks, refunds, the Celery tasks sent after commit
  (by name: ``tournaments.tasks`` calls these actions, they never import it).

The modules import each other one way: ``common`` at the bottom, ``creation`` on it, ``closing`` on
``creation``, ``registration`` and ``regulator`` on ``closing``, ``sweeps`` on top.
"""

from tournaments.actions.closing import tournament_close, tournament_open
from tournaments.actions.creation import SCHEDULE_HORIZON, schedule_create, schedules_run, tournament_create
from tournaments.actions.faults import (
    fault_refund_preview,
    match_replay,
    match_replay_preview,
    registration_fault_refund,
)
from tournaments.actions.registration import (
    TRAINING_LIMITS,
    check_admission,
    check_registration,
    check_training_limits,
    entry_rules_refusal,
    registration_cancel,
    registration_confirm,
    registration_create,
    registration_refusal,
    registrations_withdraw_blocked,
    satellite_seat_enter,
)
from tournaments.actions.regulator import (
    AUTHORISATION_MAX_ATTEMPTS,
    AUTHORISATION_RETRY_AFTER,
    registration_authorise,
    registration_decide,
    tournament_adm_code_obtain,
)
from tournaments.actions.staff import tournament_cancel
from tournaments.actions.sweeps import tournaments_sweep

__all__ = [
    "AUTHORISATION_MAX_ATTEMPTS",
    "AUTHORISATION_RETRY_AFTER",
    "SCHEDULE_HORIZON",
    "TRAINING_LIMITS",
    "check_admission",
    "check_registration",
    "check_training_limits",
    "entry_rules_refusal",
    "fault_refund_preview",
    "match_replay",
    "match_replay_preview",
    "registration_authorise",
    "registration_cancel",
    "registration_confirm",
    "registration_create",
    "registration_decide",
    "registration_fault_refund",
    "registration_refusal",
    "registrations_withdraw_blocked",
    "satellite_seat_enter",
    "schedule_create",
    "schedules_run",
    "tournament_adm_code_obtain",
    "tournament_cancel",
    "tournament_close",
    "tournament_create",
    "tournament_open",
    "tournaments_sweep",
]
