"""Every write of a running tournament: the start, the turns on live tables, results, placings, prizes.

The pure rules are in ``tournaments/formats``; this module applies them to the stored tournament.
Lock order: the tournament row first (``tablerow.lock``), then its matches and registrations, then
(through the lobby's actions) the live tables' runtime rows, then the wallet's accounts. A match's
result arrives through ``piattaforma.hooks.match_ended`` inside the lobby's transaction, which holds
that table's runtime row: ``match_record`` then locks only the match row (never the tournament), so
the two orders never cross. The next turn is started by a task after that commit (and by the beat's
sweep), within seconds of the last match's end.

Lines: a line is one player (its id is the user id) or a pair (``"uid+uid"``). Its totals are
``[VP, MP]``; the standings after each turn are rebuilt from the matches (``selectors``).
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from games.rng import SystemRng
from lobby import door
from piattaforma import hooks
from tournaments import calls, freezeout
from tournaments import slot as slot_tournament
from tournaments.actions.common import task_send_on_commit, tournament_lock
from tournaments.formats import ammonizioni
from tournaments.formats.danel import Eliminated, danel_cut, danel_placings
from tournaments.formats.danese import Score, danese_pairing, danese_placings
from tournaments.formats.danko import danko_placings, playoff_first_round, qualify
from tournaments.formats.draw import RandomList, draw_random_list, pair_random_list, random_pairs
from tournaments.formats.ko import ko_first_round, ko_losers, ko_next_round, ko_placings
from tournaments.formats.ko import largest_power_of_two_at_most as power_at_most
from tournaments.formats.money import split_evenly
from tournaments.formats.points import money_pt, participation_bonus, training_pt
from tournaments.formats.prizes import Format, award, default_scheme, scheme_weights
from tournaments.formats.standings import Placings, position_of
from tournaments.models import Registration, Tournament, TournamentMatch
from wallet import actions as wallet
from wallet import selectors as wallet_selectors

logger = logging.getLogger(__name__)
State = Tournament.State
GIRONE, KO = "girone", "ko"
GIRONE_FORMATS = (Tournament.Format.DANESE, Tournament.Format.DANEL)
WITH_KO = (Tournament.Format.DANKO, Tournament.Format.DANELKO)
WITH_CUTS = (Tournament.Format.DANEL, Tournament.Format.DANELKO)
# engine options a game may lack (Scala 40 has no "ko": its match always ends with a winner)
CONDUCT = {"abbandona": "abandon", "tempo_scaduto": "timeout"}


def _schedule(task_name: str, tournament_id: int, countdown: float | None = None) -> None:
    """Send a tournament task after commit (the sweep redoes it if it is lost)."""
    task_send_on_commit(
        f"tournaments.{task_name}", robust=True, countdown=countdown, tournament_id=tournament_id
    )


# --- lines, weights, the match's table -----------------------------------------------------------


def _draw_lines(t: Tournament, regs: list[Registration], rng: Any) -> tuple[dict[str, list[int]], RandomList]:
    """The lines that play and their random list ("A inizio torneo viene generato casualmente un elenco")."""
    if t.lines == Tournament.Lines.INDIVIDUAL:
        rl = draw_random_list([str(r.user_id) for r in regs], rng)
        return {line: [int(line)] for line in rl.order}, rl
    if t.lines == Tournament.Lines.RANDOM_PAIRS:
        players = draw_random_list([str(r.user_id) for r in regs], rng)
        pairs = random_pairs(players)
        return {line: [int(a), int(b)] for line, (a, b) in pairs.items()}, pair_random_list(players, pairs)
    by_pk = {r.pk: r for r in regs}
    members: dict[str, list[int]] = {}
    for r in regs:
        if r.pair_id is not None and r.pair_id in by_pk:
            first = by_pk[r.pair_id]
            members[f"{first.user_id}+{r.user_id}"] = [first.user_id, r.user_id]
    rl = draw_random_list(list(members), rng)
    return {line: members[line] for line in rl.order}, rl


def prize_weights(t: Tournament, lines: int) -> tuple[int, ...]:
    """The rules' percentages for this tournament and number of lines (RULINGS K1)."""
    scheme = default_scheme(Format(t.format), sitgo=t.kind == Tournament.Kind.SITGO)
    return scheme_weights(scheme, lines)


