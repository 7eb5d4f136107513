"""Lobby and table pages (thin: parse the form, call one action, show the result in Italian)."""

from __future__ import annotations

import uuid
from datetime import date, datetime, time, timedelta
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import options as game_options
from games.engine import CodedError, IllegalAction
from lobby import client_text, door, handtext, layouts, selectors
from lobby.errors import NoHandInProgress, NotSeated, TableError
from lobby.models import Hand, Seat, Table, WaitingEntry
from piattaforma import hooks, jsoninput
from piattaforma.actions import preferences_get
from piattaforma.converters import small_int
from piattaforma.models import User
from wallet import actions as wallet_actions
from wallet import selectors as wallet_selectors
from wallet.errors import WalletError
from wallet.money import AmountError, format_money, parse_eur


def _with_refusals(request: HttpRequest, tables: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The lobby's rows, each reserved table saying beforehand why it would refuse this player."""
    if isinstance(request.user, User):
        reserved = [t for t in tables if t["reserved_for"]]
        by_id = Table.objects.in_bulk([t["id"] for t in reserved])
        for t in reserved:
            refusal = selectors.table_entry_refusal(by_id[t["id"]], request.user, password=None)
            t["refusal"] = refusal[1] if refusal else ""
    return tables


def lobby(request: HttpRequest) -> HttpResponse:
    """The money lobby: the real-money cash tables (the training ones have their own lobby)."""
    tables = _with_refusals(request, selectors.lobby_tables("real"))
    variants = sorted({t["variant"] for t in tables if t["variant"]})
    return render(request, "lobby/lobby.html", {"tables": tables, "variants": variants, "realm": "real"})


def training(request: HttpRequest) -> HttpResponse:
    """The training section ("Tavoli e tornei di allenamento"): its tables, its tournaments, and
    the player's gettoni with their daily refill."""
    tables = _with_refusals(request, selectors.lobby_tables("play"))
    variants = sorted({t["variant"] for t in tables if t["variant"]})
    context: dict[str, Any] = {
        "tables": tables,
        "variants": variants,
        "realm": "play",
        "tournaments": hooks.training_tournaments(),
        "grant": wallet_actions.PLAY_GRANT,
    }
    user = request.user
    if isinstance(user, User):  # signed in: his gettoni and whether he may refill them
        context["gettoni"] = wallet_actions.play_gettoni(user=user)
        context["refill_refusal"] = wallet_actions.play_money_refill_state(user=user)
    return render(request, "lobby/lobby.html", context)


@login_required
@require_POST
def training_refill(request: HttpRequest) -> HttpResponse:
    """ "Ricarica i gettoni": back up to the grant, below it and once a day."""
    try:
        result = wallet_actions.play_money_refill(user=request.user)  # type: ignore[arg-type]  # login_required: request.user is a User
    except WalletError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request,
            _("Gettoni ricaricati: ora ne hai %(n)s.") % {"n": format_money(result["balance"], "play")},
        )
    return redirect("lobby:training")


def lobby_tables_json(request: HttpRequest) -> JsonResponse:
    """The lobby's live counts, polled by the page (``?sezione=allenamento``: the training lobby)."""
    realm = "play" if request.GET.get("sezione") == "allenamento" else "real"
    return JsonResponse({"tables": selectors.lobby_tables(realm)})


@login_required
def table_page(request: HttpRequest, table_id: int) -> HttpResponse:
    table = get_object_or_404(Table, pk=table_id)
    if not table.is_open:  # a finished match's table, reloaded: say so and where to go next
        return table_closed_page(request, table)
    seated = Seat.objects.filter(table=table, user=request.user).first()
    taken = set(Seat.objects.filter(table=table).values_list("number", flat=True))
    waiting = WaitingEntry.objects.filter(table=table, user=request.user).first()
    # a reserved table says why it refuses him instead of offering «Siediti»
    refusal = (
        None
        if seated or table.tournament_id
        else selectors.table_entry_refusal(table, request.user, password=None)
    )
    return render(
        request,
        "lobby/table.html",
        {
            "table": table,
            "money_realm": table.realm,  # the header shows the money this table plays with
            "nav_section": selectors.table_nav_section(table),
            "seated": seated,
            "free_seats": [n for n in range(1, table.seats + 1) if n not in taken],
            "waiting": waiting,
            "info": selectors.table_info(table),
            "entry_refusal": refusal[1] if refusal else "",  # a reserved table: why he may not sit
            "default_buy_in": selectors.default_buy_in(table),
            "deck_style": preferences_get(user=request.user, game=table.game).get("stile_mazzo", "francesi"),  # type: ignore[arg-type]  # login_required: request.user is a User
            "italian_deck": "stile_mazzo" in game_options.defaults(table.game),
            "heartbeat_ms": int(settings.LOBBY_HEARTBEAT_SECONDS * 1000),  # lobby.presence
            "client_text": client_text.catalog(),  # the table client's words in this language
            # the tournament's word to its player (rules 004: a pair's free leave), through the hook
            "tournament_note": hooks.tournament_table_note(
                tournament_id=table.tournament_id, user_id=request.user.pk
            )
            if table.tournament_id and seated
            else None,
        },
    )


