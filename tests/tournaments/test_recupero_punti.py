"""Rules 004, training tournaments, "Recupero punti automatico": in a tournament of pairs, a match
lost by tempo scaduto through one partner's slowness (more than 3/4 of the line's time) counts 10 VP
and 0 MP for his partner (RULINGS K9: the pair's one line); and once his partner has received 2
warnings, the player may leave ("Abbandona") without consequences, his participation void.

The matches' ends are delivered as the lobby's ``hooks.match_ended`` reports them (unit level: no
hands are played), so each test runs in about a second.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from moderation import selectors as moderation
from moderation.models import ConductEvent
from piattaforma.models import User
from tests.piattaforma.factories import sign_in
from tests.tournaments.conftest import FUNDS
from tests.tournaments.factories import enter, make_tournament
from tests.tournaments.running_helpers import full_tournament, ledger_zero, pool
from tests.wallet.factories import funded_player
from tournaments import actions, running, selectors
from tournaments.models import Registration, Tournament, TournamentMatch
from wallet import selectors as wallet_selectors

FULL_MS = 600_000


def _result(t: Tournament, match: TournamentMatch, **forfeit: Any) -> dict[str, Any]:
    """What the lobby reports at a match's end: seats 1+3 (line A) against 2+4 (line B).

    ``forfeit``: ``kind`` ("tempo_scaduto" or "abbandona"), ``line`` (0: A, 1: B), ``seat``,
    ``used`` (seat -> ms of the line's tempo partita), ``ran_out`` (the line's time is used up).
    Without it line A wins 21-12 on points.
    """
    lines = t.progress["lines"]
    a, b = lines[match.line_a], lines[match.line_b]
    users = {1: a[0], 2: b[0], 3: a[1], 4: b[1]}
    loser = forfeit.get("line", 1)
    per_seat = {}
    for seat in users:
        line = 0 if seat in (1, 3) else 1
        lost = line == loser
        if forfeit:
            vp, mp = (0, -1) if lost else (20, 1)  # K6: the forfeit's minimum MP
        else:
            vp, mp = (0, -9) if lost else (20, 9)
        per_seat[str(seat)] = {"vp": vp, "mp": mp, "points": 12 if lost else 21, "won": not lost}
    outcome: dict[str, Any] = {"per_seat": per_seat, "lines": [[1, 3], [2, 4]]}
    clocks = {"0": FULL_MS // 2, "1": FULL_MS // 2}
    if forfeit:
        outcome["forfeit"] = {"line": loser, "kind": forfeit["kind"], "penalty": 0, "seat": forfeit["seat"]}
        if forfeit.get("ran_out"):
            clocks[str(loser)] = 0
    used = forfeit.get("used", {})
    return {
        "tournament_id": t.pk,
        "table_id": match.table_id,
        "game": t.game,
        "outcome": outcome,
        "seats": [
            {"seat": s, "user_id": u, "acted": True, "connected": True, "used_ms": used.get(s, 0)}
            for s, u in users.items()
        ],
        "tempo_partita_ms": FULL_MS,
        "clocks_left": clocks,
    }


def _pairs(staff, *, lines: str = "random_pairs", turns: int = 1, training: bool = True) -> Tournament:
    if lines == "random_pairs":
        t, _players = full_tournament(
            staff, 8, table="4", lines=lines, turns=turns, format="danese", training=training
        )
        return t
    t = make_tournament(
        staff, kind=Tournament.Kind.SITGO, max_players=8, lines=lines, table="4", turns=turns,
        smazzate=1, training=training,
    )  # fmt: skip
    players = [funded_player(FUNDS) for _ in range(8)]
    for first, second in zip(players[::2], players[1::2], strict=True):
        actions.registration_create(
            tournament_id=t.pk, user=first, idempotency_key=f"p{first.pk}", partner=second
        )
        enter(t, second)
    from tests.tournaments.conftest import authorise_all

    authorise_all(t)
    assert running.tournament_start(tournament_id=t.pk)
    t.refresh_from_db()
    return t


def _turn(t: Tournament, first: dict[str, Any] | None = None) -> list[TournamentMatch]:
    """End the turn: the first match as ``first`` says (line A forfeits), the others played to the end."""
    matches = list(TournamentMatch.objects.filter(tournament=t, turn=t.turn).order_by("number"))
    for i, m in enumerate(matches):
        if i == 0 and first is not None:
            running.match_record(_result(t, m, line=0, **first))
        else:
            running.match_record(_result(t, m))
    running.tournament_advance(tournament_id=t.pk)
    t.refresh_from_db()
    for m in matches:
        m.refresh_from_db()
    return matches


@pytest.mark.parametrize("lines", ["random_pairs", "fixed_pairs"])
def test_tempo_scaduto_through_a_slow_partner_counts_10_vp_0_mp(
    staff, django_capture_on_commit_callbacks, lines
):
    """Seat 1 used 80 % of the line's time, his partner (seat 3) the rest: the line gets 10 VP and
    0 MP, not the forfeit's 0 VP / -1 MP, in the match, the totals and the standings page.
    The other line keeps its forfeit win (K6); the slow one still gets his warning."""
    t = _pairs(staff, lines=lines)
    with django_capture_on_commit_callbacks(execute=True):
        m, _other = _turn(
            t, {"kind": "tempo_scaduto", "seat": 3, "ran_out": True, "used": {1: 480_000, 3: 120_000}}
        )
    slow, partner = t.progress["lines"][m.line_a]
    assert m.result["forfeit"] == "expired" and m.result["offender"] == "a"
    assert (m.result["a"]["vp"], m.result["a"]["mp"]) == (10, 0)
    assert m.result["a"]["recupero"] == {"partners": [partner], "vp": 0, "mp": -1}  # the real result kept
    assert (m.result["b"]["vp"], m.result["b"]["mp"]) == (20, 1)
    assert t.progress["totals"][m.line_a] == [10, 0]
    rows = selectors.standings_by_turn(tournament=t)[0]["rows"]
    assert [(r["vp"], r["mp"], r["turn_vp"]) for r in rows].count((10, 0, 10)) == 1
    assert ConductEvent.objects.get(user_id=slow).kind == "slow"
    assert not ConductEvent.objects.filter(user_id=partner).exists()


@pytest.mark.parametrize(
    "first",
    [
        {"kind": "tempo_scaduto", "seat": 3, "ran_out": True, "used": {1: 360_000, 3: 240_000}},  # 60/40
        {"kind": "tempo_scaduto", "seat": 3, "ran_out": False},  # a timeout, not tempo scaduto
        {"kind": "abbandona", "seat": 1},
    ],
    ids=["nobody-slow", "timeout", "abandon"],
)
def test_without_a_slow_partner_the_forfeit_stands(staff, first):
    t = _pairs(staff)
    m, _other = _turn(t, first)
    assert (m.result["a"]["vp"], m.result["a"]["mp"]) == (0, -1) and "recupero" not in m.result["a"]
    assert t.progress["totals"][m.line_a] == [0, -1]


def test_a_money_pairs_tournament_keeps_the_forfeit_and_stays_zero_sum(staff):
    """The rule is one of the training section's differences ("identici ai tornei Money salvo le
    seguenti ... differenze"): a money tournament keeps the forfeit's score; its pool is paid out
    whole and the ledger stays zero-sum."""
    t = _pairs(staff, training=False)
    m, _other = _turn(
        t, {"kind": "tempo_scaduto", "seat": 3, "ran_out": True, "used": {1: 480_000, 3: 120_000}}
    )
    assert m.result["forfeit"] == "expired" and "recupero" not in m.result["a"]
    assert t.progress["totals"][m.line_a] == [0, -1]
    assert t.state == Tournament.State.FINISHED
    paid = running.tournament_pay(tournament_id=t.pk)
    assert paid is not None and paid["pool"] > 0 and sum(paid["prizes"].values()) == paid["pool"]
    assert pool(t) == 0 and ledger_zero() == 0 and wallet_selectors.reconciliation_report()["ok"]


def _warnings(uid: int) -> int:
    return moderation.conduct_summary(uid)["received"]


def _turns(uid: int) -> int:
    return moderation.conduct_summary(uid)["completed_turns"]


@pytest.mark.parametrize("partner_warned", [2, 1])
def test_leaving_when_the_partner_has_two_warnings_is_free_and_void(
    staff, client, django_capture_on_commit_callbacks, partner_warned
):
    """Turn 1: the partner (seat 1) times out (2 warnings in pairs) or is slow (1 warning). Turn 2:
    the player abandons his match; turn 3: still seated, he never moves. With the partner at 2
    warnings: no warning for him, his participation void (no position, no prize, the pool still
    paid out whole, the ledger zero-sum), no completed turn from this tournament. With 1: the usual
    2 warnings for abandoning in pairs, and he is ranked."""
    t = _pairs(staff, turns=3)
    first_match = TournamentMatch.objects.filter(tournament=t, turn=1).order_by("number").first()
    line = first_match.line_a
    partner, player = t.progress["lines"][line]
    turn1 = (
        {"kind": "tempo_scaduto", "seat": 1}  # seat 1 = the line's first member = partner
        if partner_warned == 2
        else {"kind": "tempo_scaduto", "seat": 3, "ran_out": True, "used": {1: 480_000, 3: 120_000}}
    )
    with django_capture_on_commit_callbacks(execute=True):
        _turn(t, turn1)
    assert _warnings(partner) == partner_warned and _turns(player) == 1
    assert running.may_leave_freely(t, player) is (partner_warned == 2)
    assert not running.may_leave_freely(t, partner)  # the player has no warning
    # turn 2: his line's match first, with him at seat 1 or 3
    matches = list(TournamentMatch.objects.filter(tournament=t, turn=2).order_by("number"))
    mine = next(m for m in matches if line in (m.line_a, m.line_b))
    # where he leaves: his match's table tells him (Italian), and only him
    sign_in(client, User.objects.get(pk=player))
    page = client.get(reverse("lobby:table", args=[mine.table_id])).content.decode()
    assert ("puoi abbandonare il torneo senza conseguenze" in page) is (partner_warned == 2)
    sign_in(client, User.objects.get(pk=partner))
    assert (
        "senza conseguenze" not in client.get(reverse("lobby:table", args=[mine.table_id])).content.decode()
    )
    with django_capture_on_commit_callbacks(execute=True):
        for m in matches:
            if m.pk != mine.pk:
                running.match_record(_result(t, m))
        side = 0 if mine.line_a == line else 1
        seat = (1 if side == 0 else 2) if t.progress["lines"][line][0] == player else (3 if side == 0 else 4)
        running.match_record(_result(t, mine, line=side, kind="abbandona", seat=seat))
        note = running.table_note(tournament_id=t.pk, user_id=player)
        assert (note is not None and "la tua partecipazione è nulla" in note) is (partner_warned == 2)
        running.tournament_advance(tournament_id=t.pk)
    t.refresh_from_db()
    mine.refresh_from_db()
    # turn 3: he is still seated and his seat times out (never a move): no conduct, no turn for him
    matches = list(TournamentMatch.objects.filter(tournament=t, turn=3).order_by("number"))
    third = next(m for m in matches if line in (m.line_a, m.line_b))
    with django_capture_on_commit_callbacks(execute=True):
        for m in matches:
            if m.pk != third.pk:
                running.match_record(_result(t, m))
        side = 0 if third.line_a == line else 1
        result = _result(t, third, line=side, kind="tempo_scaduto", seat=3 if side == 0 else 4)
        result["seats"] = [{**s, "acted": s["user_id"] != player} for s in result["seats"]]
        running.match_record(result)
        running.tournament_advance(tournament_id=t.pk)
    t.refresh_from_db()
    assert t.state == Tournament.State.FINISHED
    if partner_warned == 2:
        assert not ConductEvent.objects.filter(user_id=player).exists()
        assert _warnings(partner) == 2 and ConductEvent.objects.filter(user_id=partner).count() == 1
    else:  # not void: the no-show's warnings, at most 2 a tournament (he has 2 already)
        assert ConductEvent.objects.filter(user_id=player, turn=3, kind="absent").exists()
    paid = running.tournament_pay(tournament_id=t.pk)
    assert paid is not None and sum(paid["prizes"].values()) == paid["pool"]
    assert pool(t) == 0 and ledger_zero() == 0 and wallet_selectors.reconciliation_report()["ok"]
    reg = Registration.objects.get(tournament=t, user_id=player)
    partner_reg = Registration.objects.get(tournament=t, user_id=partner)
    if partner_warned == 2:
        assert mine.result["void"] == [player] and t.progress["void"] == [player]
        assert not ConductEvent.objects.filter(user_id=player).exists() and _warnings(player) == 0
        assert _turns(player) == 0  # turn 1's completion taken back, turns 2 and 3 never counted
        assert reg.position is None and reg.prize == 0
        assert partner_reg.position is not None
        assert paid["prizes"].get(player, 0) == 0
    else:
        assert "void" not in mine.result and not t.progress.get("void")
        event = ConductEvent.objects.get(user_id=player, turn=2)
        assert (event.kind, event.warnings) == ("abandon", 2)
        assert _turns(player) == 1
        assert reg.position == partner_reg.position is not None


def test_an_individual_or_money_tournament_has_no_free_leave(staff):
    t = _pairs(staff, training=False)
    uid = next(iter(t.progress["lines"].values()))[0]
    partner = next(iter(t.progress["lines"].values()))[1]
    ConductEvent.objects.create(
        user_id=partner, tournament_id=t.pk, kind="timeout", training=True, turn=1, warnings=2
    )
    assert not running.may_leave_freely(t, uid)


def test_a_void_member_wins_nothing_and_his_partner_takes_the_lines_prize(staff):
    """``line_prizes``: a void participation's share of his line's prize goes to the partner who
    stayed (not split between both); the prizes still add up to the pool."""
    t = _pairs(staff)
    _turn(t)
    assert t.state == Tournament.State.FINISHED
    line = t.progress["placings"][0][0]
    stayed, void = t.progress["lines"][line]
    before = running.line_prizes(t, 10_001)
    assert before[stayed] > 0 and before[void] > 0
    t.progress["void"] = [void]
    after = running.line_prizes(t, 10_001)
    assert void not in after and after[stayed] == before[stayed] + before[void]
    assert sum(after.values()) == sum(before.values()) == 10_001
