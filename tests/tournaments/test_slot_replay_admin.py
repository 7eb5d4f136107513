"""Staff replay any player's spins at the slot from the back office (read-only, from the journal)."""

from __future__ import annotations

import random
import re

import pytest
from django.urls import reverse

from games.rng import SeededRng
from games.slot import engine
from piattaforma import roles
from tests.piattaforma.factories import UserFactory, sign_in
from tests.tournaments.test_slot import started
from tournaments import slotreplay
from tournaments.models import SlotSession

pytestmark = pytest.mark.django_db

FEATURES = {"bonus", "porta", "bonus_vinto", "free_spin", "lavagnetta", "free_spin_finiti", "pierino"}


def session_with_every_feature() -> tuple[dict, set[str]]:
    """A session played at the machine (seeded) until it has had a bonus, free spins and the wheel."""
    rng, choose = SeededRng(5), random.Random(5)
    state = engine.new(10**9)
    seen: set[str] = set()
    while not seen >= FEATURES:
        spec = choose.choice(engine.legal_actions(state))
        action = {k: v for k, v in spec.items() if k not in ("label", "amount")}
        if "amount" in spec:
            action["amount"] = 100  # the wheel then always enters the Pierino mode
        seen |= {e["type"] for e in engine.apply(state, action, rng)}
        assert state["spins"] < 5000
    engine.expire(state, rng)
    return state, seen


@pytest.fixture
def played(staff):
    t, players = started(staff, starting_chips=10**9)
    state, _seen = session_with_every_feature()
    SlotSession.objects.filter(tournament=t, user=players[0]).update(state=state, credit=state["credit"])
    return t, players, SlotSession.objects.get(tournament=t, user=players[0])


def test_the_replay_rebuilds_every_step_from_the_journal(played):
    _t, _players, session = played
    out = slotreplay.session_replay(session)
    journal = session.state["journal"]
    assert out["exact"] and len(out["steps"]) == len(journal)
    assert out["steps"][-1]["credit"] == session.credit
    assert out["spins"] == session.state["spins"] and out["bet"] == session.state["bet"]
    assert out["won"] == session.state["won"]
    credit = session.state["start_credit"]
    for step, entry in zip(out["steps"], journal, strict=True):
        assert step["credit"] == credit - step["bet"] + step["win"]  # the credit after each step
        credit = step["credit"]
        if entry["action"]["type"] == "gira":
            assert step["stops"] == [stop for _n, stop in entry["draws"][:5]]  # the first draws: the reels
            assert len(step["rows"]) == 3 and all(len(row) == 5 for row in step["rows"])
            won = [int(re.match(r"Linea (\d+):", text)[1]) for text in step["lines"]]
            assert all(1 <= n <= 30 for n in won)  # the paylines as the paytable numbers them
    details = " ".join(text for step in out["steps"] for text in step["details"])
    for words in ("Bonus finito al livello", "Lavagnetta", "Giri gratis giocati", "Ruota", "Fine del tempo"):
        assert words in details
    assert any(step["free_spins"] for step in out["steps"])
    assert any(step["lines"] for step in out["steps"])


def test_a_journal_that_does_not_replay_to_the_session_is_reported(played):
    _t, _players, session = played
    session.state["credit"] += 1  # the stored session no longer what its journal gives
    assert not slotreplay.session_replay(session)["exact"]


def test_staff_open_the_replay_from_the_entrant_and_read_every_spin(client, staff, played):
    t, players, session = played
    sign_in(client, staff)
    page = client.get(reverse("backoffice:tournaments_tournament_change", args=[t.pk])).content.decode()
    url = reverse("backoffice:tournaments_slotsession_replay", args=[session.pk])
    assert url in page  # the entrant's row links to his replay
    listing = client.get(reverse("backoffice:tournaments_slotsession_changelist")).content.decode()
    assert url in listing
    response = client.get(url)
    assert response.status_code == 200
    html = response.content.decode()
    assert players[0].nickname in html
    assert html.count('data-testid="slot-step"') == len(session.state["journal"])
    assert "Giro a puntata" in html and "Sceglie la porta" in html and "Gira la lavagnetta" in html
    assert 'data-testid="replay-mismatch"' not in html
    # read-only: nothing to post, nothing changed
    assert client.post(url, {}).status_code in (200, 405)
    session.refresh_from_db()
    assert session.version == 0


@pytest.mark.parametrize("role", [roles.PLAYERS, roles.MODERATORS])
def test_players_and_moderators_cannot_see_a_replay(client, played, role):
    _t, _players, session = played
    sign_in(client, UserFactory(role=role))
    response = client.get(reverse("backoffice:tournaments_slotsession_replay", args=[session.pk]))
    assert response.status_code in (302, 403)
    assert "Giro a puntata" not in response.content.decode()
