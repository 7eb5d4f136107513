"""Level tournaments of the giochi a puntate on live tables: the freezeout and the shootout (rules
004, "I tornei a livelli"), for the six games.

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
may go on, all in one transaction through ``lobby.door.tournament_tables_next`` (every table's
owner parked for it): a hand-for-hand round's hands start together. A table
is written only while no hand runs there, so nobody moves in the middle of a hand.

A shootout is the same run without balancing: a table with one player left has its winner, and
when every table of a stage has one the winners are seated at the next stage's tables.

Progress keys: ``chips`` (user id -> chips, the players still in), ``pots`` (table id -> chips a
hand carried to the next), ``held`` (user id -> his part of his table's pot: a chemin de fer
banker's banco), ``seating`` (user id -> [table id, seat]), ``eliminations`` (groups of
each elimination, in order), ``level`` and ``level_changes``, ``moves`` and ``broken``,
``hand_for_hand`` (the hands running were dealt together), its log and ``round``; a shootout's
``stage``, ``stages`` ([tables, players] of each) and ``stage_winners`` (waiting for the next).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from games.rng import SystemRng
from lobby import door
from tournaments import calls
from tournaments.formats import balancing, levels
from tournaments.formats.draw import RandomList, draw_random_list
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
    """The game options of the tournament's tables at a level: the tournament's own options (the
    limit, giro pazzo, the vele…, checked by the engine at creation), then what the level sets: its
    minimum bet, and what the game scales with it."""
    scaled = {key: level.invito * multiple for key, multiple in LEVEL_GAMES[t.game].items()}
    return {**(t.options or {}), **scaled}


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
    if t.format == Tournament.Format.SHOOTOUT:
        groups = levels.shootout_first_stage(rl, t.seats_per_table)
    else:
        groups = levels.seat_tables(rl.order, t.seats_per_table)
    level = levels.level_at(levels.Speed(t.speed), t.first_invito, 0)
    t.progress = {
        "lines": {line: [int(line)] for line in rl.order},
        "random_list": rl.to_json(),
        "registration_order": [str(r.user_id) for r in regs],
        "chips": dict.fromkeys(rl.order, t.starting_chips),
        "pots": {},
        "held": {},  # user id -> his chips a table carries into its next hand (his banco)
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
    if t.format == Tournament.Format.SHOOTOUT:
        t.progress.update(stage=1, stages=[[len(groups), len(regs)]], stage_winners=[])
    t.turn = 1
    where = _open_tables(t, groups, now, level, first_number=1)
    calls.level_calls_on_commit(t, where, first=True)


def _open_tables(
    t: Tournament, groups: list[list[str]], now: datetime, level: levels.Level, first_number: int
) -> dict[int, tuple[int, int]]:
    """Open the tables of ``groups`` (user ids by seat), each player with his chips, deal each
    first hand, and keep a match row per table. Returns each player's table id and number."""
    p = t.progress
    ids = door.tournament_tables_open(
        tournament_id=t.pk,
        game=t.game,
        config=level_config(t, level),
        tables=[
            (table_name(t, n), [int(uid) for uid in group])
            for n, group in enumerate(groups, start=first_number)
        ],
        tempo_giocata=t.tempo_giocata,
        tempo_partita=0,
        seats=t.seats_per_table,
        chips={int(uid): p["chips"][uid] for group in groups for uid in group},
    )
    matches = []
    for number, (group, table_id) in enumerate(zip(groups, ids, strict=True), start=first_number):
        p["pots"][str(table_id)] = 0
        for seat, uid in enumerate(group, start=1):
            p["seating"][uid] = [table_id, seat]
        matches.append(
            TournamentMatch(
                tournament=t,
                turn=t.turn,
                number=number,
                phase=LEVELS,
                line_a="",
                table_id=table_id,
                started_at=now,
                result={"running": True, "pending": [], "dealer": None},
            )
        )
    TournamentMatch.objects.bulk_create(matches)
    numbers = {table_id: number for number, table_id in enumerate(ids, start=first_number)}
    where = {uid: p["seating"][uid][0] for group in groups for uid in group}
    return {int(uid): (table_id, numbers[table_id]) for uid, table_id in where.items()}


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
            # chips the table carries for one player (a chemin de fer banker's banco): part of the pot
            "held": {str(s["user_id"]): int(s["held"]) for s in result["seats"] if s.get("held")},
            # the seat the game turns around: the dealer, or the banker of the banking games
            "dealer": result.get("dealer") if result.get("dealer") is not None else outcome.get("banker"),
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
    shootout = t.format == Tournament.Format.SHOOTOUT
    # a shootout never balances: its players stay at their table until one is left there
    moves, held = ([], set()) if shootout else _balance(t, matches, {m.table_id for m in idle})
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
    if shootout:
        _table_winners(t, idle, seated)
    else:
        # a table left without players after its moves: its last player took its carried pot along
        for table_id in {mv.source for mv in moves} - set(seated):
            _take_pot(t, table_id, next(mv.player for mv in moves if mv.source == table_id))
    hand_for_hand = _hand_for_hand(t, len(seated))
    together = hand_for_hand and len(idle) == len(matches)
    if synchronized and not hand_for_hand:
        p["hand_for_hand_log"].append(["off", len(p["chips"])])
    if together and not synchronized:
        p["hand_for_hand_log"].append(["on", len(p["chips"])])
    p["hand_for_hand"] = together
    if together:
        p["round"] += 1
    plans: dict[int, door.TableNext] = {}
    for m in idle:
        table_id = m.table_id
        players = seated.get(table_id, [])
        # hand for hand: no table deals until every table is between hands, then all deal
        deal = table_id not in held and len(players) >= 2 and (together or not hand_for_hand)
        plans[table_id] = door.TableNext(
            leave=leaving.get(table_id, []),
            arrive=arriving.get(table_id, []),
            chips={int(uid): p["chips"][uid] for uid in players} if deal else None,
        )
    # every idle table in one transaction: a hand-for-hand round's hands all start together
    dealt = door.tournament_tables_next(tables=plans, config=config)
    closing = []
    for m in sorted(idle, key=lambda m: m.table_id):
        table_id = m.table_id
        m.result["running"] = table_id in dealt
        m.result["round"] = p["round"] if table_id in dealt and together else None
        if not seated.get(table_id):
            m.ended_at = now
            if not m.result.get("won_by"):
                m.result["broken"] = True
                p["broken"].append(table_id)
            p["pots"].pop(str(table_id), None)
            closing.append(table_id)
    TournamentMatch.objects.bulk_update(idle, ["result", "ended_at"])
    if closing:
        door.tournament_tables_close(table_ids=closing)
    if shootout and len(closing) == len(matches):
        moved = _next_stage(t, now, level)
    _check_chips(t)
    t.save(update_fields=["progress"])
    if moved:
        calls.level_calls_on_commit(t, moved, first=False)  # his page follows him to his new table
    return True