def match_config(t: Tournament, *, ko: bool, options: set[str]) -> dict[str, Any]:
    """The engine options of one match: the tournament's game options, and its structure (testa a
    testa, 4 in 2 or pairs; smazzate or points)."""
    # rules 004: a timeout loses the match
    # Tresette's own tournament switch ("torneo": no cappotto in a tournament, rules 004)
    config: dict[str, Any] = {**(t.options or {}), "on_timeout": "forfeit", "torneo": True}
    if t.table == Tournament.Table.FOUR_IN_TWO:
        config["format"] = "4in2"
    elif t.table == Tournament.Table.PAIRS:
        config.update(format="coppie", pairs="fisse", partners=[[1, 3], [2, 4]])
    if t.smazzate:
        config.update(mode="smazzate", deals=t.smazzate)
    elif t.points_to_win:
        config.update(mode="punti", target=t.points_to_win)
    if ko and "ko" in options:
        config["ko"] = True  # spareggi, then the game's last-capture / last-move rule (RULINGS I5)
    return {k: v for k, v in config.items() if k in options}


def _seat_players(t: Tournament, line_a: str, line_b: str) -> list[int]:
    """User ids by seat: 1 and 2 (testa a testa, 4 in 2), or 1+3 against 2+4 (pairs)."""
    lines = t.progress["lines"]
    a, b = lines[line_a], lines[line_b]
    if t.table == Tournament.Table.PAIRS:
        return [a[0], b[0], a[1], b[1]]
    return [a[0], b[0]]


def match_table_name(t: Tournament, m: TournamentMatch) -> str:
    """A match's table as a player reads it: "Scopa della sera · turno 2, tavolo 3" (at most 60
    characters: a long tournament name is cut, the turn and table are kept)."""
    where = _(" · turno %(turn)d, tavolo %(number)d") % {"turn": m.turn, "number": m.number}
    name = t.name if len(t.name) + len(where) <= 60 else t.name[: 59 - len(where)].rstrip() + "…"
    return name + where


def _open_tables(t: Tournament, matches: list[TournamentMatch]) -> None:
    """Open the live tables of a turn's unsaved matches through the lobby; note each one's table id."""
    from games import registry

    if not matches:
        return
    options = {o.key for o in registry.get(t.game).config_options()}
    ids = door.tournament_tables_open(
        tournament_id=t.pk,
        game=t.game,
        config=match_config(t, ko=matches[0].phase == KO, options=options),
        tables=[(match_table_name(t, m), _seat_players(t, m.line_a, m.line_b)) for m in matches],
        tempo_giocata=t.tempo_giocata,
        tempo_partita=t.tempo_partita_min * 60,
    )
    for match, table_id in zip(matches, ids, strict=True):
        match.table_id = table_id  # saved by the caller's bulk insert
    calls.turn_calls_on_commit(t, matches)  # every page of each player: "your match is ready"


def match_reseat(t: Tournament, match: TournamentMatch, now: datetime) -> None:
    """Seat an ended match's lines again at a new live table for a fresh match, its result voided
    (the tournament row locked; the caller closed the old table and saves the match)."""
    _open_tables(t, [match])
    match.result = None
    match.ended_at = None
    match.started_at = now


# --- start and turns -----------------------------------------------------------------------------


