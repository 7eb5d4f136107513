"""Reads of the tournaments for the lobby's list, the info panel and the tournament lobby (plain data).

The labels follow rules 004, "Sigle ed abbreviazioni" and "Colore dei tornei negli elenchi".
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db.models import Count, Q, QuerySet, Sum
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from piattaforma.entry import entry_summary
from tournaments import levelinfo
from tournaments.formats import levels
from tournaments.formats.money import entry_fee_label, format_euro
from tournaments.formats.points import format_pt
from tournaments.formats.prizes import Format, default_scheme, simulate
from tournaments.formats.registration import SITGO_SIZES
from tournaments.models import Registration, Tournament, game_title
from tournaments.options import option_labels
from tournaments.rankings import levels_label

RS = Registration.State
LIVE = (*Registration.ACTIVE, RS.ADMITTED)
# Finished and cancelled tournaments stay in the list this long.
SHOWN_AFTER_END = timedelta(hours=12)
LEVELS_SHOWN = 15  # the levels a level tournament's structure lists


def format_abbreviation(t: Tournament) -> str:
    """KO, Danese, DanEl, DanKO8, DanELKO4 (rules 004, "Tipo di torneo")."""
    return {
        Tournament.Format.KO: "KO",
        Tournament.Format.DANESE: "Danese",
        Tournament.Format.DANEL: "DanEl",
        Tournament.Format.DANKO: f"DanKO{t.ko_qualifiers}",
        Tournament.Format.DANELKO: f"DanELKO{t.ko_qualifiers}",
        Tournament.Format.FREEZEOUT: "Freezeout",
        Tournament.Format.SHOOTOUT: "Shootout",
        Tournament.Format.SLOT: "Slot",
    }[Tournament.Format(t.format)]


def format_title(t: Tournament) -> str:
    """The abbreviation in words (its tooltip; rules 004, "Tipo di torneo")."""
    n = {"n": t.ko_qualifiers}
    return {
        Tournament.Format.KO: _("Torneo a eliminazione diretta"),
        Tournament.Format.DANESE: _("Torneo a girone Danese"),
        Tournament.Format.DANEL: _("Danese a eliminazione parziale"),
        Tournament.Format.DANKO: _("Danese con KO tra i migliori %(n)s classificati") % n,
        Tournament.Format.DANELKO: _(
            "Danese a eliminazione parziale con KO tra i migliori %(n)s classificati"
        )
        % n,
        Tournament.Format.FREEZEOUT: _(
            "Freezeout: chips iniziali uguali per tutti, inviti che crescono a livelli, tavoli riequilibrati"
        ),
        Tournament.Format.SHOOTOUT: _(
            "Shootout: ognuno resta al suo tavolo finché ne resta uno solo; i vincitori dei tavoli "
            "si sfidano al tavolo finale"
        ),
        Tournament.Format.SLOT: _(
            "Torneo slot: stesso credito e stesso tempo per tutti, vince chi ha più credito"
        ),
    }[Tournament.Format(t.format)]


def table_title(t: Tournament) -> str:
    """The table's abbreviation in words (its tooltip)."""
    if t.is_levels:
        return _("Fino a %(n)s giocatori per tavolo") % {"n": t.seats_per_table}
    if t.is_slot:
        return _("Ognuno alla sua slot, 30 linee")
    return {
        "2": _("Partite testa a testa, due giocatori al tavolo"),
        "4in2": _("Partite 4 in 2: quattro giocatori, ciascuno per sé"),
        "4": _("Quattro giocatori al tavolo, a coppie"),
    }[t.table]


def duration_title(t: Tournament) -> str:
    """The duration's figures in words (its tooltip)."""
    if t.is_slot:
        return _("%(min)s minuti di gioco per tutti; %(chips)s chips iniziali") % {
            "min": t.slot_minutes,
            "chips": t.starting_chips,
        }
    if t.is_levels:
        return _("Livelli di %(min)s minuti; invito iniziale %(invito)s; %(chips)s chips iniziali") % {
            "min": levels.LEVEL_SECONDS[levels.Speed(t.speed)] // 60,
            "invito": t.first_invito,
            "chips": t.starting_chips,
        }
    if t.smazzate:
        per_turn = ngettext("%(n)s smazzata", "%(n)s smazzate", t.smazzate) % {"n": t.smazzate}
    elif t.points_to_win:
        per_turn = _("una partita ai %(n)s punti") % {"n": t.points_to_win}
    else:
        per_turn = _("una partita")
    return ngettext(
        "%(min)s minuti per linea in ogni turno; %(turns)s turno di %(per_turn)s",
        "%(min)s minuti per linea in ogni turno; %(turns)s turni di %(per_turn)s",
        turns(t),
    ) % {"min": t.tempo_partita_min, "turns": turns(t), "per_turn": per_turn}


