"""Explicit extension points of the platform core (never Django signals for domain logic).

Apps that hold a player's live sessions register here, so the core can end them without
importing those apps (the lobby depends on the core, not the other way round).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

PlayerHandler = Callable[[Any], None]
_player_blocked: list[PlayerHandler] = []


def on_player_blocked(handler: PlayerHandler) -> PlayerHandler:
    """Register a handler called, inside the status change's transaction, when a player may no longer play."""
    if handler not in _player_blocked:
        _player_blocked.append(handler)
    return handler


def player_blocked(user: Any) -> None:
    """End the player's live sessions (suspension, self-exclusion, a new role of staff or moderator)."""
    for handler in _player_blocked:
        handler(user)


SessionsProvider = Callable[[Any], set[str]]
_sessions_in_use: list[SessionsProvider] = []


def on_sessions_in_use(provider: SessionsProvider) -> SessionsProvider:
    """Register a provider of table sessions a blocked player still has in a running hand."""
    if provider not in _sessions_in_use:
        _sessions_in_use.append(provider)
    return provider


def sessions_in_use(user: Any) -> set[str]:
    """Return the table sessions that must stay open until their hand ends (then they close)."""
    out: set[str] = set()
    for provider in _sessions_in_use:
        out |= provider(user)
    return out


TablesCounter = Callable[[], dict[str, tuple[int, int]]]
_open_tables: list[TablesCounter] = []


def on_open_tables(counter: TablesCounter) -> TablesCounter:
    """Register a counter of open tables per game: ``{game: (tables, players seated)}``."""
    if counter not in _open_tables:
        _open_tables.append(counter)
    return counter


def open_tables() -> dict[str, tuple[int, int]]:
    """Open tables and the players seated at them, per game, over every app that runs tables."""
    out: dict[str, tuple[int, int]] = {}
    for counter in _open_tables:
        for game, (tables, seated) in counter().items():
            before = out.get(game, (0, 0))
            out[game] = (before[0] + tables, before[1] + seated)
    return out


MatchHandler = Callable[[dict[str, Any]], None]
_match_ended: list[MatchHandler] = []


def on_match_ended(handler: MatchHandler) -> MatchHandler:
    """Register a handler called, inside the ending hand's transaction, when a hand or match ends."""
    if handler not in _match_ended:
        _match_ended.append(handler)
    return handler


def match_ended(result: dict[str, Any]) -> None:
    """A hand or match ended at a live table: tell the apps that wait for it (tournaments).

    ``result``: ``table_id``, ``tournament_id`` (None at a cash table), ``hand_no``, ``game``,
    ``outcome`` (the engine's report) and ``seats`` (``seat``, ``user_id``, ``acted``: whether he
    made any move of his own, ``connected``: an open connection at the end).
    """
    for handler in _match_ended:
        handler(result)


ConductHandler = Callable[..., None]
_tournament_conduct: list[ConductHandler] = []


def on_tournament_conduct(handler: ConductHandler) -> ConductHandler:
    """Register a handler of a player's offence in a tournament (moderation gives the warnings)."""
    if handler not in _tournament_conduct:
        _tournament_conduct.append(handler)
    return handler


def tournament_conduct(
    *, user_id: int, tournament_id: int, kind: str, training: bool, turn: int, pairs: bool = False
) -> None:
    """Report an offence in a tournament turn: ``kind`` "timeout", "abandon", "absent" or "slow" (pairs:
    the line's tempo partita ran out and he used more than 3/4 of it); ``pairs``: a tournament of
    pairs (its timeouts count double)."""
    for handler in _tournament_conduct:
        handler(
            user_id=user_id, tournament_id=tournament_id, kind=kind, training=training, turn=turn, pairs=pairs
        )


EntryCheck = Callable[..., tuple[str, str] | None]
_tournament_entry_checks: list[EntryCheck] = []


def on_tournament_entry_check(check: EntryCheck) -> EntryCheck:
    """Register a check of a player's tournament registration (moderation's bans and blocks)."""
    if check not in _tournament_entry_checks:
        _tournament_entry_checks.append(check)
    return check