@transaction.atomic
def tournament_start(*, tournament_id: int, now: datetime | None = None) -> bool:
    """Start a closed tournament when due: draw the random list, seat the first turn, deal every match."""
    now = now or timezone.now()
    t = tournament_lock(tournament_id)
    if t.state != State.CLOSED or (t.starts_at is not None and t.starts_at > now):
        return False
    regs = list(t.registrations.filter(state=Registration.State.ADMITTED).order_by("created_at", "pk"))
    if t.is_levels or t.is_slot:  # no turns: the format's own start
        t.state = State.RUNNING
        t.started_at = now
        (freezeout if t.is_levels else slot_tournament).start(t, regs, now)
        t.save(update_fields=["progress", "state", "started_at", "turn"])
        return True
    lines, rl = _draw_lines(t, regs, SystemRng())
    order = [str(r.user_id) for r in regs]  # registration order: who gets a split's odd cents (K2)
    t.progress = {
        "lines": lines,
        "random_list": rl.to_json(),
        "registration_order": order,
        "phase": KO if t.format == Tournament.Format.KO else GIRONE,
        "totals": {line: [0, 0] for line in lines},
        "active": list(rl.order),
        "eliminated": [],  # danEL: [line, turn, vp, mp]
        "ko_out": [],  # KO: the lines out in each KO round
    }
    if t.format == Tournament.Format.KO:
        t.progress["slots"] = ko_first_round(rl)
    t.state = State.RUNNING
    t.started_at = now
    _start_turn(t, 1, now)
    return True


def _start_turn(t: Tournament, turn: int, now: datetime) -> None:
    """Pair the turn, open its tables and deal (expects the tournament row locked; saves it)."""
    p = t.progress
    rl = RandomList.from_json(p["random_list"])
    if p["phase"] == GIRONE:
        totals = {line: Score(*p["totals"][line]) for line in p["active"]}
        slots = danese_pairing(totals, rl, first_round=turn == 1)
    else:
        slots = p["slots"]
    t.turn = turn
    t.save(update_fields=["progress", "state", "started_at", "turn"])
    matches = []
    for number, slot in enumerate(slots, start=1):
        match = TournamentMatch(
            tournament=t,
            turn=turn,
            number=number,
            phase=p["phase"],
            line_a=slot[0],
            line_b=slot[1] if len(slot) > 1 else "",
            started_at=now,
        )
        if not match.line_b:  # a KO bye: through without playing
            match.result = {"winner": "a", "bye": True}
            match.ended_at = now
        matches.append(match)
    playing = [m for m in matches if m.line_b]
    _open_tables(t, playing)
    TournamentMatch.objects.bulk_create(matches)
    if not playing:
        _schedule("advance", t.pk)


