"""Level tournaments of the giochi a puntate on live tables: the freezeout (rules 004, "I tornei a
livelli").

The pure rules are in ``formats.levels`` (the level clock, seating, elimination placings) and
``formats.balancing``; this module applies them to a running tournament. Each table of the
tournament is a lobby table playing hand after hand with tournament chips (no money at the
table); the tournament keeps one ``TournamentMatch`` per table (phase ``livelli``) and the chips
of every player in ``Tournament.progress``.

A hand's end reaches ``hand_record`` through ``hooks.match_ended``, inside the lobby's
transaction (the table's runtime row locked): it stores the hand's chips on the table's match row
(locking only that row) and asks for ``advance`` after commit. The table then waits: it deals its
next hand only when the tournament says so. ``advance`` (the tournament row locked) folds every
hand ended since, eliminates the players left without chips, breaks and balances the tables
between hands, raises the invito by the level clock and deals the next hand of every table that
may go on, each through ``lobby.door.tournament_table_next`` (under the table's owner). A table
is written only while no hand runs there, so nobody moves in the middle of a hand.

Progress keys: ``chips`` (user id -> chips, the players still in), ``pots`` (table id -> chips a
hand carried to the next), ``seating`` (user id -> [table id, seat]), ``eliminations`` (groups of
each elimination, in order), ``level`` and ``level_changes``, ``moves`` and ``broken``,
``hand_for_hand`` (the hands running were dealt together), its log and ``round``.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from games.rng import SystemRng
from lobby import door
from tournaments import calls
from tournaments.formats import balancing, levels
from tournaments.formats.draw import draw_random_list
from tournaments.formats.standings import Placings
from tournaments.models import LEVEL_GAMES, Registration, Tournament, TournamentMatch

LEVELS = "livelli"  # TournamentMatch.phase of a level tournament's table
HAND_FOR_HAND_MARGIN = levels.HAND_FOR_HAND_MARGIN  # "di poco superiore al numero dei premiati"


def table_name(t: Tournament, number: int) -> str:
    """A level table as a player reads it: "Poker della sera · tavolo 3" (at most 60 characters)."""
    where = _(" · tavolo %(number)d") % {"number": number}
    name = t.name if len(t.name) + len(where) <= 60 else t.name[: 59 - len(where)].rstrip() + "…"
    return name + where


def level_now(t: Tournament, now: datetime) -> levels.Level:
    """The level in force now, by the tournament's clock (a new level applies from the next hand)."""
    elapsed = max(0, int((now - (t.started_at or now)).total_seconds()))
    return levels.level_at(levels.Speed(t.speed), t.first_invito, elapsed)


def level_config(t: Tournament, level: levels.Level) -> dict[str, Any]:
    """The game option that holds the level's minimum bet."""
    return {LEVEL_GAMES[t.game]: level.invito}


def chips_in_play(t: Tournament) -> int:
    """The players' chips plus the pots the tables carry: always entrants × starting chips."""
    p = t.progress
    return sum(p["chips"].values()) + sum(p["pots"].values())


def _check_chips(t: Tournament) -> None:
    expected = len(t.progress["lines"]) * t.starting_chips
    if chips_in_play(t) != expected:
        raise RuntimeError(f"tournament {t.pk}: {chips_in_play(t)} chips in play, {expected} expected")


# --- the start -----------------------------------------------------------------------------------


