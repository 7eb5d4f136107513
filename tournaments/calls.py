"""The tournaments' calls to their players (``piattaforma.playercalls``): "your tournament has
started" and "your match of turn N is ready at table X", on every page the player has open.

Sent after the commit that opens a turn's tables (``running._open_tables``); read again by every
page of the player that connects meanwhile (``player_calls``, the provider of
``hooks.player_calls``), so a player who was loading a page, or had none open, still finds his
table. A match starts as soon as its table opens and a player who never plays loses it when his
first decision's time runs out (rules 004, "assente all'inizio"), so each call carries that
moment, ``sanction_at``: the page counts down to it.

A tournament "A inviti" tells each invited player too, once its registration opens: a notice
(``invitation_call``) with a button to the tournament's lobby, pushed after the commit that opens
it and found again by each page of his that connects while he may still register.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from piattaforma import playercalls
from piattaforma.models import User
from tournaments.models import Registration, Tournament, TournamentMatch


def match_call(t: Tournament, match: TournamentMatch) -> dict[str, Any]:
    """The call of one player to his match's table (its text in Italian)."""
    first = match.turn == 1
    title = (
        _("Il torneo %(name)s è iniziato") % {"name": t.name}
        if first
        else _("%(name)s: turno %(turn)s") % {"name": t.name, "turn": match.turn}
    )
    sanction_at = match.started_at + timedelta(seconds=t.tempo_giocata) if match.started_at else None
    return {
        "kind": "match",
        "key": f"torneo-{t.pk}-{match.turn}-{match.table_id}",
        "title": title,
        "text": _("La tua partita è pronta al tavolo %(number)s.") % {"number": match.number},
        "warning": _("Se non giochi in tempo perdi la partita per assenza e ricevi un'ammonizione."),
        "url": reverse("lobby:table", args=[match.table_id]),
        "table_id": match.table_id,
        "tournament_id": t.pk,
        "turn": match.turn,
        "sanction_at": sanction_at.isoformat() if sanction_at else None,
    }


def turn_calls_on_commit(t: Tournament, matches: list[TournamentMatch]) -> None:
    """After commit, call each person seated at the turn's tables (bots have no page to call)."""
    lines = t.progress.get("lines", {})
    by_user: dict[int, TournamentMatch] = {}
    for m in matches:
        for line in (m.line_a, m.line_b):
            for uid in lines.get(line, []) if line else []:
                by_user[int(uid)] = m
    people = set(User.objects.filter(pk__in=list(by_user), is_bot=False).values_list("pk", flat=True))
    calls = [(uid, match_call(t, m)) for uid, m in by_user.items() if uid in people]
    if calls:
        transaction.on_commit(lambda: playercalls.calls_send(calls), robust=True)


def invitation_call(t: Tournament) -> dict[str, Any]:
    """The notice of an invitation to a tournament "A inviti" (its text in Italian)."""
    when = (
        _("Inizia il %(date)s.") % {"date": formats.date_format(timezone.localtime(t.starts_at), "j b Y H:i")}
        if t.starts_at
        else _("Inizia appena gli iscritti sono %(n)s.") % {"n": t.max_players}
    )
    return {
        "kind": "notice",
        "key": f"invito-torneo-{t.pk}",
        "title": _("Sei invitato a un torneo"),
        "text": _("Il concessionario ti invita al torneo %(name)s (%(code)s). %(when)s")
        % {"name": t.name, "code": t.code, "when": when},
        "code": "tournament_invitation",
        "url": reverse("tournaments:lobby", args=[t.pk]),
        "action": _("Vai al torneo"),
        "tournament_id": t.pk,
    }


def invitations_send_on_commit(t: Tournament) -> None:
    """After commit, tell each invited person (bots have no page) that the tournament is open to him."""
    people = list(t.invited.filter(is_bot=False).values_list("pk", flat=True))
    if not people:
        return
    call = invitation_call(t)
    calls = [(uid, call) for uid in people]
    transaction.on_commit(lambda: playercalls.calls_send(calls), robust=True)


def _invitations(user_id: int) -> list[dict[str, Any]]:
    """The open tournaments he is invited to and has not registered for."""
    registered = Registration.objects.filter(user_id=user_id, state__in=Registration.ACTIVE)
    open_to_him = Tournament.objects.filter(invited__pk=user_id, state__in=Tournament.OPEN_STATES).exclude(
        pk__in=registered.values("tournament_id")
    )
    return [invitation_call(t) for t in open_to_him.order_by("pk")]