def match_record(result: dict[str, Any]) -> None:
    """A match ended at a live table (``hooks.match_ended``, inside the lobby's transaction).

    Stores the lines' VP and MP as the engine reported them (the per-game lines, K6 forfeits and
    cappotto are the engine's), reports timeouts, abandonments and absences to moderation, and asks
    for the next turn after commit. Locks only the match row (see the module docstring).
    """
    if result.get("tournament_id") is None:
        return
    match = (
        TournamentMatch.objects.select_for_update()
        .filter(table_id=result["table_id"], ended_at__isnull=True)
        .select_related("tournament")
        .first()
    )
    if match is None:
        return
    t = match.tournament
    if match.phase == freezeout.LEVELS:
        freezeout.hand_record(match, result)
        # the next hand after the pause in which the players read this one's result
        _schedule("advance", t.pk, countdown=result.get("pause"))
        return
    outcome = result["outcome"]
    line_of = {uid: line for line, members in t.progress["lines"].items() for uid in members}
    side_of = {match.line_a: "a", match.line_b: "b"}
    sides: dict[str, dict[str, Any]] = {}
    seat_side: dict[int, str] = {}
    for seat in result["seats"]:
        side = side_of[line_of[seat["user_id"]]]
        seat_side[seat["seat"]] = side
        report = outcome["per_seat"][str(seat["seat"])]
        sides[side] = {"vp": int(report["vp"]), "mp": int(report["mp"]), "points": int(report["points"])}
        sides[side]["won"] = bool(report["won"])
    winner = next((s for s in ("a", "b") if sides[s]["won"]), None)
    if winner is None and match.phase == KO:
        # Decision: a KO match the engine left level (a game without spareggi): the line earlier
        # in the random list prevails, as in every tie the rules settle "casualmente".
        rl = RandomList.from_json(t.progress["random_list"])
        winner = "a" if rl.rank(match.line_a) < rl.rank(match.line_b) else "b"
    forfeit = outcome.get("forfeit") or None
    data: dict[str, Any] = {"a": sides["a"], "b": sides["b"], "winner": winner}
    offenders: set[int] = set()
    void = set(t.progress.get("void", []))  # who left without consequences: void, no conduct, no turns
    if forfeit:
        offender_seats = {int(s) for s in outcome["lines"][int(forfeit["line"])]}
        offender = next(seat_side[s] for s in offender_seats if s in seat_side)
        kind = CONDUCT.get(str(forfeit.get("kind")), "timeout")
        seats = [s for s in result["seats"] if s["seat"] in offender_seats]
        if isinstance(forfeit.get("seat"), int) and any(s["seat"] == forfeit["seat"] for s in seats):
            # the one who timed out or left: in pairs his partner is not to blame (rules 004)
            seats = [s for s in seats if s["seat"] == forfeit["seat"]]
        if kind == "timeout" and t.is_pairs and _line_time_ran_out(result, int(forfeit["line"])):
            # tempo scaduto, not a timeout: 1 warning to each partner who used more than 3/4 of the
            # line's time, whoever was to play when it ran out (even his first move); the other is
            # not to blame (rules 004)
            full = int(result["tempo_partita_ms"])
            line_seats = [s for s in result["seats"] if s["seat"] in offender_seats]
            seats = [s for s in line_seats if ammonizioni.used_over_three_quarters(s.get("used_ms", 0), full)]
            kind = "slow"
            if seats and t.training:  # a difference of the training section only (rules 004)
                data[offender] = _recupero_punti(data[offender], line_seats, seats)
        elif kind == "timeout" and not any(s["acted"] for s in seats):
            kind = "absent"  # never made a move of his own: "assente all'inizio", lost by forfeit
        elif kind == "abandon":
            leaving = [s["user_id"] for s in seats if may_leave_freely(t, s["user_id"])]
            if leaving:
                data["void"] = leaving
                void.update(leaving)
                _void_on_commit(t, leaving, line_of[leaving[0]], match.turn)
        data.update(forfeit="expired" if kind == "slow" else kind, offender=offender)
        for seat in seats:
            offenders.add(seat["user_id"])
            if seat["user_id"] not in void:
                _conduct_on_commit(t, seat["user_id"], kind, match.turn)
    for seat in result["seats"]:  # a turn played to its end (each 30 earn a bonus warning)
        if seat["user_id"] not in offenders and seat["user_id"] not in void:
            _turn_completed_on_commit(seat["user_id"], t.pk)
    match.result = data
    match.ended_at = timezone.now()
    match.save(update_fields=["result", "ended_at"])
    _schedule("advance", t.pk)


def _recupero_punti(
    played: dict[str, Any], line_seats: list[dict[str, Any]], slow: list[dict[str, Any]]
) -> dict[str, Any]:
    """The line's score for a match lost by tempo scaduto through one partner's slowness (rules 004,
    training section, "Recupero punti automatico"): 10 VP and 0 MP for his partner, the real result
    kept beside it.

    Decision (proposed RULINGS K9): a pair's two players, fixed or random ("coppie casuali": formed
    at the start and kept to the end), share one line and one standing, so "la classifica del
    compagno" is the line's: the line gets 10 VP / 0 MP for this match instead of the forfeit's 0 VP
    (the slow partner shares it; his penalty is his warning). The other line keeps its K6 forfeit
    win. Money tournaments keep the forfeit (the rule is one of the training section's differences).
    """
    slow_ids = {s["user_id"] for s in slow}
    partners = [s["user_id"] for s in line_seats if s["user_id"] not in slow_ids]
    if not partners:
        return played
    vp, mp = ammonizioni.recupero_punti()
    return {
        **played,
        "vp": vp,
        "mp": mp,
        "recupero": {"partners": partners, "vp": played["vp"], "mp": played["mp"]},
    }


