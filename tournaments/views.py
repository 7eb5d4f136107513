"""Tournament pages (mounted at /tornei/): thin, parse the request, call one action or selector."""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.engine import CodedError
from piattaforma.models import User
from tournaments import actions, errors, levelinfo, rankings, selectors, slotpage
from tournaments.models import Registration, SlotSession, Tournament


def tournament_list(request: HttpRequest) -> HttpResponse:
    """The lobby's tournaments: scheduled or sit&go, and the info panel of the one selected."""
    kind = Tournament.Kind.SITGO if request.GET.get("tipo") == "sitgo" else Tournament.Kind.SCHEDULED
    rows = selectors.tournament_list(kind=kind, user_id=request.user.pk)
    selected = None
    try:
        wanted = int(request.GET.get("t", ""))
    except ValueError:
        wanted = None
    # Decision: with none asked for, the panel shows the first tournament open to registration
    # (a sit&go just played stays listed for a while, but is not what a player comes for).
    open_first = next((r for r in rows if r["state"] in Tournament.OPEN_STATES), rows[0] if rows else None)
    if isinstance(request.user, User):  # a reserved entry says beforehand why it refuses him
        reserved = [r for r in rows if r["reserved_for"] and r["state"] in Tournament.OPEN_STATES]
        by_id = Tournament.objects.in_bulk([r["id"] for r in reserved])
        for r in reserved:
            r["refusal"] = actions.entry_rules_refusal(tournament=by_id[r["id"]], user=request.user)
    chosen = next((r for r in rows if r["id"] == wanted), open_first)
    if chosen is not None:
        selected = selectors.tournament_info(tournament=Tournament.objects.get(pk=chosen["id"]))
    return render(
        request,
        "tournaments/list.html",
        {"rows": rows, "kind": kind, "selected": selected, "sitgo": kind == Tournament.Kind.SITGO},
    )


def leaderboards(request: HttpRequest) -> HttpResponse:
    """The PT leaderboards ("Classifiche"): weekly, monthly, yearly and all-time, per section; and
    the special leaderboards. Unknown parameters fall back to the money section's week."""
    section = (
        request.GET.get("sezione") if request.GET.get("sezione") in rankings.SECTIONS else rankings.MONEY
    )
    period = next((p for p in rankings.PERIODS if p.value == request.GET.get("periodo")), rankings.PERIODS[0])
    specials = rankings.special_names()
    special = request.GET.get("speciale", "")
    if special not in specials:
        special = ""
    board = rankings.leaderboard(section=section, period=period, special=special, user_id=request.user.pk)
    return render(
        request,
        "tournaments/leaderboards.html",
        {
            "board": board,
            "section": section,
            "period": period,
            "special": special,
            "specials": specials,
            "periods": [(p.value, rankings.period_label(p)) for p in rankings.PERIODS],
        },
    )


