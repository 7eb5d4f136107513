"""No engine word reaches the table page in English (never "Fase del buio: see").

The client shows what an engine's view holds: its keys through dom.js's LABELS, its string values
through VALUES and KEYED_VALUES, its phase through PHASES; a word none of them lists is shown as
the engine wrote it. This plays seeded random hands and matches of every game, reads every view a
seated player and a spectator receive, and checks that each key and each word the page would show
is either translated by those maps or already Italian (listed below, as the rules write it).
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import pytest

from games import registry
from games.rng import SeededRng

DOM_JS = Path(__file__).resolve().parents[2] / "static" / "js" / "table" / "dom.js"
MODEL_JS = DOM_JS.with_name("model.js")
CARD = re.compile(r"^(?:[A2-9TJQK][hdcs]|X[1-4]|\?\?)$")
# Ranks as the cards and the rules write them; a meld's "T" is written "10" by the client.
RANK = re.compile(r"^(?:[2-9AJQK]|10|T)$")
HAND_NAME = re.compile(r"^(?:Carta alta|Coppia|Doppia coppia|Tris|Scala|Full|Colore|Poker)\b")
# Values the page shows as they are: Italian words of the rules (underscores become spaces).
ITALIAN_VALUES = {
    "banco",
    "batto",
    "cambio",
    "chiamo",
    "chiusura",
    "classica",
    "diretta",
    "fine",
    "fine_carte",
    "fisse",
    "individuale",
    "coppie",
    "mai",
    "piatto",
    "pulito",
    "semipulito",
    "sporco",
    "punta",
    "punti",
    "punto",
    "ritirata",
    "scala",
    "scarto",
    "sempre",
    "tavolo",
    "testa_a_testa",
    "tris",
    "tiro",
    "servito",
    "passo",
    "nessun_banco",
    "smazzate",
    "tallone",
    "buio",
    # Telesina's vele layouts (RULINGS T3), by key and by name
    "nessuna",
    "una",
    "due",
    "tre",
    "croce",
    "h",
    "piramide",
    "ascensore",
    "libera",
    "Nessuna vela",
    "Una vela",
    "Due vele",
    "Tre vele",
    "Croce",
    "H",
    "Piramide",
    "Ascensore",
    "NL",
    "PL",
    "FL",  # the betting limit, as the poker rules abbreviate it
}
# Keys shown as they are (humanised: "carte_punto" -> "Carte punto"), already Italian.
ITALIAN_KEYS = {
    "a_perdere",
    "cappotti",
    "burrachi",
    "burraco",
    "carte_appoggiate",
    "carte_in_mano",
    "chiusura",
    "pozzetto",
    "puliti",
    "semipuliti",
    "sporchi",
    "totale",
    "accuso",
    "bestie",
    "carte_punto",
    "carte_scoperte",
    "carte_viste",
    "denari_punto",
    "dichiarazioni",
    "differenza_effettiva",
    "differenza_punti",
    "grande",
    "linee",
    "piatto_iniziale",
    "piccola",
    "piccola_punti",
    "primiera_punto",
    "punta_cards",
    "punta_points",
    "saldo",
    "scopa",
    "spareggi",
    "torneo",
    "vinco_subito",
    "vinco_subito_smazzata",
}
# Subtrees the page does not show as details: the legal actions (their labels are Italian) and
# Telesina's vele letters (drawn on their grid).
NOT_SHOWN = {"legal", "legal_actions", "combinations", "turns"}
SEEDS, MOVES = 3, 300


def _map(source: str, name: str) -> str:
    return re.search(rf"const {name} = (?:new Set\()?[{{\[](.*?)\n?[}}\]]\)?;", source, re.S).group(1)


def _keys(block: str) -> set[str]:
    return set(re.findall(r'(?:^|[\s,{])"?([\w?]+)"?\s*:', re.sub(r"(?m)^\s*//.*$", "", block)))


def client_maps() -> dict[str, object]:
    dom = DOM_JS.read_text(encoding="utf-8")
    keyed: dict[str, set[str]] = {}
    for field, inner in re.findall(r"(\w+): \{([^}]*)\}", _map(dom, "KEYED_VALUES")):
        keyed[field] = _keys(inner)
    structural = set(re.findall(r'"(\w+)"', _map(MODEL_JS.read_text(encoding="utf-8"), "STRUCTURAL")))
    return {
        "labels": _keys(_map(dom, "LABELS")),
        "values": _keys(_map(dom, "VALUES")),
        "keyed": keyed,
        "phases": _keys(_map(dom, "PHASES")),
        "structural": structural,
    }


def engine_words(
    skip: set[str],
) -> tuple[dict[tuple[str, str], set[str]], dict[str, set[str]], dict[str, set[str]]]:
    """(key, value) pairs, keys and phases of the views of seeded random play, with their games.

    ``skip``: the keys whose subtrees the page does not show as words."""
    values: dict[tuple[str, str], set[str]] = defaultdict(set)
    keys: dict[str, set[str]] = defaultdict(set)
    phases: dict[str, set[str]] = defaultdict(set)

    def walk(node: object, key: str, game: str) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                if k in skip:
                    continue
                if k == "phase" and isinstance(v, str):
                    phases[v].add(game)
                    continue
                if not k.isdigit():
                    keys[k].add(game)
                walk(v, k, game)
        elif isinstance(node, list):
            for v in node:
                walk(v, key, game)
        elif isinstance(node, str) and not CARD.match(node):
            values[(key, node)].add(game)

    for game in registry.names():
        engine = registry.get(game)
        seats = engine.min_seats if engine.family == "partite" else min(engine.max_seats, 3)
        for seed in range(SEEDS):
            rng = SeededRng(seed)
            specs = [{"seat": i + 1, "chips": 20_000, "sitout": False, "prefs": {}} for i in range(seats)]
            state = engine.new(engine.validate_config({}), specs, rng)
            for _ in range(MOVES):
                for viewer in (1, None):
                    walk(engine.view(state, viewer), "", game)
                if engine.is_over(state):
                    break
                seat = engine.to_act(state)[0]
                engine.apply(state, seat, engine.sample_action(state, seat, rng), rng)
    return values, keys, phases


@pytest.fixture(scope="module")
def words():
    maps = client_maps()
    return maps, engine_words(NOT_SHOWN | maps["structural"])


def test_every_engine_value_on_the_page_is_italian(words):
    maps, (values, _keys, _phases) = words
    english = sorted(
        f"{game}: {key} = {value!r}"
        for (key, value), games in values.items()
        for game in sorted(games)[:1]
        if value not in maps["values"]
        and value not in maps["keyed"].get(key, ())
        and value not in ITALIAN_VALUES
        and not RANK.match(value)
        and not HAND_NAME.match(value)
        and not (key in ("suit", "jolly_suit", "trump") and value in "hdcs")
    )
    assert english == [], (
        "engine words shown untranslated (give them their Italian in dom.js):\n" + "\n".join(english)
    )


def test_every_engine_key_on_the_page_has_its_italian_label(words):
    maps, (_values, keys, _phases) = words
    english = sorted(
        f"{sorted(games)[0]}: {key}"
        for key, games in keys.items()
        if key not in maps["labels"]
        and key not in maps["structural"]
        and key not in ITALIAN_KEYS
        and not re.fullmatch(r"[A-I]", key)  # Telesina's vele letters
    )
    assert english == [], "engine keys shown as English labels:\n" + "\n".join(english)


def test_every_phase_has_its_italian_name(words):
    maps, (_values, _keys, phases) = words
    italian_as_is = {"asta", "decisione", "seguito"}  # humanised: "Asta", "Decisione", "Seguito"
    missing = sorted(p for p in phases if p not in maps["phases"] and p not in italian_as_is)
    assert missing == [], missing


def test_the_buio_stage_reads_in_italian():
    """Poker's buio details say "si vede il buio", not "see"."""
    maps = client_maps()
    assert {"offer", "see", "open"} <= maps["keyed"]["stage"]