def may_leave_freely(t: Tournament, user_id: int) -> bool:
    """Whether the player may leave this training tournament of pairs without consequences: his
    partner has received 2 warnings in it (rules 004, "Recupero punti automatico"; he leaves through
    "Abbandona" at his match, and his participation is then void)."""
    if not (t.training and t.is_pairs) or user_id in t.progress.get("void", []):
        return False
    members = next((m for m in t.progress.get("lines", {}).values() if user_id in m), [])
    return any(
        hooks.tournament_warnings(user_id=uid, tournament_id=t.pk) >= ammonizioni.MAX_PER_TOURNAMENT
        for uid in members
        if uid != user_id
    )


def table_note(*, tournament_id: int, user_id: int) -> str | None:
    """What the player reads at his match's table (``hooks.tournament_table_note``): that he may leave
    without consequences, or that he did and his participation is void."""
    t = Tournament.objects.filter(pk=tournament_id, state=State.RUNNING).first()
    if t is None:
        return None
    left = user_id in t.progress.get("void", []) or any(
        user_id in (m.result or {}).get("void", []) for m in t.matches.filter(turn=t.turn)
    )
    if left:
        return _(
            "Hai abbandonato il torneo senza conseguenze: la tua partecipazione è nulla (nessuna "
            "ammonizione, nessuna posizione in classifica, nessun premio)."
        )
    if may_leave_freely(t, user_id):
        return _(
            "Il tuo compagno ha ricevuto 2 ammonizioni in questo torneo: puoi abbandonare il torneo "
            "senza conseguenze con «Abbandona». Non riceverai ammonizioni e la tua partecipazione "
            "sarà considerata nulla (nessuna posizione in classifica, nessun premio)."
        )
    return None


def _line_time_ran_out(result: dict[str, Any], line: int) -> bool:
    """Whether the match ended with the line's tempo partita used up (tempo scaduto, not a timeout)."""
    left, full = result.get("clocks_left"), result.get("tempo_partita_ms")
    return isinstance(left, dict) and bool(full) and str(line) in left and int(left[str(line)]) <= 0


def _conduct_on_commit(t: Tournament, user_id: int, kind: str, turn: int) -> None:
    """Tell moderation after commit: its bookkeeping never undoes a match's end."""
    tournament_id, training, pairs = t.pk, t.training, t.is_pairs
    transaction.on_commit(
        lambda: hooks.tournament_conduct(
            user_id=user_id, tournament_id=tournament_id, kind=kind, training=training, turn=turn, pairs=pairs
        ),
        robust=True,
    )


def _void_on_commit(t: Tournament, users: list[int], line: str, turn: int) -> None:
    """Tell moderation after commit that these players' participation is void (the turns before this
    one their line played: the ones they completed count no more)."""
    played = sorted(
        set(
            t.matches.filter(turn__lt=turn, ended_at__isnull=False)
            .filter(Q(line_a=line) | Q(line_b=line))
            .values_list("turn", flat=True)
        )
    )
    for user_id in users:
        transaction.on_commit(
            lambda uid=user_id: hooks.tournament_participation_void(
                user_id=uid, tournament_id=t.pk, turns=played
            ),
            robust=True,
        )


def _turn_completed_on_commit(user_id: int, tournament_id: int) -> None:
    transaction.on_commit(
        lambda: hooks.tournament_turn_completed(user_id=user_id, tournament_id=tournament_id), robust=True
    )


@transaction.atomic
def tournament_advance(*, tournament_id: int, now: datetime | None = None) -> bool:
    """When every match of the turn has ended: standings, cuts, the next turn or the end (idempotent)."""
    now = now or timezone.now()
    t = tournament_lock(tournament_id)
    if t.state != State.RUNNING:
        return False
    if t.is_levels:
        return freezeout.advance(t, now)
    if t.is_slot:
        return slot_tournament.advance(t, now)
    matches = list(t.matches.filter(turn=t.turn).order_by("number"))
    if not matches or any(m.ended_at is None for m in matches):
        return False
    finished = _fold(t, matches)
    door.tournament_tables_close(table_ids=[m.table_id for m in matches if m.table_id])
    if finished:
        finish(t, now)
    else:
        _start_turn(t, t.turn + 1, now)
    return True


