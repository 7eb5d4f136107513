"""Property tests over thousands of random complete Briscola and Tresette matches.

Every format (testa a testa / spizzichino, a coppie, 4 in 2) and kind of match (a punti, a
smazzate), with random table options and preferences. Checked: the 40 cards are all accounted for
after every move; Briscola smazzate add up to 120 card points and Tresette ones to 11 (when played
out); no view or public event shows a card the viewer may not see (own hand, partner's with carte
scoperte, both hands late testa a testa a carte viste, played cards, the briscola, spizzichino
draws, accused cards and declared honours); illegal actions are refused with the state unchanged;
the state round-trips through JSON exactly and a round-tripped state plays on identically.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from games.cards import italian_deck
from games.engine import IllegalAction, dumps, loads
from games.registry import get
from games.rng import Rng, SeededRng
from games.tricks import cards_in_play

from .trick_helpers import FORMATS, cards_in, seats_for

DECK = sorted(italian_deck())
GAMES = ("briscola", "tresette")
MODES = ("punti", "smazzate")
FAST_MATCHES = 500  # per game, format and mode: 1,000 per game and format, 3,000 per game
DEEP_MATCHES = 12  # the same with views, events, refusals and JSON checked at every move


def random_config(game: str, fmt: str, mode: str, rng: Rng) -> dict[str, Any]:
    """A random valid table configuration."""
    cfg: dict[str, Any] = {"format": fmt, "mode": mode, "carte_viste": rng.randbelow(2) == 1}
    if fmt != "testa_a_testa":
        cfg["carte_scoperte"] = rng.randbelow(2) == 1
    if game == "briscola":
        if mode == "smazzate":
            cfg["deals"] = (1, 3, 5)[rng.randbelow(3)]
            cfg["vinco_subito_smazzata"] = rng.randbelow(2) == 1
        else:
            cfg["vinco_subito"] = rng.randbelow(2) == 1
        cfg["ko"] = rng.randbelow(3) == 0
        return cfg
    if mode == "smazzate":
        cfg["deals"] = 1 + rng.randbelow(3)
    else:
        cfg["target"] = (11, 21, 31)[rng.randbelow(3)]
    if rng.randbelow(4) == 0:
        cfg["a_perdere"] = True
    else:
        cfg["accuso"] = rng.randbelow(2) == 1
        cfg["vinco_subito"] = mode == "punti" and rng.randbelow(2) == 1
    cfg["cappotto"] = rng.randbelow(2) == 1
    cfg["dichiarazioni"] = rng.randbelow(2) == 1
    cfg["ko"] = rng.randbelow(3) == 0
    return cfg


def random_prefs(rng: Rng) -> dict[str, Any]:
    keys = ("accuso_automatico", "dichiarazione_automatica", "chiamata_fuori_automatica")
    return {k: rng.randbelow(2) == 1 for k in keys}


def new_match(game: str, fmt: str, mode: str, seed: int) -> tuple[Any, dict[str, Any], Rng]:
    engine = get(game)
    rng = SeededRng(f"{game}-{fmt}-{mode}-{seed}")
    seats = seats_for(fmt)
    for s in seats:
        s["prefs"] = random_prefs(rng)
    st = engine.new(random_config(game, fmt, mode, rng), seats, rng)
    return engine, st, rng


def check_cards(st: dict[str, Any]) -> None:
    assert sorted(cards_in_play(st["deal"])) == DECK


def check_deal_totals(game: str, record: dict[str, Any]) -> None:
    det = record["detail"]
    if game == "briscola":
        if det["ended_by"] == "fine_carte":
            assert sum(det["points"]) == 120, det
        else:
            assert sum(det["points"]) <= 120 and max(det["points"]) >= 61, det
    else:
        assert det["ended_by"] == "fine_carte"
        assert sum(det["card_points"]) == 11, det
        assert det["points"] == [det["card_points"][i] + det["accusi"][i] for i in (0, 1)]


def public_cards(st: dict[str, Any]) -> set[str]:
    """Cards everybody may know, worked out from the state (not from the view code)."""
    deal = st["deal"]
    out = {c for t in deal["history"] for _, c in t["plays"]} | {c for _, c in deal["trick"]}
    if deal.get("briscola"):
        out.add(deal["briscola"])
    for cards in deal.get("drawn", {}).values():  # spizzichino: shown to both (RULINGS I7)
        out |= set(cards)
    for cards in deal.get("accuso_cards", {}).values():
        out |= set(cards)
    for rec in deal.get("declarations", []):
        out |= set(rec["honours"])
    return out


def visible_positions(st: dict[str, Any], seat: int) -> set[int]:
    cfg, seats, deal = st["config"], st["seats"], st["deal"]
    own = {p for p, s in enumerate(seats) if s == seat}
    if cfg["carte_scoperte"] and len(seats) == 4:
        own |= {(p + 2) % 4 for p in own}
    if cfg["carte_viste"] and cfg["format"] == "testa_a_testa" and not deal["stock"]:
        own = set(range(len(seats)))
    return own


def check_views(engine: Any, st: dict[str, Any]) -> None:
    public = public_cards(st)
    for seat in [None, *sorted(set(st["seats"]))]:
        view = engine.view(st, seat)
        assert "deck_log" not in dumps(view)
        allowed = set(public)
        if seat is not None:
            for p in visible_positions(st, seat):
                allowed |= set(st["deal"]["hands"][str(p)])
        # Tresette a carte viste: cards inferred from draws, plays and declarations; they must be
        # in that hand (that they follow from public facts only: test_tresette_viste.py).
        inferred = view.get("deal", {}).get("inferred", {}) if isinstance(view.get("deal"), dict) else {}
        for k, cards in inferred.items():
            assert set(cards) <= set(st["deal"]["hands"][k]), (seat, k, cards)
            allowed |= set(cards)
        leaked = cards_in(view) - allowed
        assert not leaked, (seat, leaked)


def check_events(st_before: dict[str, Any], st: dict[str, Any], events: list[dict[str, Any]]) -> None:
    spizzichino = st["game"] == "tresette" and len(st["seats"]) == 2
    briscola = st_before["deal"].get("briscola")
    for ev in events:
        if "to" in ev:
            continue
        kind = ev["type"]
        if kind in ("gioca", "presa", "accuso", "dichiarazione", "briscola"):
            continue
        if kind == "pesca" and "card" in ev:
            assert spizzichino or ev["card"] == briscola, ev
            continue
        assert not cards_in(ev), ev


def try_illegal(engine: Any, st: dict[str, Any], rng: Rng) -> None:
    """Refused actions raise IllegalAction and leave the state exactly as it was."""
    before = copy.deepcopy(st)
    seat = engine.to_act(st)[0]
    pos = st["deal"]["turn"]
    hand = st["deal"]["hands"][str(pos)]
    legal = engine.legal_actions(st, seat)
    legal_cards = {a["card"] for a in legal if a["type"] == "gioca"}
    attempts: list[tuple[int, dict[str, Any]]] = [
        (seat, {"type": "boh"}),
        (seat, {"type": "gioca", "card": 7}),
        (seat, {"type": "gioca", "card": hand[0], "take": []}),
        (seat, {"type": "gioca", "card": next(c for c in DECK if c not in hand)}),
        (seat, {"type": "abbandona", "why": "x"}),
        (seat, {"type": "accuso", "combo": "quattro:K"}),
        (seat, {"type": "chiama_fuori", "now": True}),
        (seat, {"type": "dichiara", "ho": True, "busso": True, "per_te": False}),
    ]
    illegal_in_hand = [c for c in hand if c not in legal_cards]
    if illegal_in_hand:
        attempts.append((seat, {"type": "gioca", "card": illegal_in_hand[0]}))
    others = [(s, p) for p, s in enumerate(st["seats"]) if s != seat and st["deal"]["hands"][str(p)]]
    if others:
        other, other_pos = others[rng.randbelow(len(others))]
        attempts.append((other, {"type": "gioca", "card": st["deal"]["hands"][str(other_pos)][0]}))
    if not any(a["type"] == "chiama_fuori" for a in legal):
        attempts.append((seat, {"type": "chiama_fuori"}))
    for who, action in attempts:
        with pytest.raises(IllegalAction):
            engine.apply(st, who, action, rng)
        assert st == before, action


def play_match(game: str, fmt: str, mode: str, seed: int, deep: bool) -> dict[str, Any]:
    engine, st, rng = new_match(game, fmt, mode, seed)
    seen_deals = 0
    moves = 0
    while not engine.is_over(st):
        check_cards(st)
        if deep:
            check_views(engine, st)
            if moves % 5 == 0:
                try_illegal(engine, st, rng)
        seat = engine.to_act(st)[0]
        action = engine.sample_action(st, seat, rng)
        if deep:
            before = copy.deepcopy(st)
            twin = loads(dumps(st))
            assert twin == st
            twin_rng = copy.deepcopy(rng)
        events = engine.apply(st, seat, action, rng)
        moves += 1
        if deep:
            check_events(before, st, events)
            assert engine.apply(twin, seat, action, twin_rng) == events
            assert twin == st
        while seen_deals < len(st["history"]):
            check_deal_totals(game, st["history"][seen_deals])
            seen_deals += 1
    assert loads(dumps(st)) == st
    out = engine.outcome(st)
    assert out["winner"] in (0, 1, None)
    return out


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("fmt", sorted(FORMATS))
@pytest.mark.parametrize("mode", MODES)
def test_random_matches(game: str, fmt: str, mode: str) -> None:
    winners = set()
    for seed in range(FAST_MATCHES):
        winners.add(play_match(game, fmt, mode, seed, deep=False)["winner"])
    assert {0, 1} <= winners


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("fmt", sorted(FORMATS))
@pytest.mark.parametrize("mode", MODES)
def test_random_matches_deep(game: str, fmt: str, mode: str) -> None:
    for seed in range(DEEP_MATCHES):
        play_match(game, fmt, mode, 10_000 + seed, deep=True)
