"""The match engine of the giochi a partite (games.partite), driven by a scripted toy deal."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from games.cards import italian_deck
from games.engine import ConfigError, HandOver, IllegalAction, NotYourTurn, Option, dumps, loads
from games.partite import DealRules, PartiteEngine, cash_settlement, round_half_down
from games.rng import Rng, SeededRng, shuffled


class ScriptDeal(DealRules):
    """Each position plays its single card; the deal's points come from config["script"]."""

    game_options = (Option("script", "Punti di ogni smazzata", "data", [[1, 0, 0]]),)
    not_implemented = frozenset()  # the toy lets every match option through

    def start(self, st, rng):
        deck = shuffled(italian_deck(), rng)
        n = len(st["seats"])
        hands = [[deck[i]] for i in range(n)]
        deal = {"hands": hands, "turn": (st["dealer"] + 1) % n, "played": 0}
        events = [{"type": "carte", "pos": p, "cards": list(hands[p]), "to_pos": [p]} for p in range(n)]
        return deal, [deck], events

    def to_act(self, st):
        d = st["deal"]
        return None if d["played"] == len(st["seats"]) else d["turn"]

    def legal_actions(self, st, pos):
        return [{"type": "gioca", "card": c, "label": "Gioca"} for c in st["deal"]["hands"][pos]]

    def apply(self, st, pos, action, rng):
        d = st["deal"]
        if action != {"type": "gioca", "card": d["hands"][pos][0]}:
            raise IllegalAction()
        d["hands"][pos] = []
        d["played"] += 1
        d["turn"] = (pos + 1) % len(st["seats"])
        return [{"type": "gioca", "pos": pos, "card": action["card"]}]

    def view(self, st, visible, carte_viste):
        d = st["deal"]
        return {
            "hands": [d["hands"][p] if p in visible else len(d["hands"][p]) for p in range(len(d["hands"]))]
        }

    def auto_action(self, st, pos):
        return {"type": "gioca", "card": st["deal"]["hands"][pos][0]}

    def result(self, st):
        script = st["config"]["script"]
        row = script[min(st["deal_no"], len(script)) - 1]
        return {"points": row[:2], "decider": row[2], "cappotto": row[3] if len(row) > 3 else None}

    def penalty(self, st, offender):
        return 5


class ScriptEngine(PartiteEngine):
    name = "toy_script"
    title = "Toy"
    rules = ScriptDeal()
    defaults = {"script": [[1, 0, 0]]}


ENGINE = ScriptEngine()
TWO = [{"seat": 3, "prefs": {}}, {"seat": 7}]
FOUR = [{"seat": s} for s in (1, 2, 3, 4)]


def play_out(state: dict[str, Any], rng: Rng) -> None:
    while not ENGINE.is_over(state):
        (seat,) = ENGINE.to_act(state)
        ENGINE.apply(state, seat, ENGINE.sample_action(state, seat, rng), rng)


def run(config: dict[str, Any], seats=TWO, seed: int = 1) -> dict[str, Any]:
    rng = SeededRng(seed)
    state = ENGINE.new(config, seats, rng)
    play_out(state, rng)
    return state


def test_punti_first_past_target_wins():
    st = run({"mode": "punti", "target": 11, "script": [[6, 4, 0], [6, 3, 1]]})
    out = ENGINE.outcome(st)
    assert out["winner"] == 0 and out["reason"] == "punti" and out["points"] == [12, 7]
    assert out["mp"] == [5, -5] and out["vp"] == [20, 0]
    assert out["cash"]["differenza_punti"] == 5


def test_punti_level_past_target_plays_on():
    # RULINGS I5: both past the target with equal points: another smazzata.
    st = run({"mode": "punti", "target": 11, "script": [[6, 6, 0], [5, 5, 0], [1, 2, 0]]})
    out = ENGINE.outcome(st)
    assert out["deals"] == 3 and out["winner"] == 1 and out["points"] == [12, 13]


def test_smazzate_draw_without_ko():
    st = run({"mode": "smazzate", "deals": 2, "script": [[3, 1, 0], [1, 3, 0]]})
    out = ENGINE.outcome(st)
    assert out["draw"] and out["winner"] is None and out["vp"] == [10, 10] and out["reason"] == "pareggio"
    assert (
        cash_settlement(out, posta_partita=1000, posta_unitaria=100, perdita_massima=2000, rake_bp=500)[
            "amount"
        ]
        == 0
    )


def test_ko_spareggi_then_last_capture_loses():
    # I5: up to three spareggi; after the third, the line of the last capture loses.
    level = [2, 2, 1]
    st = run({"mode": "smazzate", "deals": 1, "ko": True, "script": [level, level, level, level]})
    out = ENGINE.outcome(st)
    assert out["deals"] == 4 and out["winner"] == 0 and out["reason"] == "ultima_presa"
    assert [h["spareggio"] for h in st["history"]] == [0, 1, 2, 3]


