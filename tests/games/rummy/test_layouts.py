"""The engines' ``layouts``: exactly the layouts ``apply`` accepts for a meld request, never a change.

For every request checked here: each listed layout, sent with its fields, is applied and lays that
very meld; and every other ``start`` / ``jolly_suit`` (and target meld, for a jolly taken back)
that ``apply`` accepts lays one of the listed layouts. Hand-built positions from the rules'
examples first, then random positions of random games.
"""

from __future__ import annotations

import copy
import itertools
import random
from typing import Any

import pytest

from games import melds
from games.cards import SUITS
from games.engine import IllegalAction, NotYourTurn, State, UnknownAction
from games.melds import TOP
from games.registry import get
from games.rng import SeededRng

from . import test_burraco_rules as burraco
from . import test_scala40_rules as scala40
from .rummy_helpers import seat_of, seats

BURRACO = get("burraco")
SCALA40 = get("scala40")
Parts = list[dict[str, Any]] | tuple[()]
KINGS = [{"cards": ["Kh", "Kd", "Ks", "Kc"]}]  # 40 points: an opening by itself
CHOICES: list[dict[str, Any]] = [
    {},
    *({"start": s} for s in range(1, TOP + 1)),
    *({"jolly_suit": s} for s in SUITS),
    {"start": 3, "jolly_suit": "h"},
]


def part_of(request: dict[str, Any]) -> str | None:
    """Where a request carries its layout fields: itself, its ``use`` or its last part."""
    return {"sostituisci": "use", "apri": "melds"}.get(request["type"])


def with_fields(request: dict[str, Any], fields: dict[str, Any], filler: Parts) -> dict[str, Any]:
    """The request with these fields where they go; an opening completed by ``filler`` parts."""
    action = copy.deepcopy(request)
    where = part_of(request)
    if where == "use":
        action["use"].update(fields)
    elif where == "melds":
        action["melds"][-1].update(fields)
        action["melds"] += copy.deepcopy(filler)
    else:
        action.update(fields)
    return action


def laid(engine, st: State, seat: int, action: dict[str, Any], filler: Parts) -> dict[str, Any] | None:
    """The meld the action lays or extends (None if ``apply`` refuses it); ``st`` is not changed."""
    if not engine.can_apply(st, seat, action):
        return None
    trial = copy.deepcopy(st)
    try:
        events = engine.apply(trial, seat, action, SeededRng(1))
    except IllegalAction:
        assert trial == st
        return None
    ev = next(e for e in events if e["type"] == action["type"])
    return ev["meld"] if "meld" in ev else ev["melds"][-1 - len(filler)]


def fits(meld: dict[str, Any], layout: dict[str, Any]) -> bool:
    return all(meld.get(k) == v for k, v in layout.items())


def check(engine, st: State, seat: int, request: dict[str, Any], filler: Parts = ()) -> list[dict[str, Any]]:
    """Assert ``layouts`` lists what ``apply`` accepts for this request; return the list.

    An opening is applied with ``filler`` parts after the one laid out, worth the 40 points the
    rules ask (the chooser lists a part's layouts before the opening is complete).
    """
    before = copy.deepcopy(st)
    found = engine.layouts(st, seat, request)
    assert st == before
    keys = [repr(sorted(e["fields"].items())) for e in found]
    assert len(set(keys)) == len(keys), found
    for entry in found:
        meld = laid(engine, st, seat, with_fields(request, entry["fields"], filler), filler)
        assert meld is not None and fits(meld, entry["layout"]), (request, entry, meld)
        if entry["meld"] is not None:
            assert meld["id"] == entry["meld"]
    targets: list[dict[str, Any]] = [{}]
    if part_of(request) == "use" and request["use"]["type"] == "attacca" and "meld" not in request["use"]:
        targets = [{"meld": m["id"]} for m in st["deal"]["melds"]]
    for target, choice in itertools.product(targets, CHOICES):
        fields = {**target, **choice}
        meld = laid(engine, st, seat, with_fields(request, fields, filler), filler)
        if meld is None:
            continue
        if choice:  # a layout named by its fields is listed with those fields
            entry = next((e for e in found if e["fields"] == fields), None)
            assert entry is not None and fits(meld, entry["layout"]), (request, fields, found)
        else:  # without a layout the engine lays one of those listed (the first)
            assert any(fits(meld, e["layout"]) for e in found), (request, fields, found)
    return found


