"""Reads of the lobby: what each connection may see of a table (its own projection only)."""

from __future__ import annotations

from typing import Any

from django.db.models import Count
from django.urls import reverse

from games import registry
from games.engine import Engine, private_to
from lobby.errors import HandSecretsClosed
from lobby.models import ConnectionRecord, Hand, HandStep, Seat, Table, TableRuntime
from lobby.replay import recover
from piattaforma.compiledquery import CompiledQuery
from piattaforma.entry import entry_refusal, entry_summary

_SEAT_ROWS = CompiledQuery(
    lambda table_id: Seat.objects.filter(table_id=table_id).select_related("user").order_by("number"),
    lambda table_id: (int(table_id),),
)


def seat_rows(table_id: int) -> list[Seat]:
    """Return the seated players of a table, by seat number (the query compiled once)."""
    return _SEAT_ROWS(table_id)


def table_payload(
    rt: TableRuntime,
    seats: list[Seat],
    seat_no: int | None,
    events: list[dict[str, Any]] | None = None,
    waiting: dict[str, Any] | None = None,
    shared: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Build the message one connection receives: the engine's view for that seat (None: public).

    Everything game-related comes from ``engine.view``, the only door to a client; events are
    filtered with ``private_to`` so a private event reaches only the seats it names. ``waiting``:
    the between-hands block already read (``table_waiting``; an owner reads it off its event loop).
    ``shared``: what every seat's message of this version has in common (``table_shared``), built
    once for all of them (the fan-out); its values are shared by the messages, which are encoded
    and never changed.
    """
    payload = dict(shared if shared is not None else table_shared(rt, seats, waiting))
    state = rt.state
    payload["seat"] = seat_no
    if state is not None:
        engine = registry.get(payload["game"])
        view = payload["view"] = engine.view(state, seat_no)
        if seat_no is not None:  # the engines whose view lists the seat's legal actions (their own
            # ``legal_actions``) have them computed once
            legal = view.get("legal") if isinstance(view, dict) else None
            payload["legal"] = legal if legal is not None else engine.legal_actions(state, seat_no)
        payload["events"] = [e for e in (events or []) if private_to(e, seat_no)]
    return payload


def table_shared(
    rt: TableRuntime, seats: list[Seat], waiting: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The part of ``table_payload`` that is the same for every seat (its keys in the message's order)."""
    table = rt.table
    game = rt.game or table.game
    engine = registry.get(game)
    state = rt.state
    payload: dict[str, Any] = {
        "type": "table.state",
        "table": table.pk,
        "version": rt.version,
        "game": game,
        "hand": rt.hand_no,
        "seat": None,
        "seats": [
            {
                "number": s.number,
                "nickname": s.user.nickname,
                "bot": s.user.is_bot,
                "status": s.status,
                "leaving": s.leave_after_hand,
                "ready": s.ready,
                "time_bank": s.time_bank,
            }
            for s in seats
        ],
        "deadline": rt.deadline.isoformat() if rt.deadline else None,
        "ready_deadline": rt.ready_deadline.isoformat() if rt.ready_deadline else None,
        # the next deal, held by the server after a hand (giochi a puntate; a showdown holds longer)
        "next_hand_at": rt.start_at.isoformat() if rt.start_at and not rt.ready_deadline else None,
        "clocks": rt.clocks,
        "bank_seat": rt.bank_seat,  # what is left of each line's tempo partita, in ms (giochi a partite)
        "view": None,
        "legal": [],
        "to_act": [],
        "events": [],
    }
    if table.tournament_id is not None and not table.is_open:
        # a tournament's match over and its table closed (seats freed): the result keeps the names
        payload["closed"] = True
        if not seats and state is not None:
            payload["seats"] = match_seats(rt)
    over = state is not None and engine.is_over(state)
    if state is None or over:
        payload["waiting"] = waiting if waiting is not None else table_waiting(rt, seats, engine.family)
    if state is not None:
        payload["to_act"] = engine.to_act(state)
        payload["over"] = over
    return payload


def match_hand_seats(rt: TableRuntime) -> list[dict[str, Any]]:
    """The seats a closed tournament table's last match was dealt, as its hand stored them: read
    with the closing or the owner's load (``rt.match_hand_seats``), else one query."""
    stored = getattr(rt, "match_hand_seats", None)
    if stored is None:
        hand = Hand.objects.filter(table_id=rt.pk, number=rt.hand_no).only("seats").first()
        stored = hand.seats if hand is not None else []
    return list(stored)


def match_seats(rt: TableRuntime) -> list[dict[str, Any]]:
    """The players of a closed tournament table's last match (``match_hand_seats``), as views show them."""
    stored = match_hand_seats(rt)
    return [
        {
            "number": int(s["seat"]),
            "nickname": str(s.get("nickname", "")),
            "bot": False,
            "status": Seat.Status.PLAYING,
            "leaving": False,
            "ready": False,
            "time_bank": 0,
        }
        for s in sorted(stored, key=lambda s: int(s["seat"]))
    ]


def min_credit(table: Table, family: str) -> int:
    """The table credit a seat needs to be dealt in (cents).

    Giochi a partite: the perdita massima (a match starts only for players who can pay it, C1).
    Giochi a puntate: the invito where the game has one (P15's "credito residuo minimo", default
    the invito), else one cent.
    """
    if family == "partite":
        return max(1, table.perdita_massima)
    invito = table.config.get("invito") if isinstance(table.config, dict) else None
    return max(1, int(invito)) if isinstance(invito, int) else 1


def table_waiting(rt: TableRuntime, seats: list[Seat], family: str) -> dict[str, Any] | None:
    """Why a table between hands (or at the end of a match) is not dealing, as data the page words.

    Every seat's table credit and whether it is short of the minimum to be dealt in (``short``:
    the cents missing) or sitting out; how many players can play and how many the table needs.
    Read only between hands: one credit query for all the seats, never on the action path of a hand
    (and, as a partita ends, one query of what it moved on each seat: ``result``, cents).
    None for a tournament table: it has no buy-in, so no credit to top up, and the tournament,
    not the table, decides what follows its match (ARCHITECTURE.md, "Tournaments").
    """
    from wallet import selectors as wallet_selectors

    table = rt.table
    if table.tournament_id is not None:
        return None
    engine = registry.get(rt.game or table.game)
    need = min_credit(table, family)
    rows = []
    playing = 0
    refs = [s.session_ref for s in seats]
    credits = wallet_selectors.table_credits_get(table_session_refs=refs, realm=table.realm)
    # a match just ended: what it moved on each seat's credit (the ledger's, once settled)
    ended = family == "partite" and rt.state is not None and rt.hand_no > 0
    results = (
        wallet_selectors.hand_deltas(hand_ref=f"{table.pk}:{rt.hand_no}", realm=table.realm) if ended else {}
    )
    for s in seats:
        credit = credits[s.session_ref]
        short = max(0, need - credit)
        sitout = s.status == Seat.Status.SITOUT
        if not short and not sitout and not s.leave_after_hand:
            playing += 1
        row = {"number": s.number, "credit": credit, "short": short, "sitout": sitout, "away": s.away}
        if ended:
            row["result"] = results.get(s.session_ref, 0)
        rows.append(row)
    return {
        "family": family,
        "min_credit": need,
        # a match of a gioco a partite starts when the table is complete
        "players_needed": table.seats if family == "partite" else max(table.min_players, engine.min_seats),
        "seats_total": table.seats,
        "playing": playing,
        "seats": rows,
    }


def runtime_now(table_id: int) -> TableRuntime | None:
    """A table's runtime as it is now: the row, plus the journal's steps it lags behind.

    An owner writes its decisions to the row only with a snapshot; a reader elsewhere (a page, the
    layouts endpoint) applies the later steps in memory, writing nothing.
    """
    rt = TableRuntime.objects.select_related("table").filter(pk=table_id).first()
    if rt is not None:
        recover(rt)
    return rt


def table_snapshot(*, table_id: int, user_id: int | None) -> dict[str, Any]:
    """Return the current payload for a user: his seat's projection if seated, else the public one."""
    rt = runtime_now(table_id)
    if rt is None:
        raise TableRuntime.DoesNotExist()
    seats = seat_rows(table_id)
    seat_no = next((s.number for s in seats if s.user_id == user_id), None)
    return table_payload(rt, seats, _dealt(rt, seat_no))


def table_versions(table_ids: list[int]) -> dict[int, int]:
    """The current version of each of these tables (one query: a server process's heartbeat)."""
    return dict(TableRuntime.objects.filter(pk__in=table_ids).values_list("pk", "version"))


def dealt_seats(rt: TableRuntime) -> set[int] | None:
    """The seats dealt into the running hand, or None when no hand is running.

    From the runtime row (``TableRuntime.dealt``); a hand dealt before that field existed asks
    its Hand row (one query).
    """
    if rt.state is None:
        return None
    if rt.dealt is not None:
        return {int(n) for n in rt.dealt}
    hand = Hand.objects.filter(table_id=rt.pk, number=rt.hand_no).only("seats").first()
    return {s["seat"] for s in hand.seats} if hand is not None else set()


def projection_seat(seat_no: int | None, dealt: set[int] | None) -> int | None:
    """A seated player who was not dealt into the running hand sees it as a spectator does."""
    if seat_no is None or dealt is None or seat_no in dealt:
        return seat_no
    return None


def _dealt(rt: TableRuntime, seat_no: int | None) -> int | None:
    """The projection one seat gets (see ``projection_seat``)."""
    if seat_no is None:
        return None
    return projection_seat(seat_no, dealt_seats(rt))


def open_tables_per_game() -> dict[str, tuple[int, int]]:
    """Per game: open tables and the players seated at them (the home page, through piattaforma.hooks)."""
    tables = dict(Table.objects.filter(is_open=True).values_list("game").annotate(n=Count("id")).order_by())
    seated = dict(
        Seat.objects.filter(table__is_open=True).values_list("table__game").annotate(n=Count("id")).order_by()
    )
    return {game: (n, seated.get(game, 0)) for game, n in tables.items()}


def lobby_tables(realm: str | None = None) -> list[dict[str, Any]]:
    """Return the open tables (of one realm: "real" the money lobby, "play" the training one) with
    their live seat counts, for the lobby."""
    out = []
    rows = Table.objects.filter(is_open=True, tournament_id__isnull=True).annotate(n_invited=Count("invited"))
    if realm is not None:
        rows = rows.filter(realm=realm)
    for table in rows.order_by("game", "name"):
        engine = registry.get(table.game)
        out.append(
            {
                "id": table.pk,
                "name": table.name,
                "game": table.game,
                "title": engine.title,
                "seats": table.seats,
                "seated": (seated := table.seat_rows.count()),
                "free": max(0, table.seats - seated),
                "waiting": table.waiting.count(),
                "min_buy_in": table.min_buy_in,
                "max_buy_in": table.max_buy_in,
                "realm": table.realm,
                "stakes": stakes_label(table, engine.family),
                "variant": variant_label(table),
                "password": table.has_password,
                "reserved_for": entry_summary(
                    table,
                    invited=table.n_invited > 0,  # type: ignore[attr-defined]  # annotated above
                    game_title=engine.title,
                ),
            }
        )
    return out


# The table options that tell one table of a game from another, as the lobby's variant filter shows them.
VARIANT_KEYS = {
    "limit": {"PL": "Pot limit", "FL": "Limite fisso", "NL": "No limit"},
    "mode": {"punti": "A punti", "smazzate": "A smazzate"},
    "format": {"testa_a_testa": "Testa a testa", "coppie": "A coppie"},
    "variant": {},
    "vele": {},
}


def variant_label(table: Table) -> str:
    """The variant of a table in a few words (limit, a punti/a smazzate, pairs, vele...): the lobby filter."""
    config = table.config if isinstance(table.config, dict) else {}
    parts = []
    for key, names in VARIANT_KEYS.items():
        value = config.get(key)
        if not isinstance(value, str) or not value or (names and value not in names):
            continue  # (a value the filter does not name: the engines' tournament switch, "cash")
        parts.append(names.get(value, value.replace("_", " ").capitalize()))
    return " · ".join(parts)


def stakes_label(table: Table, family: str) -> str:
    """The stakes as the lobby shows them: posta and punto (partite), invito and limit (puntate)."""
    from wallet.money import format_money

    realm = table.realm
    if family == "partite":
        posta, punto = format_money(table.posta_partita, realm), format_money(table.posta_unitaria, realm)
        return f"Posta {posta} · Punto {punto}"
    parts = []
    if "invito" in table.config:
        parts.append(f"Invito {format_money(int(table.config['invito']), realm)}")
    if "limit" in table.config:
        parts.append(str(table.config["limit"]))
    return " · ".join(parts)


def default_buy_in(table: Table) -> int:
    """The buy-in the sit form proposes (cents).

    A gioco a partite deals a match only to a credit that covers the perdita massima (C1): with a
    buy-in equal to it, any lost match leaves the player unable to play the next. The
    form proposes two perdite massime (within the table's limits); other games their minimum.
    """
    if registry.get(table.game).family == "partite" and table.perdita_massima:
        return max(table.min_buy_in, min(table.max_buy_in, 2 * table.perdita_massima))
    return table.min_buy_in


def table_nav_section(table: Table) -> str:
    """The site menu's section a table belongs to: "tournaments" for a tournament's table,
    "training" for a gettoni table, "lobby" for a money table."""
    if table.tournament_id is not None:
        return "tournaments"
    return "training" if table.realm == "play" else "lobby"


def table_info(table: Table) -> dict[str, Any]:
    """The table info panel: game, stakes, limits and times, in the lobby's words."""
    engine = registry.get(table.game)
    return {
        "title": engine.title,
        "family": engine.family,
        "config": table.config,
        "seats": table.seats,
        "seated": table.seat_rows.count(),
        "waiting": table.waiting.count(),
        "min_buy_in": table.min_buy_in,
        "max_buy_in": table.max_buy_in,
        "rake_bp": table.rake_bp,
        # the cap only where the engine applies one (poker, telesina, bestia): elsewhere it would promise
        # a limit nobody enforces
        "rake_cap": table.rake_cap if "rake_cap" in engine.table_settings else 0,
        "posta_partita": table.posta_partita,
        "posta_unitaria": table.posta_unitaria,
        "perdita_massima": table.perdita_massima,
        "tempo_giocata": table.tempo_giocata,
        "tempo_partita": table.tempo_partita,
        "time_bank": table.time_bank,
        "realm": table.realm,
        "password": table.has_password,
        "reserved_for": entry_summary(table, invited=table.invited.exists(), game_title=engine.title),
    }


def table_entry_refusal(table: Table, user: Any, *, password: str | None) -> tuple[str, str] | None:
    """Why a reserved table (rules 004, "Tornei riservati": "tornei e tavoli") refuses this player,
    as (code, Italian message), or None; ``password`` None leaves the password out (the pages)."""
    invited = table.invited.filter(pk=user.pk).exists() if table.invited.exists() else None
    return entry_refusal(
        table,
        user=user,
        game=table.game,
        game_title=registry.get(table.game).title,
        invited=invited,
        password=password,
    )


def player_hands(*, user_id: int, limit: int = 30) -> list[Hand]:
    """The last ended hands a player was dealt into, newest first (his own hand history)."""
    return list(
        Hand.objects.filter(players__user_id=user_id, ended_at__isnull=False)
        .select_related("table")
        .order_by("-ended_at", "-id")[:limit]
    )


def player_hands_between(*, user_id: int, start: Any, end: Any, limit: int) -> list[Hand]:
    """The ended hands a player was dealt into that ended in [start, end), oldest first, at most
    ``limit`` of them (a day's hand history)."""
    hands = Hand.objects.filter(
        players__user_id=user_id, ended_at__gte=start, ended_at__lt=end
    ).select_related("table")
    return list(hands.order_by("ended_at", "id")[:limit])


def _dealt_user(hand: Hand, user_id: int) -> int | None:
    return next((s["seat"] for s in hand.seats if s.get("user_id") == user_id), None)


def hand_seat_of(*, hand: Hand, user_id: int) -> int | None:
    """The seat a user was dealt into in this hand; None if he was not."""
    return _dealt_user(hand, user_id)


def hand_secrets_open(hand: Hand) -> bool:
    """Tell whether a hand's hidden parts (every seat's cards, the deck orders, the RNG draws, the
    carry it started from) may be shown to staff: the hand ended, and no card of its decks is still
    to be dealt. Only a game whose deck goes on from hand to hand (``Engine.deck_continues``:
    chemin de fer's sabot) keeps an ended hand's decks secret, until a later hand of its table
    deals from a new deck (or none follows and the table's carry holds no deck going on)."""
    if hand.ended_at is None:
        return False
    engine = registry.get(hand.game)
    if type(engine).deck_continues is Engine.deck_continues:
        return True
    later = Hand.objects.filter(table_id=hand.table_id, number__gt=hand.number).order_by("number")
    followed = False
    for carry in later.values_list("carry_in", flat=True).iterator():
        if not engine.deck_continues(carry):
            return True
        followed = True
    if followed:
        return False
    carry = TableRuntime.objects.filter(table_id=hand.table_id).values_list("carry", flat=True).first()
    return not engine.deck_continues(carry)


def hand_replay_frames(
    *, hand: Hand, viewer_id: int | None, staff: bool = False, start: Any = None, count: Any = None
) -> dict[str, Any] | None:
    """A hand's visual replay for one viewer (``lobby.replay.replay_frames``); None if not his.

    The one place the replay reads a hand's steps from: a player gets only his own hands, built
    from his seat's ``view`` at each step; ``staff`` (the caller checked the permission) every
    seat's cards, the deck orders and the RNG draws, and only of a hand whose secrets are over
    (``hand_secrets_open``; else ``HandSecretsClosed``). A bad window raises ``BadReplayWindow``.
    """
    from lobby.replay import replay_frames

    if staff:
        if not hand_secrets_open(hand):
            raise HandSecretsClosed()
        return replay_frames(hand, hand_steps(hand), seat=None, staff=True, start=start, count=count)
    seat = _dealt_user(hand, viewer_id) if viewer_id is not None else None
    if seat is None:
        return None
    return replay_frames(hand, hand_steps(hand), seat=seat, start=start, count=count)


def hand_steps(hand: Hand) -> list[HandStep]:
    """A hand's steps in order (seat, action, automatic, draws, events): where replays read them.

    The one place to change if the steps come from elsewhere (an action journal): a replacement
    returns objects with the same attributes.
    """
    return list(hand.steps.order_by("seq"))


def table_names(ids: set[int]) -> dict[int, str]:
    """Tables' names by id (``hooks.table_names``: moderation says where a line was said)."""
    return dict(Table.objects.filter(pk__in=ids).values_list("pk", "name"))


def ledger_sources(refs: set[str]) -> dict[str, tuple[str, str]]:
    """Name the tables of the wallet's table-credit refs ("table:<table id>-<seat>-<key>")."""
    wanted: dict[str, int] = {}
    for ref in refs:
        head = ref.removeprefix("table:").split("-", 1)[0] if ref.startswith("table:") else ""
        if head.isdigit():
            wanted[ref] = int(head)
    names = dict(Table.objects.filter(pk__in=set(wanted.values())).values_list("pk", "name"))
    return {ref: (names[pk], reverse("lobby:table", args=[pk])) for ref, pk in wanted.items() if pk in names}


# Connections cut within this long of one another on one server process count as cut together.
CUT_TOGETHER = 30


def connection_records(*, user_id: int, table_ids: list[int]) -> list[dict[str, Any]]:
    """A player's connections to some tables, oldest first, each with who ended it and how many
    other connections of the same server process were cut (network or platform) within
    ``CUT_TOGETHER`` seconds of it: the evidence of a fault refund (rules 004, "Rimborsi per
    disconnessioni")."""
    from datetime import timedelta

    rows = list(
        ConnectionRecord.objects.filter(user_id=user_id, table_id__in=table_ids)
        .select_related("table")
        .order_by("opened_at", "pk")
    )
    cut = (ConnectionRecord.EndedBy.NETWORK, ConnectionRecord.EndedBy.PLATFORM)
    window = timedelta(seconds=CUT_TOGETHER)
    out = []
    for r in rows:
        together = 0
        if r.ended_by in cut and r.closed_at is not None:
            together = (
                ConnectionRecord.objects.filter(
                    process=r.process,
                    ended_by__in=cut,
                    closed_at__gte=r.closed_at - window,
                    closed_at__lte=r.closed_at + window,
                )
                .exclude(pk=r.pk)
                .count()
            )
        out.append(
            {
                "id": r.pk,
                "table": r.table.name,
                "table_id": r.table_id,
                "seat": r.seat_number,
                "opened_at": r.opened_at,
                "closed_at": r.closed_at,
                "hands": (r.hand_at_open, r.hand_at_close),
                "ended_by": r.ended_by,
                "ended_by_label": r.get_ended_by_display() if r.ended_by else "",
                "process": r.process,
                "cut_together": together,
                "platform_side": r.ended_by in cut,
            }
        )
    return out