def _line_winner(m: TournamentMatch) -> str:
    return m.line_a if m.result["winner"] == "a" else m.line_b


def _fold(t: Tournament, matches: list[TournamentMatch]) -> bool:
    """Add the turn's results to the tournament's progress; return whether the tournament is over."""
    p = t.progress
    rl = RandomList.from_json(p["random_list"])
    for m in matches:  # who left without consequences in this turn (``match_record``)
        if m.result.get("void"):
            p.setdefault("void", []).extend(m.result["void"])
    if p["phase"] == KO:
        winners = {_line_winner(m) for m in matches}
        slots = p["slots"]
        p["ko_out"].append(ko_losers(slots, winners))
        if len(slots) == 1:
            p["champion"] = _line_winner(matches[0])
            return True
        p["slots"] = ko_next_round(slots, winners)
        return False
    for m in matches:
        for side, line in (("a", m.line_a), ("b", m.line_b)):
            vp, mp = p["totals"][line]
            p["totals"][line] = [vp + m.result[side]["vp"], mp + m.result[side]["mp"]]
    if t.format in WITH_CUTS and t.turn < t.turns:
        active = {line: Score(*p["totals"][line]) for line in p["active"]}
        done = [Eliminated(line, turn, Score(vp, mp)) for line, turn, vp, mp in p["eliminated"]]
        cut = danel_cut(
            active,
            round_no=t.turn,
            total_rounds=t.turns,
            prize_positions=len(prize_weights(t, len(p["lines"]))),
            random_list=rl,
            already_eliminated=done,
        )
        kept = [e for e in done if e.line != cut.readmitted]
        p["eliminated"] = [[e.line, e.round_no, e.score.vp, e.score.mp] for e in (*kept, *cut.eliminated)]
        p["active"] = list(cut.active)
    if t.turn < t.turns:
        return False
    if t.format not in WITH_KO:
        return True
    totals = {line: Score(*p["totals"][line]) for line in p["active"]}
    # Decision: fewer lines left than the qualifiers (danEL cuts): the largest power of two of them.
    wanted = min(t.ko_qualifiers, power_at_most(len(totals)))
    qualified, rest = qualify(totals, wanted, rl)
    p["qualified"], p["not_qualified"] = qualified, rest
    p["phase"] = KO
    p["slots"] = playoff_first_round(qualified, rl)
    return False


def final_placings(t: Tournament) -> Placings:
    """The final placings of a finished tournament's lines, by its format."""
    if t.is_levels:
        return freezeout.placings(t)
    if t.is_slot:
        return slot_tournament.placings(t)
    p = t.progress
    rl = RandomList.from_json(p["random_list"])
    totals = {line: Score(*p["totals"][line]) for line in p["lines"]}
    eliminated = [Eliminated(line, turn, Score(vp, mp)) for line, turn, vp, mp in p["eliminated"]]
    if t.format == Tournament.Format.KO:
        return ko_placings(p["ko_out"], p["champion"])
    if t.format == Tournament.Format.DANESE:
        return danese_placings(totals)
    active = {line: totals[line] for line in p["active"]}
    if t.format == Tournament.Format.DANEL:
        return danel_placings(active, eliminated, rl)
    lower = None
    if t.format == Tournament.Format.DANELKO:
        rest = {line: totals[line] for line in p["not_qualified"]}
        lower = danel_placings(rest, eliminated, rl)
    return danko_placings(p["ko_out"], p["champion"], totals, p["not_qualified"], lower)


def finish(t: Tournament, now: datetime) -> None:
    """The last turn (or hand) is over: placings on every registration; the prizes are paid by a task."""
    placings = final_placings(t)
    t.progress["placings"] = placings
    positions = position_of(placings)
    void = t.progress.get("void", [])
    points = line_points(t, placings)
    played = lines_played(t)
    for line, members in t.progress["lines"].items():
        vp, turns_played = played.get(line, (0, 0))
        Registration.objects.filter(  # a void participation is not ranked and wins no PT
            tournament=t, user_id__in=[u for u in members if u not in void], state=Registration.State.ADMITTED
        ).update(position=positions[line], pt=points[line], vp=vp, turns_played=turns_played)
    t.state = State.FINISHED
    t.finished_at = now
    t.save(update_fields=["progress", "state", "finished_at"])
    _schedule("pay", t.pk)