def table_abbreviation(t: Tournament) -> str:
    """2 gioc (testa a testa), 4in2, or 4 gioc for pairs ("Numero di giocatori al tavolo")."""
    if t.is_levels:
        return f"{t.seats_per_table} gioc"
    if t.is_slot:
        return "1 gioc"
    return {"2": "2 gioc", "4in2": "4in2", "4": "4 gioc"}[t.table]


def turns(t: Tournament) -> int:
    """Turns of the tournament: the girone's, plus the KO's (for a scheduled KO, at most)."""
    if t.format == Tournament.Format.KO:
        return max(1, (t.max_players - 1).bit_length())
    if t.ko_qualifiers:
        return t.turns + (t.ko_qualifiers - 1).bit_length()
    return t.turns


def duration_label(t: Tournament) -> str:
    """ "14 min (2 x 3 sm)" or "14 min (2 x 11 pt)": minutes per line and turn, turns x smazzate/points.

    A level tournament: its speed (lento, normale, turbo, superturbo).
    """
    if t.is_levels:
        return str(Tournament.Speed(t.speed).label)
    if t.is_slot:
        return f"{t.slot_minutes} min"
    if t.smazzate:
        per_turn = f"{t.smazzate} sm"
    elif t.points_to_win:
        per_turn = f"{t.points_to_win} pt"
    else:
        per_turn = _("partita")
    return f"{t.tempo_partita_min} min ({turns(t)} x {per_turn})"


def colour(t: Tournament) -> str:
    """The list colour, by the rules' priority: guaranteed, special leaderboard, freeroll, satellite.

    A training tournament is free but no freeroll (no bonus prizes: "non si vincono soldi o premi
    in denaro"); the rules give the training section no colour, so it has none, and is marked
    "Allenamento" with its fictitious cost of 10 PT instead.
    """
    if t.training:
        return ""
    if t.guaranteed and not t.is_free:
        return "guaranteed"
    if t.special_leaderboard:
        return "leaderboard"
    if t.is_free:
        return "freeroll"
    if t.satellite_of_id:
        return "satellite"
    return ""


def cost_label(t: Tournament) -> str:
    """ "€ 10,00 (9,00 + 1,00)": the cost, its pool quota and the operator's fee.

    Training: "il costo di partecipazione fittizio è sempre uguale a 10 Punti Torneo".
    """
    if t.training:
        return _("10 PT (fittizio)")
    return entry_fee_label(t.pool_quota, t.fee) if not t.is_free else _("Gratuito")


def sphere(state: str | None, unconfirmed: bool = False) -> str:
    """The sphere beside a tournament the player is in: green authorised, brown waiting (or, in
    training tournaments that require it, not yet confirmed)."""
    if state in (RS.AUTHORISED, RS.ADMITTED):
        return "brown" if unconfirmed and state == RS.AUTHORISED else "green"
    if state in (RS.PENDING, RS.CANCEL_PENDING):
        return "brown"
    return ""


def nickname_colour(state: str, *, unconfirmed: bool = False) -> str:
    """An entrant's nickname: blue authorised (and confirmed), black waiting for the regulator or
    for the player's confirmation (training), red cancellation waiting."""
    if unconfirmed and state == RS.AUTHORISED:
        return "black"
    return {RS.PENDING: "black", RS.CANCEL_PENDING: "red"}.get(state, "blue")


def unconfirmed(t: Tournament, registration: Registration) -> bool:
    """A registration the player must still confirm (training tournaments that require it)."""
    return t.confirmation_required and registration.confirmed_at is None