def tournament_entry_refusal(*, user_id: int, freeroll: bool) -> tuple[str, str] | None:
    """Why the player may not register for a tournament now, as (code, Italian message), or None.

    ``freeroll``: a free tournament with a bonus prize (the automatic bans of the warnings apply).
    """
    for check in _tournament_entry_checks:
        refusal = check(user_id=user_id, freeroll=freeroll)
        if refusal:
            return refusal
    return None


WarningsCounter = Callable[..., int]
_tournament_warnings: list[WarningsCounter] = []


def on_tournament_warnings(counter: WarningsCounter) -> WarningsCounter:
    """Register a counter of the warnings a player received in one tournament (moderation's)."""
    if counter not in _tournament_warnings:
        _tournament_warnings.append(counter)
    return counter


def tournament_warnings(*, user_id: int, tournament_id: int) -> int:
    """The automatic warnings (ammonizioni) a player received in one tournament (0 without a counter)."""
    return sum(counter(user_id=user_id, tournament_id=tournament_id) for counter in _tournament_warnings)


NoteProvider = Callable[..., str | None]
_tournament_table_notes: list[NoteProvider] = []


def on_tournament_table_note(provider: NoteProvider) -> NoteProvider:
    """Register what a tournament tells a player at his match's table (the tournaments')."""
    if provider not in _tournament_table_notes:
        _tournament_table_notes.append(provider)
    return provider


def tournament_table_note(*, tournament_id: int, user_id: int) -> str | None:
    """A tournament's word to a player at its table (Italian, e.g. the pairs' free leave), or None."""
    for provider in _tournament_table_notes:
        note = provider(tournament_id=tournament_id, user_id=user_id)
        if note:
            return note
    return None


VoidHandler = Callable[..., None]
_participation_void: list[VoidHandler] = []


def on_tournament_participation_void(handler: VoidHandler) -> VoidHandler:
    """Register a handler of a participation made void (his completed turns there count no more)."""
    if handler not in _participation_void:
        _participation_void.append(handler)
    return handler


def tournament_participation_void(*, user_id: int, tournament_id: int, turns: list[int]) -> None:
    """Report that a player's participation in a tournament is void; ``turns``: the turns he played."""
    for handler in _participation_void:
        handler(user_id=user_id, tournament_id=tournament_id, turns=turns)


_match_voided: list[VoidHandler] = []


def on_tournament_match_voided(handler: VoidHandler) -> VoidHandler:
    """Register a handler of a turn match voided to be played again (a fault of the platform)."""
    if handler not in _match_voided:
        _match_voided.append(handler)
    return handler


def tournament_match_voided(*, user_ids: list[int], tournament_id: int, turn: int) -> None:
    """Report that a match of this turn was voided and its players seated again: what its end
    recorded of them (offences, a completed turn) no longer stands."""
    for handler in _match_voided:
        handler(user_ids=user_ids, tournament_id=tournament_id, turn=turn)


TurnHandler = Callable[..., None]
_tournament_turn_completed: list[TurnHandler] = []


def on_tournament_turn_completed(handler: TurnHandler) -> TurnHandler:
    """Register a handler of a tournament turn a player completed (each 30 earn a bonus warning)."""
    if handler not in _tournament_turn_completed:
        _tournament_turn_completed.append(handler)
    return handler


def tournament_turn_completed(*, user_id: int, tournament_id: int) -> None:
    """Report that a player completed a tournament turn (played it to its end)."""
    for handler in _tournament_turn_completed:
        handler(user_id=user_id, tournament_id=tournament_id)


HandHandler = Callable[[dict[str, Any]], None]
_hand_settled: list[HandHandler] = []


def on_hand_settled(handler: HandHandler) -> HandHandler:
    """Register a handler called, inside the settlement's transaction, once per settled hand."""
    if handler not in _hand_settled:
        _hand_settled.append(handler)
    return handler


def hand_settled(summary: dict[str, Any]) -> None:
    """Report a settled hand: ``{"table_id", "game", "hand_id", "ended_at", "realm", "seats": [{"user_id",
    "delta" (cents or chips won, − lost), "end" ("normal" | "abandon" | "timeout" | "sitout")}]}``."""
    for handler in _hand_settled:
        handler(summary)