def _registration_order(t: Tournament) -> dict[str, int]:
    """Each player's place in the registration order (user ids as strings)."""
    return {uid: i for i, uid in enumerate(t.progress["registration_order"])}


def line_order(t: Tournament) -> list[str]:
    """The lines in the order their first member registered: the tie-break of prizes and PT (K2)."""
    reg_order, lines = _registration_order(t), t.progress["lines"]
    return sorted(lines, key=lambda line: min(reg_order.get(str(u), 0) for u in lines[line]))


def line_points(t: Tournament, placings: Placings) -> dict[str, int]:
    """Each line's Punti Torneo in centi-PT ("I Punti torneo (PT)"; the training section's 10 PT).

    Money (freerolls too, with no rake): 2 × rake plus a share of the fictitious pool, lines × rake,
    split as the prizes. Training: a share of lines × 10 PT plus the participation bonus, minus the
    10 PT cost (in a Danese, the K5 cost of the line's position). Decision: each member of a pair is
    credited his line's PT, so the pairs' fictitious pool adds up to players × rake, as the rules'
    "numero di iscritti x rake".
    """
    lines, order = t.progress["lines"], line_order(t)
    weights = prize_weights(t, len(lines))
    if not t.training:
        return money_pt(t.fee, weights, placings, order)
    smazzate = (t.smazzate or 1) * t.turn  # decision: a whole match counts as one smazzata
    bonus = participation_bonus(len(lines), smazzate, settings.TOURNAMENTS_TRAINING_BONUS_PER_SMAZZATA)
    return training_pt(
        weights,
        placings,
        bonus=bonus,
        danese=t.format == Tournament.Format.DANESE,
        registration_order=order,
    )


def lines_played(t: Tournament) -> dict[str, tuple[int, int]]:
    """Each line's VP over its matches and how many turns it played (a KO bye is not played)."""
    out: dict[str, tuple[int, int]] = {}
    for m in TournamentMatch.objects.filter(tournament=t, result__isnull=False).exclude(line_b=""):
        for side, line in (("a", m.line_a), ("b", m.line_b)):
            vp, turns_played = out.get(line, (0, 0))
            out[line] = (vp + int(m.result[side].get("vp") or 0), turns_played + 1)
    return out


# --- money at the end ----------------------------------------------------------------------------


def line_prizes(t: Tournament, pool: int) -> dict[int, int]:
    """Each player's prize: the lines' prizes by the rules' table (K1, ex aequo K2), a pair's split
    evenly between its two members (decision: the odd cent to the first registered)."""
    p = t.progress
    placings = p["placings"]
    lines = p["lines"]
    reg_order = _registration_order(t)
    by_line = award(pool, prize_weights(t, len(lines)), placings, line_order(t))
    out: dict[int, int] = {}
    void = p.get("void", [])
    for line, amount in by_line.items():
        # a void participation wins nothing: the line's prize goes to the partner who stayed
        members = sorted(
            [u for u in lines[line] if u not in void] or lines[line], key=lambda u: reg_order.get(str(u), 0)
        )
        for uid, share in zip(members, split_evenly(amount, len(members)), strict=True):
            out[uid] = out.get(uid, 0) + share
    return out