def description(t: Tournament) -> str:
    """The tournament's structure in full words, without abbreviations."""
    game = game_title(t.game)
    label = str(Tournament.Format(t.format).label)
    parts = [game, label[0].lower() + label[1:]]
    if t.is_levels:
        parts.append(_("fino a %(n)s giocatori per tavolo") % {"n": t.seats_per_table})
        parts.append(_("%(chips)s chips iniziali") % {"chips": t.starting_chips})
        parts.append(_("velocità %(speed)s") % {"speed": Tournament.Speed(t.speed).label})
        return ", ".join(parts)
    if t.is_slot:
        parts.append(_("ognuno alla sua slot"))
        parts.append(_("%(chips)s chips iniziali") % {"chips": levelinfo.chips_label(t.starting_chips)})
        parts.append(_("%(min)s minuti di gioco") % {"min": t.slot_minutes})
        return ", ".join(parts)
    if t.ko_qualifiers:
        parts.append(_("KO tra i migliori %(n)s") % {"n": t.ko_qualifiers})
    parts.append(str(Tournament.Lines(t.lines).label).lower())
    parts.append(str(Tournament.Table(t.table).label).lower())
    if t.smazzate:
        parts.append(
            ngettext("%(n)s smazzata per turno", "%(n)s smazzate per turno", t.smazzate) % {"n": t.smazzate}
        )
    elif t.points_to_win:
        parts.append(_("partita ai %(n)s punti per turno") % {"n": t.points_to_win})
    else:
        parts.append(_("una partita per turno"))
    return ", ".join(parts)


def _visible(now: datetime) -> QuerySet[Tournament]:
    ended = (Tournament.State.FINISHED, Tournament.State.CANCELLED)
    return Tournament.objects.filter(~Q(state__in=ended) | Q(created_at__gte=now - SHOWN_AFTER_END))


def _row(t: Tournament, mine: dict[int, tuple[str, bool]]) -> dict[str, Any]:
    return {
        "id": t.pk,
        "code": t.code,
        "name": t.name,
        "game": t.game,
        "game_title": game_title(t.game),
        "kind": t.kind,
        "starts_at": t.starts_at,
        "format": format_abbreviation(t),
        "format_title": format_title(t),
        "table": table_abbreviation(t),
        "table_title": table_title(t),
        "duration": duration_label(t),
        "duration_title": duration_title(t),
        "cost": cost_label(t),
        "cost_total": cost_label(t)
        if t.training
        else format_euro(t.cost)
        if not t.is_free
        else _("Gratuito"),
        "cost_split": "" if t.is_free else cost_label(t).removeprefix(format_euro(t.cost)).strip(),
        "fee": "—" if t.training else format_euro(t.fee),
        "training": t.training,
        "guaranteed": format_euro(t.guaranteed) if t.guaranteed else "",
        "satellite_of": t.satellite_of.name if t.satellite_of_id else "",
        "entrants": t.live_count,  # type: ignore[attr-defined]  # annotated by the list query
        "max_players": t.max_players,
        "state": t.state,
        "state_label": t.get_state_display(),
        "colour": colour(t),
        "sphere": sphere(*mine[t.pk]) if t.pk in mine else "",
        "password": t.has_password,
        "reserved_for": entry_summary(
            t,
            invited=t.n_invited > 0,  # type: ignore[attr-defined]  # annotated by the list query
            game_title=game_title(t.game),
        ),
        "options": option_labels(game=t.game, options=t.options),
    }


def tournament_list(*, kind: str, user_id: int | None, now: datetime | None = None) -> list[dict[str, Any]]:
    """The lobby's list of one kind (scheduled by start, sit&go by code), with the player's spheres."""
    now = now or timezone.now()
    rows = (
        _visible(now)
        .filter(kind=kind)
        .annotate(
            live_count=Count("registrations", filter=Q(registrations__state__in=LIVE), distinct=True),
            n_invited=Count("invited", distinct=True),
        )
        .select_related("satellite_of")
        .order_by("starts_at", "pk")
    )
    mine: dict[int, tuple[str, bool]] = {}
    if user_id:
        regs = Registration.objects.filter(user_id=user_id, state__in=LIVE).values_list(
            "tournament_id", "state", "confirmed_at", "tournament__confirmation_required"
        )
        mine = {tid: (state, required and at is None) for tid, state, at, required in regs}
    return [_row(t, mine) for t in rows]