ChatPusher = Callable[[str, dict[str, Any]], None]
_chat_pushers: list[ChatPusher] = []


def on_chat_push(pusher: ChatPusher) -> ChatPusher:
    """Register the live stack's delivery of a payload to a chat room or to a player's notices."""
    if pusher not in _chat_pushers:
        _chat_pushers.append(pusher)
    return pusher


def chat_push(address: str, payload: dict[str, Any]) -> None:
    """Deliver a payload live: to a chat channel ("lobby", "table:3", "help:7"…) or "notices:<user id>"."""
    for pusher in _chat_pushers:
        pusher(address, payload)


# Game switches and site hours (piattaforma.siteops): the apps that run tables and tournaments apply
# the effects the rules list ("Disattivazione giochi", "Orari del sito") in their own handlers.
GameSwitchHandler = Callable[..., None]
_game_deactivated: list[GameSwitchHandler] = []
_game_reactivated: list[GameSwitchHandler] = []


def on_game_deactivated(handler: GameSwitchHandler) -> GameSwitchHandler:
    """Register a handler called, inside the switch's transaction, when a game goes off in some realms."""
    if handler not in _game_deactivated:
        _game_deactivated.append(handler)
    return handler


def game_deactivated(*, game: str, realms: set[str], until: Any, actor: Any) -> None:
    """Apply a game's deactivation in ``realms`` ("real", "play") until ``until`` (None: unknown)."""
    for handler in _game_deactivated:
        handler(game=game, realms=realms, until=until, actor=actor)


def on_game_reactivated(handler: GameSwitchHandler) -> GameSwitchHandler:
    """Register a handler called, inside the switch's transaction, when a game comes back on."""
    if handler not in _game_reactivated:
        _game_reactivated.append(handler)
    return handler


def game_reactivated(*, game: str, realms: set[str], actor: Any) -> None:
    """Apply a game's reactivation in ``realms``."""
    for handler in _game_reactivated:
        handler(game=game, realms=realms, actor=actor)


SiteClosingHandler = Callable[[], int]
_site_closing: list[SiteClosingHandler] = []


def on_site_closing(handler: SiteClosingHandler) -> SiteClosingHandler:
    """Register a handler called while the site is closed (each tick of the site-hours task)."""
    if handler not in _site_closing:
        _site_closing.append(handler)
    return handler


def site_closing() -> int:
    """Let every app close what must not run while the site is closed; return how many things it closed."""
    return sum(handler() for handler in _site_closing)


SwitchPreview = Callable[..., list[str]]
_switch_preview: list[SwitchPreview] = []


def on_switch_preview(provider: SwitchPreview) -> SwitchPreview:
    """Register a provider of what switching a game off would do, in lines for the back office."""
    if provider not in _switch_preview:
        _switch_preview.append(provider)
    return provider


def switch_preview(*, game: str, realms: set[str], until: Any) -> list[str]:
    """Say, writing nothing, what switching ``game`` off in ``realms`` would do."""
    out: list[str] = []
    for provider in _switch_preview:
        out += provider(game=game, realms=realms, until=until)
    return out


ReportBuilder = Callable[..., Any]
_reports: list[ReportBuilder] = []


def on_report(builder: ReportBuilder) -> ReportBuilder:
    """Register a builder of a back-office report: ``builder(since=...)`` returns a ``reports.Report``."""
    if builder not in _reports:
        _reports.append(builder)
    return builder


def reports(*, since: Any) -> list[Any]:
    """Build every app's report of the period from ``since`` to now."""
    return [builder(since=since) for builder in _reports]


_player_leave_tables: list[PlayerHandler] = []


def on_player_leave_tables(handler: PlayerHandler) -> PlayerHandler:
    """Register a handler that takes a player who may still play away from every table after the hand."""
    if handler not in _player_leave_tables:
        _player_leave_tables.append(handler)
    return handler