@transaction.atomic
def tournament_pay(*, tournament_id: int, now: datetime | None = None) -> dict[str, Any] | None:
    """Pay a finished tournament's prizes from its pool (guarantee topped up first); the pool ends at zero.

    Idempotent: the wallet's keys make a retry pay nothing twice; returns None when nothing is due.
    """
    now = now or timezone.now()
    t = tournament_lock(tournament_id)
    if t.state != State.FINISHED or t.paid_at is not None:
        return None
    ref = t.ledger_ref
    top_up = 0
    if t.guaranteed:
        top_up = wallet.tournament_guarantee_top_up(
            tournament_ref=ref, guaranteed=t.guaranteed, idempotency_key=f"tournament-guarantee:{t.pk}"
        )["top_up"]
    pool = wallet_selectors.tournament_pool_get(tournament_ref=ref)
    seats: list[int] = []
    if t.satellite_of_id is not None:
        won = satellite_prizes(t, pool)
        prizes = {uid: amount for uid, (_seat, amount) in won.items() if amount > 0}
        seats = [uid for uid, (seat, _amount) in won.items() if seat]
    else:
        prizes = {uid: amount for uid, amount in line_prizes(t, pool).items() if amount > 0}
    if prizes:
        paid = wallet.tournament_prizes_pay(
            tournament_ref=ref, prizes=prizes, idempotency_key=f"tournament-prizes:{t.pk}", in_bonus=t.is_free
        )
        t.prize_transaction = paid["transaction_id"] or ""
        if paid["pool_left"] != 0:
            raise RuntimeError(f"tournament {t.pk}: the pool is not empty after the prizes")
    for uid, amount in prizes.items():
        Registration.objects.filter(tournament=t, user_id=uid, state=Registration.State.ADMITTED).update(
            prize=amount
        )
    if seats:
        t.progress["seats"] = _satellite_seats_enter(t, seats)
    t.paid_at = now
    t.save(update_fields=["paid_at", "prize_transaction", "progress"])
    return {"pool": pool, "top_up": top_up, "prizes": prizes, "seats": t.progress.get("seats", {})}


def satellite_prizes(t: Tournament, pool: int) -> dict[int, tuple[bool, int]]:
    """A satellite's prizes (RULINGS K4): per player, whether he won a seat in the target and the
    amount credited to him, the seat's value (the target's whole cost, fee included) plus any cash."""
    from tournaments.formats.prizes import satellite_award

    p = t.progress
    target = Tournament.objects.only("pool_quota", "fee").get(pk=t.satellite_of_id)
    awards = satellite_award(pool, target.cost, t.cost, p["placings"], line_order(t))
    out: dict[int, tuple[bool, int]] = {}
    for line, won in awards.items():
        (uid,) = p["lines"][line]  # satellites are individual (Tournament.clean)
        out[uid] = (won.tickets > 0, won.tickets * target.cost + won.cash)
    return out


def _satellite_seats_enter(t: Tournament, seats: list[int]) -> dict[str, str]:
    """Enter each qualifier into the target; what happened to each seat: "" entered, else the reason
    the entry was refused (the seat's value then stays on his conto)."""
    from piattaforma.models import User
    from tournaments.actions import satellite_seat_enter

    ranked = [int(line) for group in t.progress["placings"] for line in group]
    users = User.objects.in_bulk(seats)
    out: dict[str, str] = {}
    for uid in sorted(seats, key=ranked.index):  # the best placed first, should places run out
        _registration, reason = satellite_seat_enter(satellite=t, user=users[uid])
        out[str(uid)] = reason
    return out


# --- the beat's safety net -----------------------------------------------------------------------


def running_sweep(*, now: datetime | None = None) -> dict[str, int]:
    """Start due tournaments, advance turns whose matches all ended, pay finished ones (beat)."""
    now = now or timezone.now()
    out = {"started": 0, "advanced": 0, "paid": 0}
    for pk in Tournament.objects.filter(state=State.CLOSED).values_list("pk", flat=True):
        out["started"] += _safely(tournament_start, pk, now)
    for pk in Tournament.objects.filter(state=State.RUNNING).values_list("pk", flat=True):
        out["advanced"] += _safely(tournament_advance, pk, now)
    for pk in Tournament.objects.filter(state=State.FINISHED, paid_at__isnull=True).values_list(
        "pk", flat=True
    ):
        out["paid"] += _safely(tournament_pay, pk, now)
    return out


def _safely(action: Any, tournament_id: int, now: datetime) -> int:
    """One tournament failing stops no other's."""
    try:
        return int(bool(action(tournament_id=tournament_id, now=now)))
    except Exception:
        logger.exception("tournament %s: %s failed", tournament_id, action.__name__)
        return 0
