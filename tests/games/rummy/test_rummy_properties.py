"""Property tests over random complete Burraco and Scala 40 matches, every format and mode.

Fast runs (at least 1,000 matches per game and format) check, at the end of each smazzata, that
the 108 cards are all there, every meld is valid and the points equal a recomputation from the
final table and hands, and that the match report adds up; deep runs check after every move that
the 108 cards are all accounted for, every meld on the table is valid, no view or public event
shows a covered card or a pozzetto, illegal actions are refused with the state unchanged and the
state round-trips through JSON exactly (and plays on identically).
"""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

import pytest

from games.engine import Engine, IllegalAction, State, dumps, loads, private_to
from games.melds import BURRACO, SCALA40, is_valid
from games.registry import get
from games.rng import Rng, SeededRng

from .rummy_helpers import (
    BURRACO_FORMATS,
    DECK,
    MOVE_CAP,
    burraco_recount,
    cards_in,
    deal_cards,
    norm,
    play_random,
    play_to_end,
    scala40_line_recount,
    seats,
    visible_hands,
)

BURRACO_CASES = [(fmt, mode) for fmt in BURRACO_FORMATS for mode in ("punti", "smazzate")]
SCALA40_LAYOUTS = [("individuale", 2), ("individuale", 3), ("individuale", 4), ("coppie", 4), ("4in2", 2)]
SCALA40_CASES = [(fmt, n, mode) for fmt, n in SCALA40_LAYOUTS for mode in ("punti", "smazzate")]
# at least 1,000 complete matches per game and format, a punti and a smazzate
FAST_BURRACO = 500  # per format and mode
FAST_SCALA40 = {"punti": 400, "smazzate": 600}  # per format, number of players and mode
DEEP = 2
DEEP_MOVES = 300


def burraco_match(fmt: str, mode: str, seed: int) -> tuple[Engine, State, Rng]:
    engine = get("burraco")
    rng = SeededRng(f"burraco-{fmt}-{mode}-{seed}")
    cfg: dict[str, Any] = {"format": fmt, "mode": mode, "ko": rng.randbelow(2) == 1}
    if mode == "punti":
        cfg["target"] = (300, 600, 1005)[rng.randbelow(3)]
    else:
        cfg["deals"] = 1 + rng.randbelow(2)
    if fmt == "coppie":
        cfg["carte_scoperte"] = rng.randbelow(2) == 1
        cfg["pairs"] = ("fisse", "casuali")[rng.randbelow(2)]
    prefs = {"ordina_mano": ("seme", "valore", None)[rng.randbelow(3)]}
    return engine, engine.new(cfg, seats(BURRACO_FORMATS[fmt], prefs), rng), rng


def scala40_match(n: int, mode: str, seed: int, fmt: str = "individuale") -> tuple[Engine, State, Rng]:
    engine = get("scala40")
    rng = SeededRng(f"scala40-{n}-{mode}-{seed}" if fmt == "individuale" else f"scala40-{fmt}-{mode}-{seed}")
    cfg: dict[str, Any] = {"mode": mode, "format": fmt}
    if fmt == "coppie":
        cfg["carte_scoperte"] = rng.randbelow(2) == 1
        cfg["pairs"] = ("fisse", "casuali")[rng.randbelow(2)]
    if mode == "punti":
        cfg["target"] = (101, 151)[rng.randbelow(2)]
    else:
        cfg["deals"] = (1, 3)[rng.randbelow(2)]
    prefs = {"ordina_mano": ("seme", "valore", None)[rng.randbelow(3)]}
    return engine, engine.new(cfg, seats(n, prefs), rng), rng


def check_history(game: str, st: State) -> None:
    """Every smazzata's points equal an independent recount from its final table and hands."""
    for rec in st["history"]:
        if game == "burraco":
            assert rec["points"] == burraco_recount(rec["detail"])
            assert all(is_valid(m, BURRACO) for m in rec["detail"]["melds"])
        else:
            closer = None if rec["closed_by"] is None else st["seats"].index(rec["closed_by"])
            assert rec["points"] == scala40_line_recount(rec, closer, len(st["totals"]))


def check_outcome(game: str, engine: Engine, st: State) -> None:
    res = engine.outcome(st)
    if res.get("forfeit") is None:
        totals = [0] * len(res["points"])
        for rec in st["history"]:
            totals = [t + p for t, p in zip(totals, rec["points"], strict=True)]
        assert totals == res["points"]
    assert sum(res["mp"]) == 0
    if res["winner"] is not None:
        assert res["cash"]["differenza_punti"] >= 0
    if game == "scala40" and res.get("forfeit") is None and st["config"]["mode"] == "punti":
        # a punti the winner is below the target and every loser at or past it
        shares = sum(x["differenza_effettiva"] for x in res["cash"]["per_loser"].values())
        assert shares == res["mp"][res["winner"]] == res["cash"]["differenza_effettiva"]
    if game == "burraco" and res["winner"] is not None:
        divisor = 100
        diff = res["cash"]["differenza_effettiva"]
        assert res["cash"]["differenza_punti"] == diff // divisor + (
            1 if 2 * (diff % divisor) > divisor else 0
        )