def tournament_info(*, tournament: Tournament, now: datetime | None = None) -> dict[str, Any]:
    """The "Informazioni sul torneo" panel: cost, codes, description, times and state."""
    now = now or timezone.now()
    t = tournament
    live = t.registrations.filter(state__in=LIVE).count()
    return {
        "id": t.pk,
        "name": t.name,
        "game": t.game,
        "game_title": game_title(t.game),
        "cost": cost_label(t),
        "guaranteed": format_euro(t.guaranteed) if t.guaranteed else "",
        "freeroll": t.is_free,
        "training": t.training,
        "confirmation_opens_at": t.confirmation_opens_at,
        "cancellation_allowed": t.cancellation_allowed,
        "levels": levels_label(t.allowed_levels) if t.allowed_levels else "",
        "code": t.code,
        "adm_code": t.adm_code,
        "description": description(t),
        "notes": t.description,
        "satellite_of": t.satellite_of.name if t.satellite_of_id else "",
        "satellite_of_id": t.satellite_of_id,
        "satellite_of_cost": cost_label(t.satellite_of) if t.satellite_of_id else "",
        "special_leaderboard": t.special_leaderboard,
        "reserved": t.state == Tournament.State.RESERVED,
        "entry": entry_summary(t, invited=t.invited.exists(), game_title=game_title(t.game)),
        "password": t.has_password,
        "options": option_labels(game=t.game, options=t.options),
        "tempo_giocata": t.tempo_giocata,
        "tempo_partita": t.tempo_partita_min,
        "duration": duration_label(t),
        "duration_title": duration_title(t),
        "state": t.state,
        "state_label": t.get_state_display(),
        "opens_at": t.registration_opens_at if t.state == Tournament.State.ANNOUNCED else None,
        "starts_at": t.starts_at,
        "starts_in": t.starts_at - now if t.starts_at and t.starts_at > now else None,
        "closes_at": t.closes_at,
        "entrants": live,
        "max_players": t.max_players,
        "cancelled_reason": t.cancelled_reason,
        "turn": t.turn if t.state == Tournament.State.RUNNING else None,
        "players_left": players_left(t),
        "by_levels": t.is_levels,
        "slot": {"minutes": t.slot_minutes, "credit": levelinfo.chips_label(t.starting_chips)}
        if t.is_slot
        else None,
        "level": levelinfo.summary(t, now),  # a running level tournament: its level clock and chips
    }


def players_left(t: Tournament) -> int | None:
    """ "I giocatori rimasti in gara" of a running tournament: the players of the lines still
    playing (a KO round's lines, byes included; a girone's lines not cut by danEL)."""
    p = t.progress or {}
    if t.state != Tournament.State.RUNNING or "lines" not in p:
        return None
    if t.is_slot:  # everyone plays to the end of time: the players of the extra minute, when it runs
        extra = p.get("extra")
        return len(extra["players"]) if extra else len(p["lines"])
    if t.is_levels:  # the players who still hold chips
        return len(p.get("chips", {}))
    if p.get("phase") == "ko":
        lines = {line for slot in p.get("slots", []) for line in slot if line}
    else:
        lines = set(p.get("active", []))
    return sum(len(p["lines"].get(line, [])) for line in lines)


def entrants(*, tournament: Tournament) -> list[dict[str, Any]]:
    """The entrants in registration order, each with the colour of his authorisation state."""
    regs = (
        tournament.registrations.filter(state__in=LIVE)
        .select_related("user", "partner", "pair__user")
        .order_by("created_at", "pk")
    )
    return [
        {
            "nickname": r.user.nickname,
            "pair_with": r.pair.user.nickname if r.pair_id else (r.partner.nickname if r.partner_id else ""),
            "is_bot": r.user.is_bot,
            "state": r.state,
            "colour": nickname_colour(r.state, unconfirmed=unconfirmed(tournament, r)),
            "state_label": _("Da confermare")
            if r.state == RS.AUTHORISED and unconfirmed(tournament, r)
            else r.get_state_display(),
        }
        for r in regs
    ]


def prize_distribution(*, tournament: Tournament, simulated: int | None = None) -> dict[str, Any]:
    """The prize table: final after the close (and in a sit&go), else for the entrants now or simulated.

    "la possibilità di simulare qualsiasi numero di iscritti inferiore o uguale al numero massimo".
    """
    t = tournament
    live = t.registrations.filter(state__in=LIVE).count()
    final = t.kind == Tournament.Kind.SITGO or t.state not in (
        *Tournament.OPEN_STATES,
        Tournament.State.ANNOUNCED,
    )
    if t.kind == Tournament.Kind.SITGO:
        count = t.max_players
    elif final:
        count = live
    elif simulated is not None:
        count = max(1, min(simulated, t.max_players))
    else:
        count = live or t.min_players  # nobody in yet: the table for the smallest field that plays
    scheme = default_scheme(Format(t.format), sitgo=t.kind == Tournament.Kind.SITGO)
    rows = []
    if t.satellite_of_id and count >= 1 and t.state != Tournament.State.CANCELLED:
        rows = satellite_rows(t, count)
    elif count >= 1 and (t.pool_quota or t.guaranteed) and t.state != Tournament.State.CANCELLED:
        if scheme.value == "ko_sitgo" and count not in SITGO_SIZES:
            count = t.max_players
        rows = [
            {
                "positions": f"{r.first}°" if r.first == r.last else f"{r.first}°-{r.last}°",
                "amount": format_euro(r.amount),
            }
            for r in simulate(scheme, count, t.pool_quota, t.guaranteed)
        ]
    pool = max(count * t.pool_quota, t.guaranteed)
    return {
        "final": final,
        "entrants": count,
        "live": live,
        "pool": format_euro(pool),
        "in_bonus": t.is_free,
        "rows": rows,
        "can_simulate": not final,
        "max_players": t.max_players,
    }