def start(t: Tournament, regs: list[Registration], now: datetime) -> None:
    """Draw the random list, seat the players at the fewest tables and deal every first hand."""
    rl = draw_random_list([str(r.user_id) for r in regs], SystemRng())
    groups = levels.seat_tables(rl.order, t.seats_per_table)
    level = levels.level_at(levels.Speed(t.speed), t.first_invito, 0)
    t.progress = {
        "lines": {line: [int(line)] for line in rl.order},
        "random_list": rl.to_json(),
        "registration_order": [str(r.user_id) for r in regs],
        "chips": dict.fromkeys(rl.order, t.starting_chips),
        "pots": {},
        "seating": {},
        "eliminations": [],
        "level": level.number,
        "level_changes": [],
        "hands": 0,
        "moves": [],
        "broken": [],
        "hand_for_hand": False,  # the hands running were dealt together, hand for hand
        "hand_for_hand_log": [],  # ["on" | "off", players left]
        "round": 0,  # hand-for-hand rounds dealt
    }
    t.turn = 1
    ids = door.tournament_tables_open(
        tournament_id=t.pk,
        game=t.game,
        config=level_config(t, level),
        tables=[(table_name(t, n), [int(uid) for uid in group]) for n, group in enumerate(groups, start=1)],
        tempo_giocata=t.tempo_giocata,
        tempo_partita=0,
        seats=t.seats_per_table,
        chips=t.starting_chips,
    )
    matches = []
    for number, (group, table_id) in enumerate(zip(groups, ids, strict=True), start=1):
        t.progress["pots"][str(table_id)] = 0
        for seat, uid in enumerate(group, start=1):
            t.progress["seating"][uid] = [table_id, seat]
        matches.append(
            TournamentMatch(
                tournament=t,
                turn=1,
                number=number,
                phase=LEVELS,
                line_a="",
                table_id=table_id,
                started_at=now,
                result={"running": True, "pending": [], "dealer": None},
            )
        )
    TournamentMatch.objects.bulk_create(matches)
    numbers = {m.table_id: m.number for m in matches}
    seats = t.progress["seating"]
    where = {int(uid): (table_id, numbers[table_id]) for uid, (table_id, _seat) in seats.items()}
    calls.level_calls_on_commit(t, where, first=True)


# --- a hand's end (inside the lobby's transaction) -----------------------------------------------


def hand_record(match: TournamentMatch, result: dict[str, Any]) -> None:
    """A hand ended at one of the tournament's tables: keep its chips on the table's match row (the
    row locked by the caller, nothing else), and ask for ``advance`` after commit."""
    outcome = result["outcome"]
    final = outcome.get("chips") or {}
    seat_of = {str(s["seat"]): s for s in result["seats"]}
    match.result = dict(match.result or {})
    match.result["running"] = False
    match.result.setdefault("pending", []).append(
        {
            "hand_no": result["hand_no"],
            "ended_at": timezone.now().isoformat(),
            "start": {str(s["user_id"]): int(s["chips"]) for s in result["seats"]},
            "chips": {str(seat_of[n]["user_id"]): int(c) for n, c in final.items() if n in seat_of},
            "pot": int(outcome.get("carried_out", 0) or 0),
            "dealer": result.get("dealer"),
        }
    )
    match.save(update_fields=["result"])


# --- between hands (the tournament row locked) ---------------------------------------------------