def table_closed_page(request: HttpRequest, table: Table) -> HttpResponse:
    """A closed table's page: the table is closed; a tournament's links to the tournament (its
    results), a cash table's to its lobby."""
    section = selectors.table_nav_section(table)
    if table.tournament_id is not None:
        back = reverse("tournaments:lobby", args=[table.tournament_id])
    else:
        back = reverse("lobby:training" if section == "training" else "lobby:lobby")
    context = {"table": table, "nav_section": section, "back": back, "tournament": table.tournament_id}
    return render(request, "lobby/table_closed.html", context)


class BadRequestKey(TableError):
    code = "bad_idempotency_key"
    default_message = "Richiesta non valida: ricarica la pagina."


def _idempotency_key(request: HttpRequest) -> str:
    """The form's idempotency key (a fresh one if none came); refuse one the ledger cannot store."""
    key = request.POST.get("idempotency_key") or uuid.uuid4().hex
    if len(key) > 64 or not key.isprintable():  # "\x00": PostgreSQL text cannot hold it (a 500)
        raise BadRequestKey()
    return key


@login_required
@require_POST
def table_sit(request: HttpRequest, table_id: int) -> HttpResponse:
    seat_no = small_int(request.POST.get("seat"), digits=2)
    if seat_no is None:
        messages.error(request, "Indica il posto e l'importo da portare al tavolo.")
        return redirect("lobby:table", table_id=table_id)
    try:
        buy_in = parse_eur(request.POST.get("buy_in", ""))
    except AmountError as exc:
        messages.error(request, exc.message)
        return redirect("lobby:table", table_id=table_id)
    try:
        _seat, ticket = door.table_sit_paid(
            table_id=table_id,
            user=request.user,  # type: ignore[arg-type]  # login_required: request.user is a User
            seat_no=seat_no,
            buy_in=buy_in,
            idempotency_key=_idempotency_key(request),
            password=request.POST.get("password", "")[:128],
        )
    except CodedError as exc:
        messages.error(request, exc.message)
    else:
        if ticket:  # rules 004 "Rebuy": the regulator's ticket of the payment, shown to the player
            messages.success(request, _ticket_text(_("Versamento al tavolo effettuato."), ticket))
    return redirect("lobby:table", table_id=table_id)


def _ticket_text(text: str, ticket: str) -> str:
    """A payment's confirmation with the regulator's ticket, when it has one."""
    if not ticket:
        return text
    return _("%(text)s Biglietto AAMS n. %(ticket)s.") % {"text": text, "ticket": ticket}


def _wants_json(request: HttpRequest) -> bool:
    """The table page's own calls (a top-up from the felt) ask for JSON instead of a redirect."""
    return "application/json" in request.headers.get("Accept", "")


@login_required
@require_POST
def table_rebuy(request: HttpRequest, table_id: int) -> HttpResponse:
    try:
        amount = parse_eur(request.POST.get("amount", ""))
        result = door.table_rebuy_paid(
            table_id=table_id,
            user=request.user,  # type: ignore[arg-type]  # login_required: request.user is a User
            amount=amount,
            idempotency_key=_idempotency_key(request),
        )
    except CodedError as exc:  # AmountError included: the parser's message says what is wrong
        if _wants_json(request):
            return JsonResponse({"code": exc.code, "message": exc.message}, status=400)
        messages.error(request, exc.message)
    else:
        if result.get("status") == "pending":
            text = _("Ricarica registrata: il credito sarà disponibile alla fine della mano.")
        else:
            text = _("Credito al tavolo aggiornato.")
        text = _ticket_text(text, result.get("ticket", ""))
        if _wants_json(request):
            return JsonResponse({"status": result.get("status", "done"), "message": text})
        (messages.info if result.get("status") == "pending" else messages.success)(request, text)
    return redirect("lobby:table", table_id=table_id)


@login_required
@require_POST
def table_leave(request: HttpRequest, table_id: int) -> HttpResponse:
    try:
        result = door.table_leave(table_id=table_id, user=request.user)  # type: ignore[arg-type]  # login_required: request.user is a User
    except TableError as exc:
        messages.error(request, exc.message)
        return redirect("lobby:table", table_id=table_id)
    if result["left"]:
        messages.success(request, "Hai lasciato il tavolo: il credito è tornato sul conto di gioco.")
        return redirect("lobby:lobby")
    messages.info(request, "Lascerai il tavolo alla fine della mano in corso.")
    return redirect("lobby:table", table_id=table_id)