def player_leave_tables(user: Any) -> None:
    """Stand the player up at the end of the hand (session-time limit reached, "Esci" of a reality check)."""
    for handler in _player_leave_tables:
        handler(user)


CallsProvider = Callable[..., list[dict[str, Any]]]
_player_calls: list[CallsProvider] = []


def on_player_calls(provider: CallsProvider) -> CallsProvider:
    """Register a provider of what is waiting for a player (the tournaments': his match's table)."""
    if provider not in _player_calls:
        _player_calls.append(provider)
    return provider


def player_calls(*, user_id: int) -> list[dict[str, Any]]:
    """The calls waiting for a player (``piattaforma.playercalls``), read when one of his pages connects."""
    out: list[dict[str, Any]] = []
    for provider in _player_calls:
        out += provider(user_id=user_id)
    return out


TableNames = Callable[[set[int]], dict[int, str]]
_table_names: list[TableNames] = []


def on_table_names(provider: TableNames) -> TableNames:
    """Register a provider of tables' names by id (moderation names the table a line was said at)."""
    if provider not in _table_names:
        _table_names.append(provider)
    return provider


def table_names(ids: set[int]) -> dict[int, str]:
    """The names of these tables, ``{id: name}``; a table no provider knows is left out."""
    out: dict[int, str] = {}
    for provider in _table_names:
        out.update(provider(ids))
    return out


WaitingProvider = Callable[[Any], list[dict[str, Any]]]
_staff_waiting: list[WaitingProvider] = []


def on_staff_waiting(provider: WaitingProvider) -> WaitingProvider:
    """Register what waits for the back office, for one user: ``[{"label", "count", "url"}]``, only
    what that user may act on (the back office's index lists them)."""
    if provider not in _staff_waiting:
        _staff_waiting.append(provider)
    return provider


def staff_waiting(user: Any) -> list[dict[str, Any]]:
    """Everything waiting for this back-office user, over every app."""
    return [item for provider in _staff_waiting for item in provider(user)]


LedgerSources = Callable[[set[str]], dict[str, tuple[str, str]]]
_ledger_sources: list[LedgerSources] = []


def on_ledger_sources(provider: LedgerSources) -> LedgerSources:
    """Register a namer of ledger references: ``{"table:…" or "tournament:…": (name, page URL)}``."""
    if provider not in _ledger_sources:
        _ledger_sources.append(provider)
    return provider


def ledger_sources(refs: set[str]) -> dict[str, tuple[str, str]]:
    """Name the tables and tournaments a statement's movements came from (unknown refs are left out)."""
    out: dict[str, tuple[str, str]] = {}
    for provider in _ledger_sources:
        out.update(provider(refs))
    return out


TrainingTournaments = Callable[[], list[dict[str, Any]]]
_training_tournaments: list[TrainingTournaments] = []


def on_training_tournaments(provider: TrainingTournaments) -> TrainingTournaments:
    """Register the lister of the training section's open tournaments (for its lobby)."""
    if provider not in _training_tournaments:
        _training_tournaments.append(provider)
    return provider


def training_tournaments() -> list[dict[str, Any]]:
    """The training tournaments a player may still enter or follow: id, name, game, kind, start,
    entrants, state and the tournament page's URL."""
    return [row for provider in _training_tournaments for row in provider()]


StandingProvider = Callable[..., dict[str, Any]]
_entry_standings: list[StandingProvider] = []


def on_entry_standing(provider: StandingProvider) -> StandingProvider:
    """Register the provider of a player's leaderboard position and wins (the tournaments')."""
    if provider not in _entry_standings:
        _entry_standings.append(provider)
    return provider


def entry_standing(*, user_id: int, board: str, special: str, game: str, series: str) -> dict[str, Any]:
    """A player's standing for a reserved entry (``piattaforma.entry``): ``{"position": int | None,
    "wins": int}``, his position in the leaderboard ``board`` (``special``: a special one) and the
    tournaments he has won (of ``series``, a special leaderboard, or else of ``game``)."""
    out: dict[str, Any] = {"position": None, "wins": 0}
    for provider in _entry_standings:
        out.update(provider(user_id=user_id, board=board, special=special, game=game, series=series))
    return out