def labels(found: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [
        (e["fields"], e["layout"]["cards"], (e["matta"] or {}).get("stands_for"), e["ace"], e["points"])
        for e in found
    ]


# -- hand-built positions -------------------------------------------------------------------------


def test_burraco_new_run_with_a_jolly_either_end() -> None:
    st = burraco.rigged(hands=[["5h", "6h", "X1", "9c", "9c"], ["4d"]])
    found = check(BURRACO, st, seat_of(st, 0), {"type": "cala", "cards": ["5h", "6h", "X1"]})
    assert labels(found) == [
        ({"start": 4}, ["X1", "5h", "6h"], "4h", None, None),
        ({"start": 5}, ["5h", "6h", "X1"], "7h", None, None),
    ]
    assert found[0]["matta"] == {"index": 0, "card": "X1", "stands_for": "4h", "kind": "jolly"}
    assert found[0]["span"] == ["4h", "6h"] and found[0]["meld"] is None


def test_burraco_matta_moves_to_the_end_the_player_picks() -> None:
    run = burraco.meld(0, 7, ["5h", "6h", "X1"])
    run = {**run, "start": 5, "cards": ["5h", "6h", "X1"]}
    st = burraco.rigged(hands=[["7h", "9c", "9c"], ["4d"]], melds=[run], next_id=8)
    found = check(BURRACO, st, seat_of(st, 0), {"type": "attacca", "meld": 7, "cards": ["7h"]})
    assert labels(found) == [
        ({"start": 4}, ["X1", "5h", "6h", "7h"], "4h", None, None),
        ({"start": 5}, ["5h", "6h", "7h", "X1"], "8h", None, None),
    ]
    assert {e["meld"] for e in found} == {7}


def test_burraco_ace_low_or_high_and_a_pinella_in_its_place() -> None:
    run = {**burraco.meld(0, 3, [f"{r}s" for r in "23456789TJQK"]), "start": 2}
    st = burraco.rigged(hands=[["As", "9c", "9c"], ["4d"]], melds=[run], next_id=4)
    found = check(BURRACO, st, seat_of(st, 0), {"type": "attacca", "meld": 3, "cards": ["As"]})
    assert [(e["fields"], e["ace"], e["matta"], e["natural_matte"]) for e in found] == [
        ({"start": 1}, "basso", None, ["2s"]),
        ({"start": 2}, "alto", None, ["2s"]),
    ]


def test_burraco_refusals_of_the_rules_are_not_listed() -> None:
    # a second combination of kings for the line: meld_options has it, apply refuses it
    kings = burraco.meld(0, 1, ["Kh", "Kd", "Kc"], kind="tris")
    st = burraco.rigged(hands=[["Ks", "Kh", "X2", "9c", "9c"], ["4d"]], melds=[kings], next_id=2)
    assert check(BURRACO, st, seat_of(st, 0), {"type": "cala", "cards": ["Ks", "Kh", "X2"]}) == []
    # laying every card leaves no discard once the line has its pozzetto
    st = burraco.rigged(hands=[["5h", "6h", "X1"], ["4d"]], pozzetto_line=[0, None])
    assert check(BURRACO, st, seat_of(st, 0), {"type": "cala", "cards": ["5h", "6h", "X1"]}) == []
    # cards not in the hand, or no meld at all: nothing to choose
    st = burraco.rigged(hands=[["5h", "6h", "X1", "9c"], ["4d"]])
    assert check(BURRACO, st, seat_of(st, 0), {"type": "cala", "cards": ["5h", "6h", "7h"]}) == []
    assert check(BURRACO, st, seat_of(st, 0), {"type": "cala", "cards": ["5h", "9c", "X1"]}) == []


def test_burraco_requests_the_chooser_may_not_ask() -> None:
    st = burraco.rigged(hands=[["5h", "6h", "X1", "9c"], ["4d"]])
    before = copy.deepcopy(st)
    with pytest.raises(NotYourTurn):
        BURRACO.layouts(st, seat_of(st, 1), {"type": "cala", "cards": ["4d"]})
    for bad in (
        {"type": "scarta", "card": "9c"},
        {"type": "cala", "cards": ["5h", "6h", "X1"], "start": 5},
        ["cala"],
    ):
        with pytest.raises(UnknownAction):
            BURRACO.layouts(st, seat_of(st, 0), bad)  # type: ignore[arg-type]  # junk on purpose
    with pytest.raises(IllegalAction):
        BURRACO.layouts(st, seat_of(st, 0), {"type": "cala", "cards": "5h"})
    assert st == before


def test_scala40_opening_parts_with_the_jollys_suit_and_points() -> None:
    hand = ["7h", "7s", "X2", "Qc", "Kc", "X4", "5d", "9s", "Kh", "Kd", "Ks", "Kc"]
    st = scala40.rigged(hands=[hand, ["Kd", "Kd"]], opened=[False, False])
    seat = seat_of(st, 0)
    found = check(SCALA40, st, seat, {"type": "apri", "melds": [{"cards": ["7h", "7s", "X2"]}]}, KINGS)
    assert labels(found) == [
        ({"jolly_suit": "d"}, ["7h", "7s", "X2"], "7d", None, 21),
        ({"jolly_suit": "c"}, ["7h", "7s", "X2"], "7c", None, 21),
    ]
    request = {
        "type": "apri",
        "melds": [{"cards": ["7h", "7s", "X2"], "jolly_suit": "c"}, {"cards": ["Qc", "Kc", "X4"]}],
    }
    found = check(SCALA40, st, seat, request, KINGS)
    assert labels(found) == [
        ({"start": 11}, ["X4", "Qc", "Kc"], "Jc", None, 30),
        ({"start": 12}, ["Qc", "Kc", "X4"], "Ac", None, 31),
    ]
    # an earlier part the rules refuse is refused here too
    with pytest.raises(IllegalAction):
        SCALA40.layouts(
            st,
            seat,
            {"type": "apri", "melds": [{"cards": ["7h", "5d", "X2"]}, {"cards": ["Qc", "Kc", "X4"]}]},
        )
    # once opened, or before drawing, there is no opening to lay out
    st["deal"]["opened"][0] = True
    with pytest.raises(IllegalAction):
        SCALA40.layouts(st, seat, {"type": "apri", "melds": [{"cards": ["7h", "7s", "X2"]}]})


def jolly_on_the_table(hand: list[str]) -> State:
    run = scala40.meld(1, 1, ["5s", "X3", "7s"])
    diamonds = scala40.meld(1, 2, ["9d", "Td", "Jd"])
    kings = scala40.meld(1, 3, ["Kh", "Kd", "Kc"], kind="tris")
    return scala40.rigged(
        hands=[hand, ["Kd", "Kd"]], opened=[True, True], melds=[run, diamonds, kings], next_id=4
    )


def test_scala40_jolly_taken_back_attaches_where_it_may() -> None:
    st = jolly_on_the_table(["6s", "8c", "8d", "4h"])
    seat = seat_of(st, 0)
    request = {"type": "sostituisci", "meld": 1, "card": "6s", "use": {"type": "attacca", "cards": []}}
    found = check(SCALA40, st, seat, request)
    by_meld: dict[int, list[Any]] = {}
    for e in found:
        by_meld.setdefault(e["meld"], []).append((e["fields"], e["layout"]["cards"]))
    assert by_meld[2] == [
        ({"meld": 2, "start": 8}, ["X3", "9d", "Td", "Jd"]),
        ({"meld": 2, "start": 9}, ["9d", "Td", "Jd", "X3"]),
    ]
    assert by_meld[3] == [({"meld": 3, "jolly_suit": "s"}, ["Kh", "Kd", "Kc", "X3"])]
    # not the run it came from, though it would fit at either end: "ad altre sequenze o combinazioni"
    assert sorted(by_meld) == [2, 3]
    assert check(SCALA40, st, seat, {**request, "use": {"type": "attacca", "meld": 1, "cards": []}}) == []
    one = check(SCALA40, st, seat, {**request, "use": {"type": "attacca", "meld": 2, "cards": []}})
    assert [e["fields"] for e in one] == [{"start": 8}, {"start": 9}]
    cala = check(SCALA40, st, seat, {**request, "use": {"type": "cala", "cards": ["8c", "8d"]}})
    assert [(e["fields"], e["points"]) for e in cala] == [
        ({"jolly_suit": "h"}, 24),
        ({"jolly_suit": "s"}, 24),
    ]
    # the wrong card for the jolly: the engine's refusal
    with pytest.raises(IllegalAction):
        SCALA40.layouts(st, seat, {**request, "card": "8c"})


def test_scala40_cala_and_attacca() -> None:
    st = jolly_on_the_table(["Qd", "Kd", "X1", "4h"])
    seat = seat_of(st, 0)
    found = check(SCALA40, st, seat, {"type": "cala", "cards": ["Qd", "Kd", "X1"]})
    assert [e["fields"] for e in found] == [{"start": 11}, {"start": 12}]
    found = check(SCALA40, st, seat, {"type": "attacca", "meld": 2, "cards": ["Qd", "Kd"]})
    assert [e["fields"] for e in found] == [{"start": 9}]  # one layout: no choice
    assert check(SCALA40, st, seat, {"type": "attacca", "meld": 3, "cards": ["Qd"]}) == []
    found = check(SCALA40, st, seat, {"type": "attacca", "meld": 2, "cards": ["X1"]})
    assert [e["fields"] for e in found] == [{"start": 8}, {"start": 9}]
    assert all(e["points"] is None and e["meld"] == 2 for e in found)


# -- random positions -----------------------------------------------------------------------------


def opening_filler(hand: list[str], pick: list[str]) -> Parts | None:
    """Melds of the hand besides ``pick`` worth 40 points with a card left to discard, or None."""
    rest = melds.take_cards(hand, pick)
    parts: list[dict[str, Any]] = []
    value = 0
    for h in melds.meld_hints(rest or [], melds.SCALA40):
        left = melds.take_cards(rest or [], h)
        if left is None or not left:
            continue
        best = max(melds.meld_options(h, melds.SCALA40), key=melds.scala40_meld_value)
        parts.append({"cards": list(h), **melds.layout_fields(best)})
        value += melds.scala40_meld_value(best)
        rest = left
        if value >= 40:
            return parts
    return None


def requests(st: State, pos: int, rng: random.Random) -> list[tuple[dict[str, Any], Parts]]:
    """Meld requests a player could send here (hints of the hand, random picks, targets), a few."""
    d = st["deal"]
    hand: list[str] = d["hands"][pos]
    rules = melds.BURRACO if st["game"] == "burraco" else melds.SCALA40
    picks = [list(h) for h in melds.meld_hints(hand, rules)]
    picks += [rng.sample(hand, k) for k in (1, 2, 3, 3, 4) if len(hand) >= k]
    picks += [[c] for c in set(hand) if melds.is_matta(c, rules)]  # a matta alone: either end
    out: list[tuple[dict[str, Any], Parts]] = []
    if st["game"] == "scala40" and not d["opened"][pos]:
        for p in picks:
            filler = opening_filler(hand, p) if len(p) >= 3 else None
            if filler is not None:
                out.append(({"type": "apri", "melds": [{"cards": p}]}, filler))
        return out
    mine = [m for m in d["melds"] if st["game"] == "scala40" or m["line"] == pos % 2]
    for p in picks:
        if len(p) >= 3:
            out.append(({"type": "cala", "cards": p}, ()))
        out += [({"type": "attacca", "meld": m["id"], "cards": p[:2]}, ()) for m in mine]
    if st["game"] == "scala40":
        for m in d["melds"]:
            stands = melds.wild_card_stands_for(m, rules)
            if stands is not None and stands in hand:
                base = {"type": "sostituisci", "meld": m["id"], "card": stands}
                rest = list(hand)
                rest.remove(stands)
                out.append(({**base, "use": {"type": "attacca", "cards": []}}, ()))
                out.append(({**base, "use": {"type": "attacca", "cards": rest[:1]}}, ()))
                out.append(({**base, "use": {"type": "cala", "cards": rest[:2]}}, ()))
    return out if len(out) <= 6 else rng.sample(out, 6)


@pytest.mark.parametrize(("engine", "n"), [(BURRACO, 2), (BURRACO, 4), (SCALA40, 2), (SCALA40, 3)])
def test_random_positions(engine, n: int) -> None:
    rng = random.Random(7 + n)
    checked = chosen = 0
    for game_seed in range(6):
        config = {"format": "coppie"} if engine is BURRACO and n == 4 else {}
        st = engine.new(config, seats(n), SeededRng(game_seed))
        srng = SeededRng(100 + game_seed)
        for _ in range(300):
            if engine.is_over(st):
                break
            seat = engine.to_act(st)[0]
            pos = st["seats"].index(seat)
            if st["deal"]["phase"] == "gioca" and rng.random() < 0.4:
                for request, filler in requests(st, pos, rng):
                    found = check(engine, st, seat, request, filler)
                    checked += 1
                    chosen += len(found) > 1
            engine.apply(st, seat, engine.sample_action(st, seat, srng), srng)
    assert checked > 100 and chosen >= 3, (checked, chosen)