def level_call(t: Tournament, table_id: int, number: int, *, first: bool) -> dict[str, Any]:
    """The call of one player of a level tournament to his table: the start, or a move between hands
    to another table (his chips go with him; his page follows him there)."""
    title = (
        _("Il torneo %(name)s è iniziato") % {"name": t.name}
        if first
        else _("%(name)s: cambio di tavolo") % {"name": t.name}
    )
    text = (
        _("Il tuo tavolo è il numero %(number)s.")
        if first
        else _("Sei stato spostato al tavolo %(number)s con le tue chips.")
    ) % {"number": number}
    return {
        "kind": "match",
        "key": f"torneo-{t.pk}-tavolo-{table_id}",
        "title": title,
        "text": text,
        "warning": _("Se non sei al tavolo, l'invito ti viene preso comunque a ogni mano."),
        "url": reverse("lobby:table", args=[table_id]),
        "table_id": table_id,
        "tournament_id": t.pk,
        "turn": t.turn,
        "sanction_at": None,
    }


def level_calls_on_commit(t: Tournament, where: dict[int, tuple[int, int]], *, first: bool) -> None:
    """After commit, call each person (``where``: user id -> (table id, table number)) to his table."""
    people = set(User.objects.filter(pk__in=list(where), is_bot=False).values_list("pk", flat=True))
    sent = [(uid, level_call(t, *where[uid], first=first)) for uid in where if uid in people]
    if sent:
        transaction.on_commit(lambda: playercalls.calls_send(sent), robust=True)


def slot_call(t: Tournament) -> dict[str, Any]:
    """The call of one entrant of a slot tournament to his own machine (its text in Italian)."""
    return {
        "kind": "match",
        "key": f"torneo-{t.pk}-slot",
        "title": _("Il torneo %(name)s è iniziato") % {"name": t.name},
        "text": _("La tua slot è pronta: %(min)s minuti per fare più credito che puoi.")
        % {"min": t.slot_minutes},
        "warning": _("Il tempo scorre per tutti dallo stesso momento."),
        "url": reverse("tournaments:slot", args=[t.pk]),
        "table_id": None,
        "tournament_id": t.pk,
        "turn": t.turn,
        "sanction_at": None,
    }


def slot_calls_on_commit(t: Tournament, user_ids: list[int]) -> None:
    """After commit, call each person (bots have no page) to his machine of a slot tournament."""
    people = list(User.objects.filter(pk__in=user_ids, is_bot=False).values_list("pk", flat=True))
    if people:
        call = slot_call(t)
        sent = [(uid, call) for uid in people]
        transaction.on_commit(lambda: playercalls.calls_send(sent), robust=True)


def player_calls(*, user_id: int) -> list[dict[str, Any]]:
    """What waits for a player now (the provider of ``hooks.player_calls``): the invitations to the
    open tournaments he has not entered, and in each running tournament he plays, his match of the
    current turn while its table is open (a slot tournament: his machine)."""
    out = _invitations(user_id)
    entered = Registration.objects.filter(user_id=user_id, state=Registration.State.ADMITTED)
    tournaments = list(
        Tournament.objects.filter(state=Tournament.State.RUNNING, pk__in=entered.values("tournament_id"))
    )
    if not tournaments:
        return out
    for t in tournaments:
        if t.is_slot:  # his machine, while his time runs
            if t.progress.get("extra") is None or str(user_id) in t.progress["extra"]["players"]:
                out.append(slot_call(t))
            continue
        if t.is_levels:  # his table now (he may have been moved since the page last looked)
            where = t.progress.get("seating", {}).get(str(user_id))
            if where is not None:
                number = (
                    TournamentMatch.objects.filter(tournament=t, table_id=where[0])
                    .values_list("number", flat=True)
                    .first()
                )
                out.append(level_call(t, where[0], number or 0, first=False))
            continue
        lines = [line for line, users in t.progress.get("lines", {}).items() if user_id in users]
        if not lines:
            continue
        match = (
            TournamentMatch.objects.filter(
                tournament=t, turn=t.turn, ended_at__isnull=True, table_id__isnull=False
            )
            .filter(Q(line_a__in=lines) | Q(line_b__in=lines))
            .first()
        )
        if match is not None:
            out.append(match_call(t, match))
    return out