def _take_pot(t: Tournament, table_id: int, uid: str) -> None:
    """The last player of a table takes the pot it carries (his own banco, or a common pot nobody
    else is left there to win) when he leaves it: moved away, or the winner of a shootout table."""
    p = t.progress
    p["chips"][uid] += p["pots"].get(str(table_id), 0)
    p["pots"][str(table_id)] = 0
    p.setdefault("held", {}).pop(uid, None)


# --- the shootout ----------------------------------------------------------------------------------


def _table_winners(t: Tournament, idle: Sequence[TournamentMatch], seated: dict[int, list[str]]) -> None:
    """A shootout table between hands with one player left: he has won it and waits, with every
    chip of his table (its carried pot too), for the next stage; his table closes."""
    p = t.progress
    for m in idle:
        players = seated.get(m.table_id, [])
        if len(players) != 1:
            continue
        (uid,) = players
        _take_pot(t, m.table_id, uid)
        m.result["won_by"] = uid
        p["stage_winners"].append(uid)
        del p["seating"][uid]
        del seated[m.table_id]


def _next_stage(t: Tournament, now: datetime, level: levels.Level) -> dict[int, tuple[int, int]]:
    """Every table of a shootout stage has its winner: seat the winners at the next stage's tables
    (the final table if they fit, ``levels.shootout_next_stage``), each with his chips, and deal.
    Returns where each one goes (his page follows him).

    Stage numbers are the matches' ``turn``; ``progress["stages"]`` lists [tables, players] of
    each stage."""
    p = t.progress
    winners = p["stage_winners"]
    groups = levels.shootout_next_stage(winners, RandomList.from_json(p["random_list"]), t.seats_per_table)
    # on heads-up tables an odd number of winners leaves one alone: a bye, he waits for the next
    p["stage_winners"] = [group[0] for group in groups if len(group) == 1]
    tables = [group for group in groups if len(group) > 1]
    p["stage"] += 1
    p["stages"].append([len(tables), len(winners)])
    t.turn = p["stage"]
    numbered = TournamentMatch.objects.filter(tournament=t).aggregate(last=Max("number"))["last"] or 0
    return _open_tables(t, tables, now, level, first_number=numbered + 1)


def _hand_for_hand(t: Tournament, tables: int) -> bool:
    """Whether the next hands are dealt hand for hand: the players left just above the paid places
    (``levels.hand_for_hand``), on more than one table."""
    from tournaments import running

    paid = len(running.prize_weights(t, len(t.progress["lines"])))
    return levels.hand_for_hand(len(t.progress["chips"]), paid, tables, HAND_FOR_HAND_MARGIN)


def _fold_hand(t: Tournament, m: TournamentMatch, hand: dict[str, Any]) -> list[tuple[str, int]]:
    """One ended hand: its chips and its carried pot; returns who it left without chips, each with
    his chips at the start of the hand (what ranks simultaneous eliminations).

    A player whose chips the table carries into the next hand (a chemin de fer banker's banco,
    ``progress["held"]``) is not out: those chips are his, counted in the table's pot until he
    takes them back. His chips at the start of a hand include what the table held for him."""
    p = t.progress
    held = p.setdefault("held", {})
    before = {uid: chips + held.get(uid, 0) for uid, chips in hand["start"].items()}
    for uid, chips in hand["chips"].items():
        if uid in p["chips"]:
            p["chips"][uid] = chips
            held.pop(uid, None)
    for uid, chips in hand.get("held", {}).items():
        if uid in p["chips"]:
            held[uid] = chips
    p["pots"][str(m.table_id)] = hand["pot"]
    m.result["dealer"] = hand.get("dealer")
    out = [
        uid for uid, chips in hand["chips"].items() if chips == 0 and uid in p["chips"] and not held.get(uid)
    ]
    hand["out"] = out
    return [(uid, before[uid]) for uid in out]


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
    # a table with one player left gives him, with the pot it carries (``_take_pot``)
    givers = {tid for tid in idle if not p["pots"].get(str(tid)) or len(tables.get(tid, ())) <= 1}
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

    p = t.progress
    (winner,) = p["chips"]
    p["winner"] = winner
    for table_id in list(p["pots"]):  # he holds every chip: the pots his tables carried too
        _take_pot(t, int(table_id), winner)
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