def advance(t: Tournament, now: datetime) -> bool:
    """Fold the hands ended since, eliminate, balance, raise the level, deal what may be dealt.

    Idempotent: a call with nothing new deals only the tables still waiting. Returns whether
    anything changed.
    """
    p = t.progress
    matches = list(
        TournamentMatch.objects.select_for_update()
        .filter(tournament=t, phase=LEVELS, ended_at__isnull=True)
        .order_by("number")
    )
    # Only tables between hands: a table whose hand runs has no pending hand and is not touched
    # (its match row is written by its own hand's end, which this lock then waits for).
    idle = [m for m in matches if not m.result.get("running")]
    if not idle:
        return False
    synchronized = p.get("hand_for_hand", False)
    if synchronized and len(idle) < len(matches):
        return False  # hand for hand: every table's hand of the round ends before anything moves
    hands = sorted(
        ((h, m) for m in idle for h in m.result.get("pending", [])), key=lambda hm: hm[0]["ended_at"]
    )
    round_out: list[tuple[str, int]] = []
    for hand, m in hands:
        out = _fold_hand(t, m, hand)
        if synchronized:
            round_out += out  # the round's eliminations are ranked together
        else:
            _eliminate(t, out)
        p["hands"] += 1
    _eliminate(t, round_out)
    for m in idle:
        m.result["pending"] = []
    _check_chips(t)
    if len(p["chips"]) == 1:
        _end(t, matches, now)
        return True
    by_table = {m.table_id: m for m in matches}
    moves, held = _balance(t, matches, {m.table_id for m in idle})
    level = level_now(t, now)
    if level.number != p["level"]:
        p["level_changes"].append([level.number, level.invito, p["hands"]])
        p["level"] = level.number
    config = level_config(t, level)
    leaving: dict[int, list[int]] = {}
    arriving: dict[int, list[tuple[int, int]]] = {}
    for hand, m in hands:
        for uid in hand.get("out", []):
            leaving.setdefault(m.table_id, []).append(int(uid))
    moved: dict[int, tuple[int, int]] = {}
    for move in moves:
        uid = int(move.player)
        leaving.setdefault(move.source, []).append(uid)
        seat = _fairest_seat(t, by_table[move.target], move.target, arriving.get(move.target, []))
        arriving.setdefault(move.target, []).append((uid, seat))
        p["seating"][move.player] = [move.target, seat]
        p["moves"].append([move.player, move.source, move.target, seat, p["hands"]])
        moved[uid] = (move.target, by_table[move.target].number)
    seated: dict[int, list[str]] = {}
    for uid, (table_id, _seat) in p["seating"].items():
        seated.setdefault(table_id, []).append(uid)
    hand_for_hand = _hand_for_hand(t, len(seated))
    together = hand_for_hand and len(idle) == len(matches)
    if synchronized and not hand_for_hand:
        p["hand_for_hand_log"].append(["off", len(p["chips"])])
    if together and not synchronized:
        p["hand_for_hand_log"].append(["on", len(p["chips"])])
    p["hand_for_hand"] = together
    if together:
        p["round"] += 1
    closing = []
    for m in sorted(idle, key=lambda m: m.table_id):
        table_id = m.table_id
        players = seated.get(table_id, [])
        # hand for hand: no table deals until every table is between hands, then all deal
        deal = table_id not in held and len(players) >= 2 and (together or not hand_for_hand)
        chips = {int(uid): p["chips"][uid] for uid in players} if deal else None
        dealt = door.tournament_table_next(
            table_id=table_id,
            leave=leaving.get(table_id, []),
            arrive=arriving.get(table_id, []),
            chips=chips,
            config=config,
        )
        m.result["running"] = dealt
        m.result["round"] = p["round"] if dealt and together else None
        if not players:
            m.ended_at = now
            m.result["broken"] = True
            p["broken"].append(table_id)
            p["pots"].pop(str(table_id), None)
            closing.append(table_id)
    for m in idle:
        m.save(update_fields=["result", "ended_at"])
    if closing:
        door.tournament_tables_close(table_ids=closing)
    _check_chips(t)
    t.save(update_fields=["progress"])
    if moved:
        calls.level_calls_on_commit(t, moved, first=False)  # his page follows him to his new table
    return True


def _hand_for_hand(t: Tournament, tables: int) -> bool:
    """Whether the next hands are dealt hand for hand: the players left just above the paid places
    (``levels.hand_for_hand``), on more than one table."""
    from tournaments import running

    paid = len(running.prize_weights(t, len(t.progress["lines"])))
    return levels.hand_for_hand(len(t.progress["chips"]), paid, tables, HAND_FOR_HAND_MARGIN)


def _fold_hand(t: Tournament, m: TournamentMatch, hand: dict[str, Any]) -> list[tuple[str, int]]:
    """One ended hand: its chips and its carried pot; returns who it left without chips, each with
    his chips at the start of the hand (what ranks simultaneous eliminations)."""
    p = t.progress
    for uid, chips in hand["chips"].items():
        if uid in p["chips"]:
            p["chips"][uid] = chips
    p["pots"][str(m.table_id)] = hand["pot"]
    m.result["dealer"] = hand.get("dealer")
    out = [uid for uid, chips in hand["chips"].items() if chips == 0 and uid in p["chips"]]
    hand["out"] = out
    return [(uid, hand["start"][uid]) for uid in out]