def test_ko_spareggio_won_on_the_smazzata_points():
    st = run({"mode": "smazzate", "deals": 1, "ko": True, "script": [[2, 2, 1], [0, 1, 0]]})
    out = ENGINE.outcome(st)
    assert out["winner"] == 1 and out["reason"] == "spareggio"


def test_tresette_style_ko_last_capture_wins():
    cfg = {
        "mode": "smazzate",
        "deals": 1,
        "ko": True,
        "spareggi": 0,
        "decider": "wins",
        "script": [[5, 5, 1]],
    }
    out = ENGINE.outcome(run(cfg))
    assert out["winner"] == 1 and out["deals"] == 1


def test_best_of_deals_won_ends_at_majority():
    cfg = {
        "mode": "smazzate",
        "deals": 3,
        "count": "vinte",
        "cash_divisor": 10,
        "script": [[93, 27, 0], [70, 50, 0]],
    }
    out = ENGINE.outcome(run(cfg))
    assert out["deals"] == 2 and out["winner"] == 0 and out["deals_won"] == [2, 0]
    assert out["cash"]["differenza_effettiva"] == 86 and out["cash"]["differenza_punti"] == 9


def test_cappotto_ends_the_match():
    out = ENGINE.outcome(run({"mode": "punti", "target": 51, "script": [[3, 30, 0, 1]]}))
    assert out["winner"] == 1 and out["reason"] == "cappotto" and out["cash"]["cappotto"]
    assert cash_settlement(out, posta_partita=100, posta_unitaria=10, perdita_massima=5000, rake_bp=500) == {
        "winner": 1,
        "loser": 0,
        "amount": 5000,
        "rake": 500,
        "won": 4500,
    }


def test_c1_example_33_14_capped_and_rake():
    # Rules: posta 10 €, punto 1 €, perdita massima 20 €, 33–14 → 29 € capped at 20 €.
    out = ENGINE.outcome(run({"mode": "punti", "target": 21, "script": [[33, 14, 0]]}))
    cash = cash_settlement(out, posta_partita=1000, posta_unitaria=100, perdita_massima=2000, rake_bp=500)
    assert cash["amount"] == 2000 and cash["rake"] == 200 and cash["won"] == 1800


def test_round_half_down():
    assert round_half_down(66, 10) == 7  # briscola 93–27
    assert round_half_down(65, 10) == 6  # 6,50 → 6
    assert round_half_down(375, 100) == 4  # burraco 2235–1860
    assert round_half_down(350, 100) == 3
    assert round_half_down(27, 10) == 3 and round_half_down(25, 10) == 2


def test_forfeit_penalty_and_tournament_vp():
    rng = SeededRng(5)
    st = ENGINE.new({"mode": "punti", "target": 11, "penalty_cap": 3}, TWO, rng)
    before = copy.deepcopy(st)
    with pytest.raises(IllegalAction):
        ENGINE.apply(st, 99, {"type": "abbandona"}, rng)
    assert st == before
    ENGINE.apply(st, 7, {"type": "abbandona"}, rng)
    out = ENGINE.outcome(st)
    assert out["winner"] == 0 and out["forfeit"] == {"line": 1, "kind": "abbandona", "penalty": 3, "seat": 7}
    assert out["vp"] == [20, 0] and out["cash"]["differenza_punti"] == 3
    with pytest.raises(HandOver):
        ENGINE.apply(st, 3, {"type": "abbandona"}, rng)


def test_forfeit_with_score_in_favour_of_offender_gives_zero_difference_and_min_14_vp():
    table = [{"mp": 0, "vp": [10, 10]}, {"mp": 1, "vp": [12, 8]}, {"mp": 10, "vp": [20, 0]}]
    rng = SeededRng(2)
    st = ENGINE.new({"mode": "punti", "target": 50, "vp_table": table, "script": [[20, 0, 0]]}, TWO, rng)
    play_seat = ENGINE.to_act(st)[0]
    ENGINE.apply(st, play_seat, ENGINE.sample_action(st, play_seat, rng), rng)
    ENGINE.apply(st, ENGINE.to_act(st)[0], ENGINE.sample_action(st, ENGINE.to_act(st)[0], rng), rng)
    assert st["totals"] == [20, 0]
    ENGINE.apply(st, 3, {"type": "tempo_scaduto"}, rng)  # line 0 (seat 3) times out while ahead
    out = ENGINE.outcome(st)
    assert out["winner"] == 1 and out["points"] == [20, 5]
    assert out["cash"]["differenza_punti"] == 0
    assert out["vp"] == [0, 14]