def check_deal_end(game: str, st: State, d: dict[str, Any], ended: int) -> None:
    """At the end of a smazzata: the 108 cards, valid melds, its record and an independent recount."""
    assert norm(deal_cards(game, d)) == DECK
    assert len(st["history"]) == ended
    rec = st["history"][-1]
    if game == "burraco":
        assert all(is_valid(m, BURRACO) for m in d["melds"])
        table = {"melds": d["melds"], "hands": d["hands"], "closed_by": d["closed_by"]}
        table["pozzetto_line"] = d["pozzetto_line"]
        assert {k: rec["detail"][k] for k in table} == table
        assert rec["points"] == burraco_recount(table)
    else:
        assert all(is_valid(m, SCALA40) for m in d["melds"])
        assert [rec[k] for k in ("hands", "opened", "active", "in_mano")] == [
            d[k] for k in ("hands", "opened", "active", "in_mano")
        ]
        assert rec["closed_by"] == (None if d["closed_by"] is None else st["seats"][d["closed_by"]])
        assert rec["points"] == scala40_line_recount(d, d["closed_by"], len(st["totals"]))


def play_checking_deal_ends(game: str, engine: Engine, st: State, rng: Rng) -> None:
    """Play a random match to its end, checking every smazzata as it ends, then the report."""
    ended = [0]

    def at_end(d: dict[str, Any]) -> None:
        ended[0] += 1
        check_deal_end(game, st, d, ended[0])

    play_to_end(engine, st, rng, at_end)
    assert len(st["history"]) == ended[0]
    check_history(game, st)
    check_outcome(game, engine, st)


@pytest.mark.parametrize(("fmt", "mode"), BURRACO_CASES)
def test_burraco_random_matches(fmt: str, mode: str) -> None:
    for seed in range(FAST_BURRACO):
        engine, st, rng = burraco_match(fmt, mode, seed)
        play_checking_deal_ends("burraco", engine, st, rng)


@pytest.mark.parametrize(("fmt", "n", "mode"), SCALA40_CASES)
def test_scala40_random_matches(fmt: str, n: int, mode: str) -> None:
    for seed in range(FAST_SCALA40[mode]):
        engine, st, rng = scala40_match(n, mode, seed, fmt)
        play_checking_deal_ends("scala40", engine, st, rng)
        if mode == "punti" and st.get("forfeit") is None:
            res = engine.outcome(st)
            assert sum(1 for o in res["out"] if not o) == 1  # R2: the last one left wins
            assert res["winner"] == res["out"].index(False)


# -- deep checks after every move ------------------------------------------------------------------


def allowed_deal_cards(game: str, engine: Engine, st: State, seat: int | None) -> Counter[str]:
    """The cards a seat may see in the deal part of its view."""
    d = st["deal"]
    visible = visible_hands(st, seat)
    public = list(d["scarti"]) if game == "burraco" else d["scarti"][-1:]
    public += [c for m in d["melds"] for c in m["cards"]]
    r = d["raccolto"]  # the card taken from the discards, seen by everyone
    if r is not None:
        public.append(r if isinstance(r, str) else r["card"])
    own = [c for p in visible for c in d["hands"][p]]
    return norm(public + own)


def check_views(game: str, engine: Engine, st: State) -> None:
    for seat in [None, *sorted(set(st["seats"]))]:
        view = engine.view(st, seat)
        if view["deal"] is not None:
            shown = norm(cards_in(view["deal"]))
            assert not shown - allowed_deal_cards(game, engine, st, seat), (seat, shown)
            # exactly the hands the rules show this seat (own; a partner's a carte scoperte)
            visible = visible_hands(st, seat)
            for p, hand in enumerate(view["deal"]["hands"]):
                assert (hand is not None) == (p in visible), (seat, p)
                if hand is not None:
                    assert norm(hand) == norm(st["deal"]["hands"][p])
            assert isinstance(view["deal"]["tallone"], int)
            if game == "burraco":
                assert all(isinstance(x, int) for x in view["deal"]["pozzetti"])
        for spec in view["legal"]:
            hand_cards = (
                spec.get("cards", {}).get("subset_of", []) if isinstance(spec.get("cards"), dict) else []
            )
            assert seat is not None
            pos = [p for p, s in enumerate(st["seats"]) if s == seat]
            mine = norm([c for p in pos for c in st["deal"]["hands"][p]])
            assert not norm(hand_cards) - mine
        text = dumps(view)
        assert "deck_log" not in text


def check_events(events: list[dict[str, Any]], before: Counter[str], after: Counter[str]) -> None:
    """A public event shows only cards public before or after it (or the final count)."""
    ends = [i for i, ev in enumerate(events) if ev["type"] in ("fine_smazzata", "fine_partita")]
    # the moves up to the end of a smazzata: before it, or on the table and hands shown at the count
    for ev in events[: ends[-1] + 1] if ends else []:
        if private_to(ev, None) and ev["type"] not in ("fine_smazzata", "fine_partita"):
            assert set(norm(cards_in(ev))) <= set(before) | set(DECK), ev
    for ev in events[ends[-1] + 1 :] if ends else events:
        if not private_to(ev, None):
            continue
        shown = set(norm(cards_in(ev)))  # an event may name a card twice (cards and meld)
        assert shown <= set(before | after), ev


