"""A player's hands as readable text (one line per action, in Italian), for him to download.

Built from the player's own replay (``selectors.hand_replay_frames``): his seat's view and the
events private to him, so another seat's covered card never reaches the text, exactly as it
never reaches his replay on the felt. The money line is the ledger's (the caller passes it).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from games import options as game_options
from lobby import selectors
from lobby.models import Hand
from lobby.narration import cards_text
from wallet.money import format_money

RULE = "-" * 72


def _when(moment: datetime | None) -> str:
    return timezone.localtime(moment).strftime("%d/%m/%Y %H:%M:%S") if moment else "—"


def _kind(hand: Hand) -> str:
    if hand.table.tournament_id is not None:
        return _("tavolo di torneo")
    return _("tavolo cash, allenamento (gettoni)") if hand.table.realm == "play" else _("tavolo cash (euro)")


def _first_cards(view: dict[str, Any], seat: int, italian: bool) -> list[str]:
    """What the seat held and saw on the felt right after the deal (only its own cards are there:
    the view is its seat's)."""
    lines = []
    deal = view.get("deal") if isinstance(view.get("deal"), dict) else None
    if deal is not None:  # giochi a partite: the seat's own hand is the one not hidden (None)
        own = [h for h in deal.get("hands") or [] if isinstance(h, list)]
        if len(own) == 1 and own[0]:
            lines.append(_("Le tue carte: %(cards)s") % {"cards": cards_text(own[0], italian)})
        if deal.get("table"):
            lines.append(_("In tavola: %(cards)s") % {"cards": cards_text(deal["table"], italian)})
    hands = view.get("hands")
    if isinstance(hands, dict) and isinstance(hands.get(str(seat)), list) and hands[str(seat)]:
        lines.append(_("Le tue carte: %(cards)s") % {"cards": cards_text(hands[str(seat)], italian)})
    return lines


def hand_text(hand: Hand, *, user_id: int, money: int | None) -> str | None:
    """One of the player's hands in words; None if he was not dealt into it.

    ``money``: his net result in cents from the ledger (``None``: the hand moved none of his money).
    """
    replay = selectors.hand_replay_frames(hand=hand, viewer_id=user_id, start="0", count="1")
    if replay is None:
        return None
    seat = int(replay["viewer"])
    realm = hand.table.realm
    italian = "stile_mazzo" in game_options.defaults(hand.game)  # as the replay names the cards
    chips = {int(s["seat"]): s.get("chips") for s in hand.seats}
    out = [
        _("Mano n. %(number)s · %(table)s · %(game)s")
        % {"number": hand.number, "table": hand.table.name, "game": replay["title"]},
        _("Tipo: %(kind)s") % {"kind": _kind(hand)},
        _("Iniziata: %(start)s · Finita: %(end)s (ora italiana)")
        % {"start": _when(hand.started_at), "end": _when(hand.ended_at)},
        _("Posti:"),
    ]
    for s in replay["seats"]:
        amount = chips.get(s["number"])
        stake = (
            _(", credito %(amount)s") % {"amount": format_money(amount, realm)}
            if isinstance(amount, int) and hand.table.tournament_id is None
            else ""
        )
        you = _(" (tu)") if s["number"] == seat else ""
        out.append(
            _("  Posto %(n)s: %(name)s%(you)s%(stake)s")
            % {"n": s["number"], "name": s["nickname"], "you": you, "stake": stake}
        )
    out += _first_cards(replay["frames"][0]["view"], seat, italian)
    out.append(_("Giocate:"))
    for step in replay["steps"]:
        auto = _(" [automatica]") if step["automatic"] else ""
        for at, line in enumerate(step["lines"]):
            mark = f"{step['index']:>4}. " if at == 0 else "      "
            out.append(f"{mark}{line}{auto if at == 0 else ''}")
    if hand.cancelled:
        out.append(_("Mano annullata: le puntate sono state restituite."))
    elif money is not None:
        sign = "+" if money > 0 else ("−" if money < 0 else "")
        out.append(_("Il tuo risultato: %(amount)s") % {"amount": sign + format_money(abs(money), realm)})
    return "\n".join(out) + "\n"


def hands_text(items: Iterable[tuple[Hand, int | None]], *, user_id: int, title: str) -> str:
    """Several of the player's hands, oldest first, under a title."""
    parts = [title, RULE]
    for hand, money in items:
        text = hand_text(hand, user_id=user_id, money=money)
        if text is not None:
            parts += [text, RULE]
    return "\n".join(parts) + "\n"
