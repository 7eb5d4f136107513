"""Moderation's refusals: a stable code for the API and the client, an Italian message for the player."""

from __future__ import annotations

from typing import Any

from games.engine import CodedError


class ModerationError(CodedError):
    """A line not shown, a report or a decision refused; the code says which rule (``chat_capitals``…)."""

    code = "moderation_error"
    default_message = "Operazione non ammessa"

    def __init__(self, code: str, message: str, **details: Any) -> None:
        super().__init__(message, **details)
        self.code = code  # type: ignore[misc]  # one class, many stable codes


CHAT_MESSAGES = {
    "chat_capitals": "Messaggio non inviato: non scrivere in maiuscolo (regole della chat).",
    "chat_flood": "Messaggio non inviato: stai intasando la chat, attendi qualche secondo.",
    "chat_repeated": "Messaggio non inviato: hai già scritto questo messaggio più volte.",
    "chat_watched": "Messaggio non inviato: contiene espressioni non ammesse in chat (%(category)s).",
    "chat_held": "Messaggio trattenuto per la revisione di un moderatore (%(category)s).",
    "chat_held_game": (
        "Messaggio trattenuto: durante il gioco non si rivelano carte, punteggio o la mano in corso."
    ),
    "chat_muted": "Non puoi scrivere in chat: sei silenziato fino alle %(until)s.",
    "chat_suspended": "La tua chat è sospesa fino al %(until)s.",
    "chat_suspended_forever": "La tua chat è sospesa.",
}