def test_timeout_action_forfeits_unless_autoplay():
    rng = SeededRng(3)
    st = ENGINE.new({}, TWO, rng)
    seat = ENGINE.to_act(st)[0]
    assert ENGINE.timeout_action(st, seat) == {"type": "tempo_scaduto"}
    st2 = ENGINE.new({"on_timeout": "autoplay"}, TWO, SeededRng(3))
    assert ENGINE.timeout_action(st2, seat)["type"] == "gioca"


def test_formats_positions_and_rotation():
    rng = SeededRng(4)
    st = ENGINE.new({"format": "coppie", "mode": "smazzate", "deals": 4, "script": [[1, 0, 0]]}, FOUR, rng)
    assert st["seats"] == [1, 2, 3, 4]
    first = st["dealer"]
    play_out(st, rng)
    assert [h["dealer"] for h in st["history"]] == [st["seats"][(first + i) % 4] for i in range(4)]
    out = ENGINE.outcome(st)
    assert out["lines"] == [[1, 3], [2, 4]] and out["per_seat"]["3"]["line"] == 0
    assert ENGINE.carry(st) == {"dealer_seat": st["seats"][(first + 4) % 4]}
    nxt = ENGINE.new({"format": "coppie"}, FOUR, rng, carry=ENGINE.carry(st))
    assert nxt["dealer"] == first
    four_in_two = ENGINE.new({"format": "4in2"}, TWO, rng)
    assert four_in_two["seats"] == [3, 7, 3, 7]
    fixed = ENGINE.new({"format": "coppie", "partners": [[1, 2], [3, 4]]}, FOUR, rng)
    assert fixed["seats"] == [1, 3, 2, 4]
    casual = ENGINE.new({"format": "coppie", "pairs": "casuali"}, FOUR, SeededRng(9))
    assert sorted(casual["seats"]) == [1, 2, 3, 4]
    with pytest.raises(ConfigError):
        ENGINE.new({"format": "coppie"}, TWO, rng)
    with pytest.raises(ConfigError):
        ENGINE.new({"carte_scoperte": True}, TWO, rng)
    with pytest.raises(ConfigError):
        ENGINE.new({"mode": "smazzate", "count": "vinte", "deals": 2}, TWO, rng)


def test_views_hide_hands_and_deck_and_carte_scoperte_show_partner():
    rng = SeededRng(6)
    st = ENGINE.new({"format": "coppie"}, FOUR, rng)
    for seat in (1, 2, 3, 4, None):
        text = json.dumps(ENGINE.view(st, seat))
        for p, hand in enumerate(st["deal"]["hands"]):
            assert (hand[0] in text) == (seat == st["seats"][p])
    st2 = ENGINE.new({"format": "coppie", "carte_scoperte": True}, FOUR, SeededRng(6))
    v = ENGINE.view(st2, 1)["deal"]["hands"]
    assert isinstance(v[0], list) and isinstance(v[2], list) and v[1] == 1 and v[3] == 1
    assert ENGINE.view(st2, None)["deal"]["hands"] == [1, 1, 1, 1]
    st3 = ENGINE.new({"format": "4in2"}, TWO, SeededRng(6))
    v3 = ENGINE.view(st3, 3)["deal"]["hands"]
    assert isinstance(v3[0], list) and isinstance(v3[2], list) and v3[1] == 1


def test_private_events_and_deck_log():
    rng = SeededRng(8)
    st = ENGINE.new({"mode": "smazzate", "deals": 3}, TWO, rng)
    assert len(st["deck_log"]) == 1
    events = []
    while not ENGINE.is_over(st):
        (seat,) = ENGINE.to_act(st)
        events += ENGINE.apply(st, seat, ENGINE.sample_action(st, seat, rng), rng)
    assert len(st["deck_log"]) == 3
    private = [e for e in events if e["type"] == "carte"]
    assert private and all(e["to"] == [e["seat"]] for e in private)
    assert loads(dumps(st)) == st


def test_illegal_actions_leave_state_unchanged():
    rng = SeededRng(10)
    st = ENGINE.new({}, TWO, rng)
    before = copy.deepcopy(st)
    (seat,) = ENGINE.to_act(st)
    other = 3 if seat == 7 else 7
    for s, a in [
        (other, ENGINE.sample_action(st, seat, rng)),
        (seat, {"type": "gioca", "card": "zz"}),
        (seat, {}),
        (seat, {"type": "abbandona", "x": 1}),
    ]:
        with pytest.raises(IllegalAction):
            ENGINE.apply(st, s, a, rng)
        assert st == before
    with pytest.raises(NotYourTurn):
        ENGINE.sample_action(st, other, rng)
    assert ENGINE.legal_actions(st, other) == [
        {
            "type": "abbandona",
            "label": "Abbandona",
            "confirm": "Vuoi abbandonare la partita? La partita sarà persa.",
        }
    ]