@login_required
@require_POST
def table_leave_next(request: HttpRequest, table_id: int) -> JsonResponse:
    """ "Esci alla prossima mano" from the table page (JSON): ``leave=1`` asks it, ``leave=0`` undoes it."""
    try:
        result = door.table_leave_next(
            table_id=table_id,
            user=request.user,  # type: ignore[arg-type]  # login_required: request.user is a User
            leave=request.POST.get("leave") == "1",
        )
    except TableError as exc:
        return JsonResponse({"code": exc.code, "message": exc.message}, status=400)
    return JsonResponse(result)


@login_required
@require_POST
def table_waiting(request: HttpRequest, table_id: int) -> HttpResponse:
    try:
        if request.POST.get("leave"):
            door.waiting_leave(table_id=table_id, user=request.user)  # type: ignore[arg-type]  # login_required: request.user is a User
        else:
            door.waiting_join(table_id=table_id, user=request.user)  # type: ignore[arg-type]  # login_required: request.user is a User
    except CodedError as exc:  # the wallet's refusals too (a blocked player, staff at a money table)
        messages.error(request, exc.message)
    return redirect("lobby:table", table_id=table_id)


@login_required
def my_hands(request: HttpRequest) -> HttpResponse:
    """The player's own last hands."""
    from games import registry

    hands = selectors.player_hands(user_id=request.user.pk)
    titles = {name: registry.get(name).title for name in {h.game for h in hands}}
    results = _money_results(hands, request.user)
    rows = [(h, titles[h.game], results.get(h.pk)) for h in hands]
    return render(request, "lobby/my_hands.html", {"hands": rows})


def _money_results(hands: list[Hand], user: Any) -> dict[int, int]:
    """The player's net money of each hand at a cash table (cents, from the ledger); a hand whose
    ledger transaction moved none of his money is absent (its line says what the engine counted);
    tournament tables and cancelled hands have none."""
    cash = [h for h in hands if h.table.tournament_id is None and not h.cancelled]
    moved = wallet_selectors.hand_results(user=user, hand_refs=[f"{h.table_id}:{h.number}" for h in cash])
    return {h.pk: moved[ref] for h in cash if (ref := f"{h.table_id}:{h.number}") in moved}


@login_required
def my_hands_json(request: HttpRequest) -> JsonResponse:
    """The player's own last hands, for the history panel of the table page."""
    hands = selectors.player_hands(user_id=request.user.pk, limit=15)
    results = _money_results(hands, request.user)
    return JsonResponse({"hands": [_hand_summary(h, request.user.pk, results.get(h.pk)) for h in hands]})


def _hand_summary(hand: Hand, user_id: int, money: int | None = None) -> dict[str, object]:
    """One line of the history panel: which hand, when, and what it meant for this player (his
    money, from the ledger, where the hand was at a cash table; else the chips the engine counted)."""
    spec = next((s for s in hand.seats if s.get("user_id") == user_id), {})
    outcome = hand.outcome or {}
    key = str(spec.get("seat"))
    chips = outcome.get("chips") if isinstance(outcome.get("chips"), dict) else {}
    delta = chips[key] - spec["chips"] if key in chips and isinstance(spec.get("chips"), int) else None
    per_seat = outcome.get("per_seat") if isinstance(outcome.get("per_seat"), dict) else {}
    won = per_seat.get(key, {}).get("won") if isinstance(per_seat.get(key), dict) else None
    return {
        "id": hand.pk,
        "number": hand.number,
        "table": hand.table.name,
        "game": hand.game,
        "ended_at": hand.ended_at.isoformat() if hand.ended_at else None,
        "url": reverse("lobby:my_hand", args=[hand.pk]),
        "delta": money if money is not None else delta,
        "won": won,
    }


@login_required
def my_hand(request: HttpRequest, hand_id: int) -> HttpResponse:
    """One of the player's hands, replayed on the felt as his seat saw it."""
    hand = get_object_or_404(Hand.objects.select_related("table"), pk=hand_id, ended_at__isnull=False)
    seat = selectors.hand_seat_of(hand=hand, user_id=request.user.pk)
    if seat is None:
        raise Http404
    return render(request, "lobby/my_hand.html", replay_page_context(request, hand, seat=seat))