def satellite_rows(t: Tournament, count: int) -> list[dict[str, str]]:
    """A satellite's prizes for ``count`` entrants (RULINGS K4): the seats in the target ("Iscrizione
    a ...") for the best, then the remainder in cash, positions with the same prize on one row."""
    from tournaments.formats.prizes import prize_pool, satellite_award

    target = t.satellite_of
    assert target is not None
    pool = prize_pool(count, t.pool_quota, t.guaranteed).total
    names = [str(i) for i in range(1, count + 1)]
    awards = satellite_award(pool, target.cost, t.cost, [[n] for n in names])
    seat = _("Iscrizione a %(name)s") % {"name": target.name}
    out: list[dict[str, Any]] = []
    for position, name in enumerate(names, start=1):
        won = awards[name]
        if not won.tickets and not won.cash:
            break
        label = " + ".join(
            part for part in (seat if won.tickets else "", format_euro(won.cash) if won.cash else "") if part
        )
        if out and out[-1]["amount"] == label:
            out[-1]["last"] = position
        else:
            out.append({"first": position, "last": position, "amount": label, "seat": bool(won.tickets)})
    return [
        {
            "positions": f"{r['first']}°" if r["first"] == r["last"] else f"{r['first']}°-{r['last']}°",
            "amount": r["amount"],
            "seat": r["seat"],
        }
        for r in out
    ]


def satellites(*, tournament: Tournament) -> list[dict[str, Any]]:
    """ "La lista di eventuali tornei satelliti al torneo stesso" (not those ended long ago)."""
    rows = _visible(timezone.now()).filter(satellite_of=tournament).order_by("starts_at", "pk")
    return [
        {
            "id": s.pk,
            "code": s.code,
            "name": s.name,
            "starts_at": s.starts_at,
            "cost": cost_label(s),
            "state_label": s.get_state_display(),
        }
        for s in rows
    ]