class RunningDeal(ScriptDeal):
    def running(self, st):
        d = st["deal"]
        if d["played"] == 0:
            return None
        return [d["played"] * 30, 0], 0


class RunningEngine(PartiteEngine):
    name = "toy_running"
    title = "Toy"
    rules = RunningDeal()
    defaults = {"script": [[1, 0, 0]]}


def test_vinco_subito_ends_the_match_at_once():
    eng = RunningEngine()
    rng = SeededRng(1)
    st = eng.new({"mode": "punti", "target": 61, "vinco_subito": True}, TWO, rng)
    moves = 0
    while not eng.is_over(st):
        (seat,) = eng.to_act(st)
        eng.apply(st, seat, eng.sample_action(st, seat, rng), rng)
        moves += 1
    out = eng.outcome(st)
    assert out["reason"] == "vinco_subito" and out["points"] == [61, 0] and moves == 4


def test_mp_example_21_12():
    # General rules: "se il giocatore A vince contro il giocatore B 21-12: A +9 MP, B -9 MP".
    out = ENGINE.outcome(run({"mode": "punti", "target": 21, "script": [[21, 12, 0]]}))
    assert out["mp"] == [9, -9] and out["per_seat"]["3"]["mp"] == 9 and out["per_seat"]["7"]["mp"] == -9


def test_rake_example_montepremi_10_euro_5_percent():
    # "Montepremi: Euro 10, % di Rake: 5% → € 10 * 2 * 0,05 = € 1.0; vincita effettiva € 9,00".
    out = ENGINE.outcome(run({"mode": "punti", "target": 11, "script": [[11, 11, 0], [1, 0, 0]]}))
    cash = cash_settlement(out, posta_partita=1000, posta_unitaria=0, perdita_massima=5000, rake_bp=500)
    assert (cash["amount"], cash["rake"], cash["won"]) == (1000, 100, 900)


def test_a_perdere_lower_wins_and_tie_to_last_capture():
    cfg = {
        "mode": "punti",
        "target": 21,
        "lower_wins": True,
        "decider": "wins",
        "script": [[10, 12, 0], [12, 9, 1]],
    }
    out = ENGINE.outcome(run(cfg))
    assert out["winner"] == 1 and out["points"] == [22, 21] and out["cash"]["differenza_punti"] == 1
    tie = {"mode": "smazzate", "deals": 1, "lower_wins": True, "decider": "wins", "decider_always": True}
    out2 = ENGINE.outcome(run({**tie, "script": [[4, 4, 1]]}))
    assert out2["winner"] == 1 and out2["reason"] == "ultima_presa"


def test_view_shows_the_table_settings_but_not_the_deck_log():
    st = run({"mode": "smazzate", "deals": 2})
    view = ENGINE.view(st, 3)
    assert "deck_log" not in json.dumps(view) and view["config"]["mode"] == "smazzate"


def test_cappotto_in_tournament_gets_max_vp_and_its_minimum_mp():
    table = [{"mp": 0, "vp": [10, 10]}, {"mp": 1, "vp": [12, 8]}, {"mp": 10, "vp": [20, 0]}]
    out = ENGINE.outcome(run({"mode": "punti", "target": 51, "vp_table": table, "script": [[3, 5, 0, 1]]}))
    assert out["winner"] == 1 and out["vp"] == [0, 20] and out["mp"] == [-10, 10]


@pytest.mark.parametrize(
    ("options", "key"),
    [
        ({"vp": {"win": 20, "draw": 10}}, "vp"),
        ({"vp": {"win": 20, "draw": "10", "loss": 0}}, "vp"),
        ({"vp_table": []}, "vp_table"),
        ({"vp_table": [{"mp": 1, "vp": [20, 0]}]}, "vp_table"),  # no row for a margin of 0
        ({"vp_table": [[0, 10, 10]]}, "vp_table"),
        ({"vp_table": [{"mp": 0, "vp": [10, -1]}]}, "vp_table"),
    ],
)
def test_a_malformed_vp_option_is_refused_when_the_table_is_set_up(options, key):
    """The match's end reads these options: a cash table or a tournament with a malformed one
    would fail only when a match ends, so the engine refuses it with the rest of the config."""
    with pytest.raises(ConfigError) as refused:
        ENGINE.validate_config({"mode": "punti", "target": 50, **options})
    assert refused.value.details["key"] == key
    grades = [{"mp": 0, "vp": [10, 10]}, {"mp": 5, "vp": [20, 0]}]
    assert ENGINE.validate_config({"mode": "punti", "target": 50, "vp_table": grades})["vp_table"] == grades