def replay_page_context(request: HttpRequest, hand: Hand, *, seat: int | None) -> dict[str, object]:
    """What the replay page's shell carries: where its frames come from and how to draw them."""
    from games import registry

    step = small_int(request.GET.get("step")) or 0  # a junk ?step= starts from the deal
    style = "francesi"
    if request.user.is_authenticated:
        style = preferences_get(user=request.user, game=hand.game).get("stile_mazzo", "francesi")  # type: ignore[arg-type]  # authenticated: a User
    url = (
        reverse("lobby:my_hand_replay", args=[hand.pk])
        if seat is not None
        else reverse("backoffice:lobby_hand_replay_json", args=[hand.pk])
    )
    return {
        "hand": hand,
        "seat": seat,
        "replay_url": url,
        "initial_step": step,
        "deck_style": style,
        "italian_deck": "stile_mazzo" in game_options.defaults(hand.game),
        "family": registry.get(hand.game).family,
    }


DAY_TEXT_LIMIT = 500  # hands in one day's download: a day of many more is cut, and says so


def _text_download(text: str, filename: str) -> HttpResponse:
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
def my_hand_text(request: HttpRequest, hand_id: int) -> HttpResponse:
    """One of the player's hands as text to download (``lobby.handtext``); another's is a 404."""
    hand = get_object_or_404(Hand.objects.select_related("table"), pk=hand_id, ended_at__isnull=False)
    money = _money_results([hand], request.user).get(hand.pk)
    text = handtext.hand_text(hand, user_id=request.user.pk, money=money)
    if text is None:
        raise Http404
    title = _("Storico della mano di %(nickname)s") % {"nickname": request.user}
    return _text_download(f"{title}\n{handtext.RULE}\n{text}", f"mano-{hand.table_id}-{hand.number}.txt")


@login_required
def my_day_text(request: HttpRequest) -> HttpResponse:
    """The player's hands ended on one day (``?giorno=AAAA-MM-GG``, today if absent) as text."""
    raw = request.GET.get("giorno") or timezone.localdate().isoformat()
    try:
        day = date.fromisoformat(raw) if len(raw) == 10 else None
    except ValueError:
        day = None
    if day is None:
        message = _("Data non valida: scrivila come AAAA-MM-GG, per esempio 2026-12-06.")
        return HttpResponse(message, status=400, content_type="text/plain; charset=utf-8")
    start = timezone.make_aware(datetime.combine(day, time.min))
    hands = selectors.player_hands_between(
        user_id=request.user.pk, start=start, end=start + timedelta(days=1), limit=DAY_TEXT_LIMIT + 1
    )
    cut = len(hands) > DAY_TEXT_LIMIT
    hands = hands[:DAY_TEXT_LIMIT]
    results = _money_results(hands, request.user)
    title = _("Storico delle mani di %(nickname)s del %(day)s: %(n)s mani") % {
        "nickname": request.user,
        "day": day.strftime("%d/%m/%Y"),
        "n": len(hands),
    }
    if cut:
        title += "\n" + _("Solo le prime %(n)s mani del giorno.") % {"n": DAY_TEXT_LIMIT}
    text = handtext.hands_text(((h, results.get(h.pk)) for h in hands), user_id=request.user.pk, title=title)
    return _text_download(text, f"mani-{day.isoformat()}.txt")


@login_required
def my_hand_replay(request: HttpRequest, hand_id: int) -> JsonResponse:
    """The frames of one of the player's hands (``?start=&count=``: a window of them)."""
    hand = get_object_or_404(Hand.objects.select_related("table"), pk=hand_id, ended_at__isnull=False)
    try:
        payload = selectors.hand_replay_frames(
            hand=hand,
            viewer_id=request.user.pk,
            start=request.GET.get("start"),
            count=request.GET.get("count"),
        )
    except CodedError as exc:
        return JsonResponse(exc.as_dict(), status=400)
    if payload is None:
        raise Http404
    return JsonResponse(payload)


LAYOUT_STATUS: list[tuple[type[CodedError], int]] = [
    (NotSeated, 403),
    (layouts.TableNotFound, 404),
    (NoHandInProgress, 409),
    (IllegalAction, 422),
]


@require_POST
def table_layouts(request: HttpRequest, table_id: int) -> JsonResponse:
    """The layouts a meld request of the player's seat may take (JSON ``{"action": {...}}``)."""
    if not request.user.is_authenticated:
        return JsonResponse({"code": "login_required", "message": _("Accedi per giocare")}, status=403)
    try:
        body = jsoninput.loads_request(request)  # too deep, NaN, huge numbers, surrogates, a form: refused
    except jsoninput.BadJson:
        body = None
    action = body.get("action") if isinstance(body, dict) else None
    if not isinstance(action, dict):
        return JsonResponse({"code": "bad_request", "message": _("Richiesta non valida")}, status=400)
    try:
        answer = layouts.seat_layouts(table_id=table_id, user=request.user, request=action)  # type: ignore[arg-type]  # login_required: request.user is a User
    except CodedError as exc:
        status = next((s for kind, s in LAYOUT_STATUS if isinstance(exc, kind)), 400)
        return JsonResponse(exc.as_dict(), status=status)
    return JsonResponse(answer)