def structure(*, tournament: Tournament) -> list[dict[str, str]]:
    """The turns of the tournament, phase by phase."""
    t = tournament
    out = []
    if t.is_levels:  # "Se il torneo è a livelli, apparirà l'elenco dei livelli con le tempistiche"
        for level in levels.level_schedule(levels.Speed(t.speed), t.first_invito, LEVELS_SHOWN):
            out.append(
                {
                    "turn": str(level.number),
                    "phase": _("Invito %(invito)s, dal minuto %(start)s al %(end)s")
                    % {"invito": level.invito, "start": level.start_s // 60, "end": level.end_s // 60},
                }
            )
        return out
    if t.is_slot:  # one session for everybody; the tied for first play one minute more
        return [
            {
                "turn": "1",
                "phase": _("Slot: %(min)s minuti, %(chips)s chips iniziali")
                % {"min": t.slot_minutes, "chips": levelinfo.chips_label(t.starting_chips)},
            },
            {"turn": "+", "phase": _("Parità al primo posto: un minuto in più per chi è a pari merito")},
        ]
    if t.format != Tournament.Format.KO:
        phase = (
            Tournament.Format.DANEL.label
            if t.format in ("danel", "danelko")
            else Tournament.Format.DANESE.label
        )
        for n in range(1, t.turns + 1):
            out.append({"turn": str(n), "phase": str(phase)})
    ko_turns = turns(t) - (t.turns if t.format != Tournament.Format.KO else 0)
    for n in range(ko_turns):
        out.append({"turn": str(len(out) + 1), "phase": _("KO, turno %(n)s") % {"n": n + 1}})
    return out


def my_registration(*, tournament: Tournament, user_id: int | None) -> Registration | None:
    """The player's live registration in the tournament, if any."""
    if not user_id:
        return None
    return tournament.registrations.filter(user_id=user_id, state__in=LIVE).first()


def open_invitation(*, tournament: Tournament, user_id: int) -> Registration | None:
    """A fixed pair whose first registrant named this player as his partner and waits for him."""
    return (
        tournament.registrations.filter(state__in=Registration.ACTIVE, partner_id=user_id)
        .exclude(joined__state__in=Registration.ACTIVE)
        .select_related("user")
        .order_by("created_at", "pk")
        .first()
    )


def pair_invitation(*, tournament: Tournament, user_id: int | None) -> str:
    """The nickname of the fixed pair's first registrant who named this player as his partner, if any."""
    if not user_id or tournament.lines != Tournament.Lines.FIXED_PAIRS:
        return ""
    inviter = open_invitation(tournament=tournament, user_id=user_id)
    return inviter.user.nickname if inviter else ""


def chat_role(*, tournament_id: int | None, user_id: int) -> str | None:
    """The player's part in the tournament's chat: ``playing`` (an entrant while it runs),
    ``entrant``, ``watcher``; None when the tournament is not shown (missing, or ended long ago).
    """
    t = _visible(timezone.now()).filter(pk=tournament_id).only("state").first()
    if t is None:
        return None
    if not t.registrations.filter(user_id=user_id, state__in=LIVE).exists():
        return "watcher"
    return "playing" if t.state == Tournament.State.RUNNING else "entrant"


# --- a running or finished tournament: standings, matches, results ----------------------------


def _line_players(t: Tournament) -> dict[str, list[str]]:
    """Each line's nicknames: the player's, or the pair's two."""
    from piattaforma.models import User

    lines: dict[str, list[int]] = (t.progress or {}).get("lines", {})
    ids = {uid for members in lines.values() for uid in members}
    names = dict(User.objects.filter(pk__in=ids).values_list("pk", "nickname"))
    return {line: [names.get(uid, "?") for uid in members] for line, members in lines.items()}


def _line_names(t: Tournament) -> dict[str, str]:
    """Each line's label: the nickname, or the pair's two nicknames."""
    return {line: " / ".join(players) for line, players in _line_players(t).items()}


def standings_by_turn(*, tournament: Tournament) -> list[dict[str, Any]]:
    """The standings after every turn played so far (VP, then MP; the turn's own VP and MP beside).

    Rebuilt from the matches' results: a line's totals are the sum of its matches up to that turn.
    Latest turn first.
    """
    from tournaments.models import TournamentMatch

    if tournament.is_levels or tournament.is_slot:
        return []  # a level tournament has no turns: its tables and chips are in ``current_matches``
    players = _line_players(tournament)
    names = {line: " / ".join(nicks) for line, nicks in players.items()}
    if not names:
        return []
    totals = {line: [0, 0] for line in names}
    out = []
    matches = TournamentMatch.objects.filter(tournament=tournament).order_by("turn", "number")
    by_turn: dict[int, list[TournamentMatch]] = {}
    for m in matches:
        by_turn.setdefault(m.turn, []).append(m)
    for turn, ms in sorted(by_turn.items()):
        this_turn: dict[str, tuple[int, int]] = {}
        for m in ms:
            if m.result is None or m.result.get("bye"):
                continue
            for side, line in (("a", m.line_a), ("b", m.line_b)):
                vp, mp = int(m.result[side]["vp"]), int(m.result[side]["mp"])
                this_turn[line] = (vp, mp)
                totals[line] = [totals[line][0] + vp, totals[line][1] + mp]
        order = sorted(totals, key=lambda line: (-totals[line][0], -totals[line][1], names[line]))
        complete = all(m.result is not None for m in ms)
        out.append(
            {
                "turn": turn,
                "complete": complete,
                "rows": [
                    {
                        "position": i,
                        "name": names[line],
                        "players": [p for p in players[line] if p != "?"],  # each links to his card
                        "vp": totals[line][0],
                        "mp": totals[line][1],
                        "turn_vp": this_turn[line][0] if line in this_turn else None,
                        "turn_mp": this_turn[line][1] if line in this_turn else None,
                    }
                    for i, line in enumerate(order, start=1)
                ],
            }
        )
    return list(reversed(out))


LIVE_STATES = (
    Tournament.State.REGISTRATION,
    Tournament.State.RESERVED,
    Tournament.State.CLOSED,
    Tournament.State.RUNNING,
)


def lobby_stamp(*, tournament: Tournament) -> str:
    """What the tournament lobby shows that changes on its own: the state, the turn, the entrants
    (registered, authorised), the matches ended. The page asks for it every few seconds and reloads when it
    changes, so a player waiting sees the start, each result and his next table ("vai al tuo
    tavolo") without reloading by hand. A level tournament's play (its hands, chip counts, tables
    broken) and a slot tournament's standings (every spin) are not in it: ``lobby_live_stamp``,
    drawn again in place."""
    from tournaments.models import TournamentMatch

    regs = tournament.registrations.aggregate(
        n=Count("pk"),
        ok=Count("pk", filter=Q(state__in=[Registration.State.AUTHORISED, Registration.State.ADMITTED])),
        confirmed=Count("pk", filter=Q(confirmed_at__isnull=False)),
    )
    stamp = f"{tournament.state}:{tournament.turn}:{regs['n']}:{regs['ok']}"
    if not tournament.is_levels:  # a level tournament's tables ending are part of its play (below)
        ended = TournamentMatch.objects.filter(tournament=tournament, ended_at__isnull=False).count()
        stamp += f":{ended}"
    if tournament.confirmation_required:  # the "Conferma iscrizione" button shows and goes by itself
        stamp += f":{int(tournament.confirmation_open(timezone.now()))}:{regs['confirmed']}"
    return stamp


def lobby_live_stamp(*, tournament: Tournament) -> str:
    """What a running level tournament's lobby shows of its play that changes with every hand: the
    hands folded, the players left, the level, the tables ended; a running slot tournament's: the
    spins played (its standings) and the players of the extra minute. Its page draws the play
    again in place when it changes (the phase, the ``lobby_stamp``, reloads it). Empty for the
    others."""
    from tournaments.models import SlotSession, TournamentMatch

    if tournament.state != Tournament.State.RUNNING:
        return ""
    if tournament.is_slot:  # every spin moves the standings; the tied play an extra minute
        moved = SlotSession.objects.filter(tournament=tournament).aggregate(n=Sum("version"))["n"]
        return f"{moved or 0}:{len((tournament.progress or {}).get('extra') or {})}"
    if not tournament.is_levels:
        return ""
    ended = TournamentMatch.objects.filter(tournament=tournament, ended_at__isnull=False).count()
    return f"{ended}:{levelinfo.chips_stamp(tournament)}"


def current_matches(*, tournament: Tournament, user_id: int | None) -> list[dict[str, Any]]:
    """The current turn's matches: who plays whom, the result when over, and the table to watch
    (or "vai al tuo tavolo" for the player's own match)."""
    from tournaments.models import TournamentMatch

    if tournament.state != Tournament.State.RUNNING:
        return []
    if tournament.is_levels:
        return _level_tables(tournament, user_id)
    if tournament.is_slot:
        return []  # no tables: ``slot_standings``
    names = _line_names(tournament)
    lines = tournament.progress.get("lines", {})
    out = []
    for m in TournamentMatch.objects.filter(tournament=tournament, turn=tournament.turn).order_by("number"):
        mine = user_id is not None and any(
            user_id in lines.get(line, []) for line in (m.line_a, m.line_b) if line
        )
        result = ""
        if m.result is not None and not m.result.get("bye"):
            result = f"{m.result['a']['vp']}–{m.result['b']['vp']} VP"
        out.append(
            {
                "number": m.number,
                "a": names.get(m.line_a, ""),
                "b": names.get(m.line_b, "") if m.line_b else _("passa il turno"),
                "over": m.ended_at is not None,
                "result": result,
                "table_id": m.table_id if m.ended_at is None else None,
                "mine": mine,
            }
        )
    return out


def slot_standings(*, tournament: Tournament, user_id: int | None) -> dict[str, Any] | None:
    """A running slot tournament's standings as the lobby shows them: every player by credit (the
    players of the extra minute first), the reader's own row, and whether he plays (his slot's
    link). None for any other tournament."""
    from tournaments import slot

    t = tournament
    if not t.is_slot or t.state != Tournament.State.RUNNING:
        return None
    table = slot.ranking(t, best=None)
    return {
        "rows": [
            {**r, "mine": r["user_id"] == user_id, "credit_label": levelinfo.chips_label(r["credit"])}
            for r in table["best"]
        ],
        "plays": user_id is not None and user_id in table["positions"],
        "extra": bool((t.progress or {}).get("extra")),
    }


def _level_tables(t: Tournament, user_id: int | None) -> list[dict[str, Any]]:
    """A level tournament's tables now: each one's players with their chips (as of the last hand
    ended there), the table to watch, the player's own."""
    from tournaments.models import TournamentMatch

    names = _line_names(t)
    chips: dict[str, int] = t.progress.get("chips", {})
    seating: dict[str, list[int]] = t.progress.get("seating", {})
    out = []
    for m in TournamentMatch.objects.filter(tournament=t, ended_at__isnull=True).order_by("number"):
        here = sorted((uid for uid, (table_id, _seat) in seating.items() if table_id == m.table_id), key=int)
        out.append(
            {
                "number": m.number,
                "a": ", ".join(f"{names.get(uid, '?')} ({chips.get(uid, 0)})" for uid in here),
                "b": "",
                "over": False,
                "result": ngettext("%(n)s giocatore", "%(n)s giocatori", len(here)) % {"n": len(here)},
                "table_id": m.table_id,
                "mine": user_id is not None and str(user_id) in here,
            }
        )
    return out


def final_results(*, tournament: Tournament) -> list[dict[str, Any]]:
    """The final placings with each player's prize (a finished tournament)."""
    if tournament.state != Tournament.State.FINISHED:
        return []
    regs = (
        tournament.registrations.filter(state=RS.ADMITTED, position__isnull=False)
        .select_related("user")
        .order_by("position", "user__nickname")
    )
    seats: dict[str, str] = (tournament.progress or {}).get("seats", {})
    target_row = tournament.satellite_of if tournament.satellite_of_id and seats else None
    target = target_row.name if target_row else ""
    seat_value = target_row.cost if target_row else 0
    out = []
    for r in regs:
        prize = format_euro(r.prize) if r.prize else ""
        if str(r.user_id) in seats:
            # the seat's value is credited and at once paid as the entry, unless the entry was refused
            refused = seats[str(r.user_id)]
            prize = (
                _("%(prize)s: iscrizione a %(name)s non possibile (%(reason)s)")
                % {"prize": prize, "name": target, "reason": refused.rstrip(".")}
                if refused
                else " + ".join(
                    [_("Iscrizione a %(name)s") % {"name": target}]
                    + ([format_euro(r.prize - seat_value)] if r.prize > seat_value else [])
                )
            )
        out.append({"position": r.position, "nickname": r.user.nickname, "prize": prize})
    return out


def my_tournaments(*, user_id: int, limit: int = 20) -> list[dict[str, Any]]:
    """A player's tournaments, latest first: state, his placing and prize (his profile)."""
    regs = (
        Registration.objects.filter(user_id=user_id)
        .select_related("tournament")
        .order_by("-created_at", "-pk")[:limit]
    )
    return [
        {
            "id": r.tournament_id,
            "name": r.tournament.name,
            "code": r.tournament.code,
            "state": r.tournament.get_state_display(),
            "registration": r.get_state_display(),
            "position": r.position,
            "prize": format_euro(r.prize) if r.prize else "",
            "pt": format_pt(r.pt) if r.pt is not None else "",
        }
        for r in regs
    ]


def tournament_name(*, tournament_id: int) -> str | None:
    """A tournament's name (moderation says which tournament's chat a line was said in)."""
    return Tournament.objects.filter(pk=tournament_id).values_list("name", flat=True).first()


def ledger_sources(refs: set[str]) -> dict[str, tuple[str, str]]:
    """Name the tournaments of the wallet's tournament-pool refs ("tournament:<ledger_ref>")."""
    wanted = {ref: ref.removeprefix("tournament:") for ref in refs if ref.startswith("tournament:")}
    ids = {int(v) for v in wanted.values() if v.isdigit()}
    names = dict(Tournament.objects.filter(pk__in=ids).values_list("pk", "name"))
    return {
        ref: (names[int(v)], reverse("tournaments:lobby", args=[int(v)]))
        for ref, v in wanted.items()
        if v.isdigit() and int(v) in names
    }


def training_tournaments(now: datetime | None = None) -> list[dict[str, Any]]:
    """The training section's tournaments not yet over, sit&go first then by start (its lobby)."""
    from django.urls import reverse

    now = now or timezone.now()
    rows = (
        _visible(now)
        .filter(training=True)
        .exclude(state__in=(Tournament.State.FINISHED, Tournament.State.CANCELLED))
        .annotate(live_count=Count("registrations", filter=Q(registrations__state__in=LIVE)))
        .order_by("-kind", "starts_at", "pk")  # "sitgo" before "scheduled"
    )
    return [
        {
            "id": t.pk,
            "name": t.name,
            "game_title": game_title(t.game),
            "sitgo": t.kind == Tournament.Kind.SITGO,
            "starts_at": t.starts_at,
            "entrants": t.live_count,  # type: ignore[attr-defined]  # annotated above
            "max_players": t.max_players,
            "state_label": t.get_state_display(),
            "url": reverse("tournaments:lobby", args=[t.pk]),
        }
        for t in rows
    ]
