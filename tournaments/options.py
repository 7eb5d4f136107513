"""A tournament's game options: the engine's own (carte scoperte, Tresette a perdere, graded VP…,
``Engine.config_options``), stored on the tournament as data and played at every one of its tables.

The tournament's structure sets the match's shape itself (testa a testa, 4 in 2 or pairs; smazzate
or points; the KO's spareggi; a timeout's forfeit), so those keys are not options here. Every other
key is checked by the engine, together with the structure, for the tables of each phase.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games import registry
from games.engine import CodedError, Option

# Set by the tournament's structure (``running.match_config``) or by the platform (table settings).
STRUCTURE_KEYS = frozenset(
    {"format", "pairs", "partners", "mode", "deals", "target", "ko", "on_timeout", "cash", "torneo"}
)


def option_error(*, game: str, options: Any, structure: Any) -> str | None:
    """Why ``options`` are not valid for this game's tournament tables, in Italian; None if valid.

    ``structure``: a callable ``ko -> dict`` giving the structure's config of a match (of the girone
    and of a KO phase), so the options are checked as the tables will play them.
    """
    if not isinstance(options, dict):
        return _('Le opzioni del gioco sono un oggetto JSON: {"chiave": valore, …}.')
    try:
        engine = registry.get(game)
    except KeyError:
        return None  # the game's own error says it
    platform = set(engine.table_settings.values())
    fixed = sorted(k for k in options if k in STRUCTURE_KEYS or k in platform)
    if fixed:
        return _("%(keys)s: lo stabilisce la struttura del torneo, non è un'opzione del gioco.") % {
            "keys": ", ".join(fixed)
        }
    if not options:
        return None
    for ko in (False, True):
        bare = {k: v for k, v in structure(ko).items() if k not in options}
        try:
            engine.validate_config(bare)
        except CodedError:
            continue  # the structure alone is not the options' fault
        try:
            engine.validate_config({**options, **bare})
        except CodedError as exc:
            key = exc.details.get("key")
            detail = f"{exc.message} ({key})" if key and str(key) not in exc.message else exc.message
            return _("Opzioni del gioco non valide: %(detail)s.") % {"detail": detail}
    return None


def _value_label(option: Option, value: Any) -> str:
    if option.kind == "bool":
        return _("sì") if value else _("no")
    if option.kind == "choice":
        return str(dict(option.choices).get(value, value))
    return str(value)


def option_labels(*, game: str, options: dict[str, Any]) -> list[str]:
    """The options set, in words ("Carte scoperte: sì"), in the engine's order."""
    if not options:
        return []
    try:
        declared = registry.get(game).config_options()
    except KeyError:
        return []
    return [f"{o.label}: {_value_label(o, options[o.key])}" for o in declared if o.key in options]
