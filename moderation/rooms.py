"""Who may read and write in which chat room (rules 004, "Regole della Chat", "Durante il gioco").

Rooms are named like moderation's channels: ``lobby``, ``torneo:<id>``, ``help:<player id>``
(table chat, ``table:<id>`` and ``spettatori:<id>``, is decided by the table itself).

* lobby: every logged-in player ("uno strumento … messo a disposizione di tutti gli utenti").
* torneo: every logged-in player who can see the tournament, its entrants and its watchers;
  while the tournament is running an entrant is "durante il gioco" (the in-game watched
  entries apply to him).
* help: the player and the staff, one to one ("gli Staff inviteranno gli utenti che richiedono
  assistenza ad accedere alla chat help"); moderators are not staff and do not see it;
  complaints are what HELP is for, so the complaint entries do not apply there; and a mute or a
  chat suspension silences a player in the public chats, not towards the staff (the other
  filters still apply, and staff may suspend the account of one who abuses it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from moderation.models import Category
from piattaforma import hooks, roles

ROOM = re.compile(r"(lobby)|(torneo|help):([1-9]\d{0,11})")
HELP_SKIP = frozenset({Category.COMPLAINT.value})


@dataclass(frozen=True)
class Room:
    """A chat room: its channel name and what the rules say of it for one user."""

    name: str
    kind: str
    key: int | None
    skip: frozenset[str] = frozenset()

    @property
    def group(self) -> str:
        """The channel-layer group of the room (group names allow no colon)."""
        return "chat." + self.name.replace(":", ".")


def parse(name: str) -> Room | None:
    """The room a name designates, or None when it is not one (``lobby``, ``torneo:5``, ``help:7``)."""
    match = ROOM.fullmatch(name or "")
    if match is None:
        return None
    if match.group(1):
        return Room("lobby", "lobby", None)
    kind, key = match.group(2), int(match.group(3))
    return Room(name, kind, key, HELP_SKIP if kind == "help" else frozenset())


CHANNEL = re.compile(r"(table|spettatori|torneo|help):(\d+)")


def channel_label(channel: str) -> str:
    """Where a line was said, in words for the moderators' pages ("Tavolo 4", "Chat della lobby")."""
    if channel == "lobby":
        return _("Chat della lobby")
    match = CHANNEL.fullmatch(channel or "")
    if match is None:
        return channel
    kind, key = match.groups()
    if kind in ("table", "spettatori") and key.isdigit():  # the table's name, as its players know it
        name = hooks.table_names({int(key)}).get(int(key))
        if name:
            if kind == "spettatori":
                return _("Spettatori del tavolo «%(name)s»") % {"name": name}
            return name if name.lower().startswith("tavolo") else _("Tavolo «%(name)s»") % {"name": name}
    if kind == "torneo" and key.isdigit():
        from tournaments.selectors import tournament_name  # tournaments depend on moderation, not back

        name = tournament_name(tournament_id=int(key))
        if name:
            return _("Chat del torneo «%(name)s»") % {"name": name}
    labels = {
        "table": _("Tavolo %(n)s"),
        "spettatori": _("Spettatori del tavolo %(n)s"),
        "torneo": _("Chat del torneo %(n)s"),
        "help": _("HELP"),
    }
    return labels[kind] % {"n": key}


def may_enter(user: Any, room: Room) -> str | None:
    """Why the user may not read (and so not write) in the room: ``None`` when he may.

    ``"login"``: anonymous or inactive; ``"missing"``: no such tournament; ``"forbidden"``:
    another player's HELP, or a moderator's (moderators do not answer HELP, staff do).
    """
    if user is None or not user.is_authenticated or not user.is_active:
        return "login"
    if room.kind == "help":
        if room.key == user.pk or roles.has_staff_role(user):
            return None
        return "forbidden"
    if room.kind == "torneo":
        from tournaments.selectors import chat_role  # tournaments depend on moderation, not back

        return None if chat_role(tournament_id=room.key, user_id=user.pk) is not None else "missing"
    return None


def in_game(user: Any, room: Room) -> bool:
    """Whether the tournament's in-game rules apply to the user in this room ("Durante il gioco")."""
    if room.kind != "torneo":
        return False
    from tournaments.selectors import chat_role

    return chat_role(tournament_id=room.key, user_id=user.pk) == "playing"