def _eliminate(t: Tournament, out: list[tuple[str, int]]) -> None:
    """Players eliminated together (one hand, or one hand-for-hand round): ranked by their chips at
    the start of the hand, more ranking higher, equal chips ex aequo (``levels.elimination_placings``)."""
    if not out:
        return
    p = t.progress
    p["eliminations"].append(levels.elimination_placings(len(p["chips"]), out))
    for uid, _chips in out:
        del p["chips"][uid]
        del p["seating"][uid]


def _mover_order(t: Tournament, table_id: int, dealer: int | None) -> list[str]:
    """The players of a table in the order they are moved: the last hand's dealer first, then the
    seats after him in the dealing direction (he has just had the dealer's turn: moving him costs
    him none). Without a dealer (no hand yet): by seat."""
    seats = sorted((seat, uid) for uid, (tid, seat) in t.progress["seating"].items() if tid == table_id)
    if dealer is None:
        return [uid for _seat, uid in seats]
    after = [uid for seat, uid in seats if seat >= dealer] + [uid for seat, uid in seats if seat < dealer]
    return after


def _balance(
    t: Tournament, matches: Sequence[TournamentMatch], idle: set[int]
) -> tuple[list[balancing.Move], set[int]]:
    """The moves to make now, and the tables held (not dealt) until a move of theirs can be made.

    ``balancing.balance`` plans the moves (tables broken as soon as the players fit in one fewer).
    A move is made only while both tables are between hands and its source carries no pot; a
    table that must give a player to a table still in its hand waits for it.
    """
    p = t.progress
    tables = {
        m.table_id: _mover_order(t, m.table_id, m.result.get("dealer"))
        for m in matches
        if any(tid == m.table_id for tid, _s in p["seating"].values()) or m.table_id in idle
    }
    givers = {tid for tid in idle if not p["pots"].get(str(tid))}
    plan = balancing.balance(tables, t.seats_per_table, between_hands=givers)
    now = [mv for mv in plan.moves if mv.target in idle]
    later = [mv for mv in (*plan.moves, *plan.pending) if mv not in now]
    # a table carrying a pot plays on until it is won (it gives nobody before)
    held = {mv.source for mv in later if mv.source in givers}
    return now, held


def _fairest_seat(t: Tournament, m: TournamentMatch, table_id: int, arriving: list[tuple[int, int]]) -> int:
    """The seat a moved player takes: the free seat that comes to deal last after the table's last
    dealer (he waits longest for the dealer's turn, having just had one); before any hand, the
    lowest free seat."""
    taken = {seat for tid, seat in t.progress["seating"].values() if tid == table_id}
    taken |= {seat for _uid, seat in arriving}
    free = [n for n in range(1, t.seats_per_table + 1) if n not in taken]
    dealer = m.result.get("dealer")
    if dealer is None:
        return free[0]
    return max(free, key=lambda n: (n - dealer - 1) % t.seats_per_table)


def _end(t: Tournament, matches: Sequence[TournamentMatch], now: datetime) -> None:
    """One player holds every chip: the placings; the tables close; the common end pays."""
    from tournaments import running

    (winner,) = t.progress["chips"]
    t.progress["winner"] = winner
    for m in matches:
        m.ended_at = now
        m.result["running"] = False
        m.save(update_fields=["result", "ended_at"])
    door.tournament_tables_close(table_ids=[m.table_id for m in matches if m.table_id])
    running.finish(t, now)


def placings(t: Tournament) -> Placings:
    """The final placings: the winner, then each elimination's groups, the latest first."""
    p = t.progress
    return levels.freezeout_placings(p["winner"], p["eliminations"])