def tournament_lobby(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The tournament lobby: entrants, prize distribution (with "simula iscritti"), structure."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    try:
        simulated = int(request.GET["iscritti"]) if request.GET.get("iscritti") else None
    except ValueError:
        simulated = None
    mine = selectors.my_registration(tournament=tournament, user_id=request.user.pk)
    can_register = tournament.state in Tournament.OPEN_STATES and mine is None
    refusal = None  # the lobby says why instead of offering «Iscriviti» (his level, the training limits…)
    if can_register and isinstance(request.user, User):
        refusal = actions.registration_refusal(tournament=tournament, user=request.user)
    to_confirm = (
        mine is not None
        and mine.state == Registration.State.AUTHORISED
        and selectors.unconfirmed(tournament, mine)
    )
    return render(
        request,
        "tournaments/lobby.html",
        {
            "t": tournament,
            "info": selectors.tournament_info(tournament=tournament),
            "entrants": selectors.entrants(tournament=tournament),
            "prizes": selectors.prize_distribution(tournament=tournament, simulated=simulated),
            "structure": selectors.structure(tournament=tournament),
            "satellites": selectors.satellites(tournament=tournament),
            "mine": mine,
            "sphere": selectors.sphere(mine.state if mine else None, to_confirm),
            "to_confirm": to_confirm,
            "can_confirm": to_confirm and tournament.confirmation_open(timezone.now()),
            "missed_confirmation": mine is None
            and request.user.is_authenticated
            and tournament.registrations.filter(
                user_id=request.user.pk, state=Registration.State.UNCONFIRMED
            ).exists(),
            "can_register": can_register,
            "refusal": refusal,
            "fixed_pairs": tournament.lines == Tournament.Lines.FIXED_PAIRS,
            "invited_by": selectors.pair_invitation(tournament=tournament, user_id=request.user.pk),
            "can_cancel": tournament.state in Tournament.OPEN_STATES
            and tournament.cancellation_allowed
            and mine is not None
            and mine.state == Registration.State.AUTHORISED,
            "idempotency_key": uuid.uuid4().hex,
            "standings": selectors.standings_by_turn(tournament=tournament),
            "results": selectors.final_results(tournament=tournament),
            "my_result": levelinfo.my_result(tournament, request.user.pk),
            "stamp": selectors.lobby_stamp(tournament=tournament)
            if tournament.state in selectors.LIVE_STATES
            else "",
            **_play(tournament, request.user.pk),
        },
    )


def _play(tournament: Tournament, user_id: int | None) -> dict[str, Any]:
    """What the lobby shows of the play (``tournaments/_level_live.html``): the tables, the chip
    counts, the eliminations, a slot tournament's standings, and the stamp of these (``live``)."""
    return {
        "matches": selectors.current_matches(tournament=tournament, user_id=user_id),
        "slot_standings": selectors.slot_standings(tournament=tournament, user_id=user_id),
        "chip_counts": levelinfo.chip_counts(tournament, user_id),
        "eliminations": levelinfo.eliminations(tournament)
        if tournament.is_levels and tournament.state == Tournament.State.RUNNING
        else [],  # at the end the final placings say it all
        "live": selectors.lobby_live_stamp(tournament=tournament),
    }


def level_live(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The tournament lobby's play drawn again (``_level_live.html``), and the info panel's facts
    that change with it (``_level_facts.html``): what its page puts in place of its own while the
    hands go, without reloading. Public, as the lobby."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    context = {
        "t": tournament,
        "info": selectors.tournament_info(tournament=tournament),
        **_play(tournament, request.user.pk),
    }
    response = render(request, "tournaments/_level_live_refresh.html", context)
    response["X-Live"] = context["live"]
    return response


@login_required
@require_POST
def register(request: HttpRequest, tournament_id: int) -> HttpResponse:
    nickname = request.POST.get("partner", "").strip()[:40]
    partner = User.objects.filter(nickname__iexact=nickname).first() if nickname else None
    try:
        if nickname and partner is None:
            raise errors.InvalidPartner()
        reg = actions.registration_create(
            tournament_id=tournament_id,
            user=request.user,  # type: ignore[arg-type]  # behind login_required
            idempotency_key=request.POST.get("idempotency_key") or uuid.uuid4().hex,
            partner=partner,
            password=request.POST.get("password", "")[:128],
        )
    except CodedError as exc:
        messages.error(request, exc.message)
    else:
        if reg.state == Registration.State.PENDING:
            messages.info(request, _("Iscrizione registrata: attendi l'autorizzazione AAMS."))
        else:
            messages.success(request, _("Sei iscritto al torneo."))
    return redirect("tournaments:lobby", tournament_id=tournament_id)


@login_required
@require_POST
def confirm(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """ "Conferma iscrizione" (training tournaments that require it)."""
    try:
        actions.registration_confirm(tournament_id=tournament_id, user=request.user)  # type: ignore[arg-type]  # behind login_required
    except CodedError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Iscrizione confermata."))
    return redirect("tournaments:lobby", tournament_id=tournament_id)


@login_required
@require_POST
def cancel(request: HttpRequest, tournament_id: int) -> HttpResponse:
    try:
        reg = actions.registration_cancel(tournament_id=tournament_id, user=request.user)  # type: ignore[arg-type]  # behind login_required
    except CodedError as exc:
        messages.error(request, exc.message)
    else:
        if reg.state == Registration.State.CANCEL_PENDING:
            messages.info(
                request, _("Cancellazione richiesta: attendi l'autorizzazione AAMS per il rimborso.")
            )
        else:
            messages.success(request, _("Iscrizione cancellata."))
    return redirect("tournaments:lobby", tournament_id=tournament_id)


def my_state(request: HttpRequest, tournament_id: int) -> JsonResponse:
    """What the lobby polls: the player's registration state (while the regulator has not answered),
    the lobby's stamp (while the tournament fills, waits or runs: a change reloads the page) and
    the stamp of the play (``live``: a level tournament's page draws its play again in place)."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    mine = selectors.my_registration(tournament=tournament, user_id=request.user.pk)
    stamp = selectors.lobby_stamp(tournament=tournament)
    live = selectors.lobby_live_stamp(tournament=tournament)
    if mine is None:
        return JsonResponse({"state": None, "stamp": stamp, "live": live})
    return JsonResponse({"state": mine.state, "ticket": mine.ticket, "stamp": stamp, "live": live})


def level_info(request: HttpRequest, tournament_id: int) -> JsonResponse:
    """What a level tournament's table shows beside the felt (the level, the next invito and the
    seconds to it, players left, average stack; the reader's chips and position), asked by the table
    page when a hand is dealt or ends. Public chip counts only: the lobby shows them to anyone."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    user_id = request.user.pk if request.user.is_authenticated else None
    return JsonResponse(levelinfo.table_info(tournament, user_id))


@login_required
def slot_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """An entrant's own machine in a slot tournament: the reels, the features, the standings and
    the clock (its play goes over ``/ws/torneo/<id>/slot/``). Anyone else goes to the lobby."""
    tournament = get_object_or_404(Tournament, pk=tournament_id, format=Tournament.Format.SLOT)
    if not SlotSession.objects.filter(tournament=tournament, user_id=request.user.pk).exists():
        messages.info(request, _("La slot di un torneo è dei suoi giocatori, dall'inizio del torneo."))
        return redirect("tournaments:lobby", tournament_id=tournament_id)
    return render(
        request,
        "tournaments/slot.html",
        {
            "t": tournament,
            "machine": slotpage.machine(),
            "client_text": slotpage.catalog(),
        },
    )