def public_cards(game: str, st: State) -> Counter[str]:
    d = st["deal"]
    pile = d["scarti"] if game == "burraco" else d["scarti"][-1:]
    return norm(pile + [c for m in d["melds"] for c in m["cards"]])


def illegal_attempts(st: State, seat: int) -> list[tuple[int, dict[str, Any]]]:
    d = st["deal"]
    others = [s for s in st["seats"] if s != seat]
    tries: list[tuple[int, dict[str, Any]]] = [
        (seat, {"type": "vola"}),
        (seat, {"type": "scarta", "card": "Zz"}),
        (seat, {"type": "cala", "cards": ["Ah", "Ah"]}),
        (seat, {"type": "attacca", "meld": 999, "cards": ["Ah"]}),
        (seat, {"type": "pesca", "extra": 1}),
        (seat, {"type": "cala", "cards": "Ah"}),
    ]
    if others:
        tries.append((others[0], {"type": "pesca"}))
    if d["phase"] != "pesca":
        tries.append((seat, {"type": "raccogli"}))
    pos = d["turn"]
    hand = d["hands"][pos]
    foreign = [c for h in d["hands"] for c in h if c not in hand]
    if foreign:
        tries.append((seat, {"type": "scarta", "card": foreign[0]}))
        tries.append((seat, {"type": "cala", "cards": [*hand[:2], foreign[0]]}))
    if len(hand) >= 3:
        tries.append((seat, {"type": "cala", "cards": hand[-3:]}))  # often not a meld
        tries.append((seat, {"type": "apri", "melds": [{"cards": hand[:3]}]}))
    melds = d["melds"]
    if melds:
        tries.append((seat, {"type": "attacca", "meld": melds[0]["id"], "cards": hand[:1]}))
        tries.append(
            (
                seat,
                {"type": "sostituisci", "meld": melds[0]["id"], "card": hand[0] if hand else "Ah", "use": {}},
            )
        )
    return tries


def deep_play(game: str, engine: Engine, st: State, rng: Rng) -> None:
    moves = 0
    rules_melds = BURRACO if game == "burraco" else SCALA40
    while not engine.is_over(st):
        if moves > DEEP_MOVES and moves % 20:  # long matches: every move at first, then every 20th
            seat = engine.to_act(st)[0]
            engine.apply(
                st,
                seat,
                engine.sample_action(st, seat, rng) if moves < MOVE_CAP else {"type": "abbandona"},
                rng,
            )
            moves += 1
            continue
        d = st["deal"]
        assert norm(deal_cards(game, d)) == DECK
        assert all(is_valid(m, rules_melds) for m in d["melds"])
        check_views(game, engine, st)
        seat = engine.to_act(st)[0]
        for who, bad in illegal_attempts(st, seat):
            snapshot = copy.deepcopy(st)
            if engine.can_apply(st, who, bad):
                continue
            with pytest.raises(IllegalAction):
                engine.apply(st, who, bad, rng)
            assert st == snapshot
        assert loads(dumps(st)) == st
        action = engine.sample_action(st, seat, rng) if moves < MOVE_CAP else {"type": "abbandona"}
        assert engine.can_apply(st, seat, action)
        before = public_cards(game, st)
        events = engine.apply(st, seat, action, rng)
        after = public_cards(game, st) if not engine.is_over(st) else Counter()
        check_events(events, before, after)
        moves += 1
    check_history(game, st)
    check_outcome(game, engine, st)


@pytest.mark.parametrize(("fmt", "mode"), BURRACO_CASES)
def test_burraco_deep(fmt: str, mode: str) -> None:
    for seed in range(DEEP):
        engine, st, rng = burraco_match(fmt, mode, 1000 + seed)
        deep_play("burraco", engine, st, rng)


@pytest.mark.parametrize(("fmt", "n", "mode"), SCALA40_CASES)
def test_scala40_deep(fmt: str, n: int, mode: str) -> None:
    for seed in range(DEEP):
        engine, st, rng = scala40_match(n, mode, 1000 + seed, fmt)
        deep_play("scala40", engine, st, rng)


@pytest.mark.parametrize("game", ["burraco", "scala40"])
def test_json_round_trip_plays_on_identically(game: str) -> None:
    for seed in range(3):
        engine, st, rng = (
            burraco_match("coppie", "punti", seed) if game == "burraco" else scala40_match(3, "punti", seed)
        )
        for _ in range(150):
            if engine.is_over(st):
                break
            seat = engine.to_act(st)[0]
            engine.apply(st, seat, engine.sample_action(st, seat, rng), rng)
        twin = loads(dumps(st))
        assert twin == st
        a_rng, b_rng = SeededRng(f"twin-{seed}"), SeededRng(f"twin-{seed}")
        play_random(engine, st, a_rng)
        play_random(engine, twin, b_rng)
        assert dumps(twin) == dumps(st)
