"""Table behaviour of Telesina shared with poker: deal-out (T6), sitout and timeouts (P14), time bank
(G5), invito (P14/P15), rake (P12), showdown (P11), refusals (G6) and the giro pazzo entry (P13)."""

from __future__ import annotations

import copy

import pytest

from games import betting
from games.engine import IllegalAction, InvalidAmount, InvalidCards, NotYourTurn, UnknownAction, dumps
from games.poker5 import GIRO_PAZZO_VARIANTS, Poker5
from games.rng import SeededRng
from games.telesina import giro_pazzo, use_time_bank

from .telesina_support import E, Table

HANDS3 = {1: "8c Kc 9d Jd Th", 2: "8d Ad 9h 9s Jc", 3: "8h Qs Qh Tc Ts"}


def test_all_in_heads_up_deals_out_without_betting_or_choices():
    # T6: seat 1 all-in against one opponent, Sempre: the rest comes without any decision.
    t = Table(2, layout="croce", dist="sempre", chips={1: 50, 2: 1000}, hands={1: "Ah Ad 9c Tc Jc"})
    t.choose_newest()
    first = t.turn
    other = 2 if first == 1 else 1
    amount = t.types(first)["punto"]["amount"]["max"] if first == 1 else 40
    t.do(first, "punto", amount)
    t.do(other, "vedo", t.types(other)["vedo"]["amount"]["min"])
    if first == 2:  # seat 1 answered a bet of 40 with its last 40
        pass
    assert t.st["dealout"] is True
    assert [ev["type"] for ev in t.events].count("senza_puntate") == 1
    assert t.st["street"] == 4 and t.st["girate"] == 3
    assert t.phase in ("mostra", "fine")
    after = t.events[[ev["type"] for ev in t.events].index("senza_puntate") :]
    assert not [ev for ev in after if ev["type"] in ("scelto", "parola")]
    assert all(len(c) == 1 for c in t.st["covered"].values())  # the newest card was turned up


def test_one_all_in_and_two_still_betting_is_no_deal_out():
    t = Table(3, hands=HANDS3, layout="una", vele={"A": "9c"}, chips={1: 1000, 2: 30, 3: 1000})
    t.do(2, "punto", 20)
    t.do(3, "rilancio", 50)
    t.do(1, "vedo", 50)
    assert t.st["dealout"] is False and t.phase == "puntata"
    t.do(t.turn, "punto", 100)
    other = 1 if t.turn == 1 else 3
    t.do(t.turn, "vedo", 100)
    assert t.st["street"] == 3 and other in (1, 3)
    t.play_checks()
    while t.phase == "mostra":
        t.do(t.turn, "nascondo")
    pots = t.st["result"]["pots"]
    assert len(pots) == 2 and pots[0]["eligible"] == [1, 2, 3] and pots[1]["eligible"] == [1, 3]
    assert pots[0]["amount"] == 90 and pots[1]["amount"] == 2 * 30 + 2 * 100


def test_a_timeout_in_a_betting_round_checks_or_folds_and_sends_the_player_sitout():
    t = Table(3, hands=HANDS3, layout="nessuna")
    assert t.turn == 2
    ev = t.timeout(2)
    assert [e["type"] for e in ev][:3] == ["timeout", "sitout", "busso"]
    assert t.st["sitout"]["2"] is True
    t.do(3, "punto", 10)
    # seat 1 answers; seat 2 (sitout) facing a bet folds automatically (P14)
    t.do(1, "vedo", 10)
    assert 2 in t.st["b"]["folded"]
    assert t.st["street"] == 2
    # a sitout seat that may check, checks by itself
    t2 = Table(3, hands=HANDS3, layout="nessuna")
    t2.timeout(2)
    t2.do(3, "busso")
    t2.do(1, "busso")
    assert t2.st["street"] == 2 and 2 not in t2.st["b"]["folded"]
    assert 2 not in E.to_act(t2.st)
    t2.play_checks()
    assert 2 not in t2.st["b"]["folded"]


def test_an_all_in_sitout_player_plays_on():
    t = Table(3, hands=HANDS3, layout="nessuna", chips={1: 1000, 2: 30, 3: 1000})
    t.do(2, "punto", 20)
    t.do(3, "vedo", 20)
    t.do(1, "vedo", 20)
    t.st["sitout"]["2"] = True  # went sitout ("sitout" button) while all-in
    t.play_checks()
    while t.phase == "mostra":
        t.do(t.turn, "mostro")
    assert 2 in t.st["result"]["pots"][0]["eligible"]


def test_time_bank_never_regenerates_and_is_carried():
    t = Table(3, layout="nessuna", time_bank=30)
    assert use_time_bank(t.st, 2, 12) == 18
    assert use_time_bank(t.st, 2, 40) == 0
    t.play_checks()
    while t.phase == "mostra":
        t.do(t.turn, "nascondo")
    carry = E.carry(t.st)
    assert carry["time_bank"] == {"1": 30, "2": 0, "3": 30}
    nxt = E.new(t.cfg, t.seats_in, SeededRng(3), carry)
    assert nxt["time_bank"]["2"] == 0 and nxt["dealer"] == 1  # the deal moves clockwise


def test_cash_invito_is_asked_of_everyone_at_once():
    prefs = {s: {"invito_automatico": False} for s in (1, 2, 3)}
    t = Table(3, layout="nessuna", prefs=prefs)
    assert t.phase == "invito" and E.to_act(t.st) == [1, 2, 3]
    assert t.labels(1) == ["INVITO", "SITOUT"]
    t.do(2, "sitout")
    t.do(3, "invito", 10)
    t.do(1, "invito", 10)
    assert t.st["players"] == [1, 3] and t.st["sitout"]["2"] and t.st["missed"]["2"] == 1
    assert t.st["low"] == "9"  # P1: two players dealt in, deck 9–A


def test_not_enough_players_cancels_and_gives_the_inviti_back():
    prefs = {s: {"invito_automatico": False} for s in (1, 2)}
    t = Table(2, layout="nessuna", prefs=prefs)
    t.do(1, "invito", 10)
    t.timeout(2)
    assert t.phase == "fine" and E.outcome(t.st)["chips"] == {"1": 1000, "2": 1000}


def test_tournament_takes_the_invito_from_sitout_players_who_then_fold():
    t = Table(3, layout="nessuna", mode="tournament", sitout=(2,))
    assert t.st["b"]["total"]["2"] == 10 and 2 in t.st["b"]["folded"]
    assert t.st["players"] == [1, 3]


def test_credito_residuo_minimo_keeps_a_player_out():
    t = Table(3, layout="nessuna", chips={1: 1000, 2: 40, 3: 1000}, min_credit=50)
    assert t.st["players"] == [1, 3] and t.st["sitout"]["2"] is True


def test_rake_with_cap_on_cash_tables_only():
    t = Table(3, hands=HANDS3, layout="nessuna", rake_percent=500, rake_cap=4, invito=20)
    t.play_checks()
    while t.phase == "mostra":
        t.do(t.turn, "mostro")
    out = E.outcome(t.st)
    assert out["rake"] == 3  # floor(60 × 5 %) = 3, under the cap
    assert sum(out["chips"].values()) + out["rake"] == 3000
    t = Table(3, hands=HANDS3, layout="nessuna", rake_percent=500, rake_cap=4, invito=20, mode="tournament")
    assert t.st["cfg"]["rake_percent"] == 0


def test_uncontested_winner_takes_the_pot_and_may_show_or_hide():
    t = Table(3, hands=HANDS3, layout="croce")
    t.do(2, "punto", 10)
    t.do(3, "passo")
    t.do(1, "passo")
    assert t.phase == "mostra" and E.to_act(t.st) == [2]
    assert t.st["pots"][0]["winners"] == [2] and t.st["b"]["stack"]["2"] == 1020
    assert t.labels(2) == ["MOSTRO", "NASCONDO"]
    t.timeout(2)  # hidden on timeout
    assert t.phase == "fine" and t.st["hidden"] == [2] and "8d" not in dumps(E.view(t.st, 1))


def test_passo_with_nothing_bet_asks_confirmation():
    t = Table(3, hands=HANDS3, layout="nessuna")
    passo = t.types(2)["passo"]
    assert passo["confirm"] and t.labels(2) == ["BUSSO", "PUNTO", "PASSO"]
    t.do(2, "punto", 10)
    assert t.labels(3) == ["VEDO", "RILANCIO", "PASSO"] and "confirm" not in t.types(3)["passo"]


def test_resto_label_and_limits():
    t = Table(3, hands=HANDS3, layout="nessuna", chips={1: 1000, 2: 15, 3: 1000}, limit="PL")
    assert t.types(2)["punto"] == {"type": "punto", "label": "RESTO", "amount": {"min": 5, "max": 5}}
    t = Table(3, hands=HANDS3, layout="nessuna", limit="PL")
    assert t.types(2)["punto"]["amount"] == {"min": 10, "max": 30}  # pot limit: the pot of 30
    t = Table(3, hands=HANDS3, layout="nessuna", limit="FL")
    assert t.types(2)["punto"]["amount"] == {"min": 10, "max": 10}
    t.do(2, "punto", 10)
    assert t.types(3)["rilancio"]["amount"] == {"min": 20, "max": 20}


def test_showdown_order_and_automatic_showing():
    # P11: from the last bettor; a better hand shows by itself, a worse one is asked; NASCONDO hides.
    t = Table(3, hands=HANDS3, layout="nessuna")
    while t.st["street"] < 4:
        t.do(t.turn, "busso")
    assert t.turn == 3
    t.do(t.turn, "punto", 10)  # seat 3 (two pairs) bets last
    t.do(1, "vedo", 10)
    t.do(2, "vedo", 10)
    assert t.phase == "mostra"
    shows = [ev for ev in t.events if ev["type"] == "mostro"]
    assert shows[0]["seat"] == 3 and shows[0]["auto"] is True
    assert t.turn == 1  # seat 1 (K high) cannot beat it: asked
    t.do(1, "nascondo")
    t.do(2, "nascondo")
    assert t.st["result"]["pots"][0]["winners"] == [3]
    v = E.view(t.st, None)
    assert v["hands"]["3"]["shown"] and "8h" in v["hands"]["3"]["cards"]
    assert "8c" not in dumps(v) and "8d" not in dumps(v)


def test_refused_actions_change_nothing():
    t = Table(3, hands=HANDS3, layout="croce", dist="primo_giro")
    before = copy.deepcopy(t.st)
    for seat, action, err in [
        (1, {"type": "scopro", "card": "Ah"}, InvalidCards),
        (1, {"type": "scopro", "card": "8d"}, InvalidCards),
        (1, {"type": "busso"}, UnknownAction),
        (9, {"type": "scopro", "card": "8c"}, NotYourTurn),
        (1, {"type": "scopro", "card": "8c", "timeout": 1}, UnknownAction),
        (1, {"type": "scopro", "card": "8c", "x": 1}, IllegalAction),
    ]:
        with pytest.raises(err):
            E.apply(t.st, seat, action, t.rng)
        assert t.st == before
    t.choose_newest()
    before = copy.deepcopy(t.st)
    for amount in (0, 9, 10**6, "10", 10.0):
        with pytest.raises(IllegalAction):
            E.apply(t.st, t.turn, {"type": "punto", "amount": amount}, t.rng)
        assert t.st == before
    with pytest.raises(InvalidAmount):
        E.apply(t.st, t.turn, {"type": "punto", "amount": 5}, t.rng)


# ---------------------------------------------------------------------- giro pazzo (P13)


def test_giro_pazzo_panel_offers_telesina_with_vele_and_distribution(monkeypatch):
    specs = giro_pazzo.choices({}, {})
    assert len(specs) == 8 * 3
    assert {"type": "variante", "variant": "telesina", "vele": "h", "distribuzione": "sempre"} in [
        {k: v for k, v in s.items() if k != "label"} for s in specs
    ]
    prefs = {"vele_preferite": "croce", "usa_sempre_vele": True}
    assert [(s["vele"], s["distribuzione"]) for s in giro_pazzo.choices({}, prefs)] == [
        ("croce", "mai"),
        ("croce", "primo_giro"),
        ("croce", "sempre"),
    ]
    both = {**prefs, "distribuzione_preferita": "mai", "usa_sempre_distribuzione": True}
    assert len(giro_pazzo.choices({}, both)) == 1
    monkeypatch.setitem(GIRO_PAZZO_VARIANTS, "telesina", None)  # restored after the test
    giro_pazzo.register()
    assert GIRO_PAZZO_VARIANTS["telesina"] is giro_pazzo.choices


def _play_out(engine, state, rng):
    while not engine.is_over(state):
        seat = engine.to_act(state)[0]
        engine.apply(state, seat, engine.sample_action(state, seat, rng), rng)
    return engine.outcome(state)


def test_giro_pazzo_orbit_runs_on_telesina_and_returns_to_poker(monkeypatch):
    monkeypatch.setitem(GIRO_PAZZO_VARIANTS, "telesina", giro_pazzo.choices)  # what register() does
    poker = Poker5()
    rng = SeededRng(5)
    cfg = {"invito": 10, "giro_pazzo": True, "rake_percent": 500, "rake_cap": 50, "limit": "PL"}
    seats = [
        {"seat": s, "chips": 1000, "sitout": False, "prefs": {"invito_automatico": True}} for s in (1, 2, 3)
    ]
    carry = {"dealer": 3, "giro_pazzo": 3, "min_pair": "J", "pot": 0, "time_bank": {}, "missed": {}}
    dealers, total = [], 3000
    for vele in ("ascensore", "h", "una"):
        ps = poker.new(cfg, seats, rng, carry)
        assert ps["phase"] == "variante" and poker.to_act(ps) == [ps["dealer"]]
        labels = [sp["label"] for sp in poker.legal_actions(ps, ps["dealer"])]
        assert labels[0] == "CLASSICA" and len(labels) == 25
        poker.apply(
            ps,
            ps["dealer"],
            {"type": "variante", "variant": "telesina", "vele": vele, "distribuzione": "sempre"},
            rng,
        )
        assert poker.outcome(ps)["handoff"]["vele"] == vele
        ts = giro_pazzo.start_hand(cfg, seats, rng, poker.carry(ps))
        assert ts["dealer"] == ps["dealer"] and ts["vele"] == vele and ts["cfg"]["limit"] == "PL"
        assert E.view(ts, None)["giro_pazzo"] is True
        dealers.append(ts["dealer"])
        out = _play_out(E, ts, rng)
        assert sum(out["chips"].values()) + out["rake"] == total
        total -= out["rake"]
        carry = giro_pazzo.poker_carry(ts)
        seats = [{**s, "chips": out["chips"][str(s["seat"])]} for s in seats]
    assert dealers == [1, 2, 3] and carry["giro_pazzo"] == 0 and carry["min_pair"] == "J"
    back = poker.new(cfg, seats, rng, carry)
    assert back["giro_pazzo"] is False and back["dealer"] == 1 and back["phase"] != "variante"


def test_giro_pazzo_deal_takes_a_waiting_pot_as_dead_money():
    seats = [{"seat": s, "chips": 500, "sitout": False, "prefs": {"invito_automatico": True}} for s in (1, 2)]
    carry = {
        "dealer": 1,
        "giro_pazzo": 2,
        "min_pair": "Q",
        "pot": 40,
        "parol": None,
        "time_bank": {"1": 5, "2": 9},
        "missed": {},
        "handoff": {"variant": "telesina", "vele": "una", "distribuzione": "mai", "dealer": 2},
    }
    ts = giro_pazzo.start_hand({"invito": 10, "giro_pazzo": True}, seats, SeededRng(1), carry)
    assert betting.pot_total(ts["b"]) == 60 and ts["carried_in"] == 40 and ts["dealer"] == 2
    out = _play_out(E, ts, SeededRng(2))
    assert sum(out["chips"].values()) + out["rake"] == 1040
    back = giro_pazzo.poker_carry(ts)
    assert back == {
        "dealer": 2,
        "pot": 0,
        "time_bank": {"1": 5, "2": 9},
        "missed": {"1": 0, "2": 0},
        "min_pair": "J",
        "parol": None,
        "giro_pazzo": 1,
    }
    with pytest.raises(ValueError):
        giro_pazzo.start_hand({"invito": 10}, seats, SeededRng(1), {"dealer": 1})


def test_ten_missed_hands_sitting_out_stand_a_cash_player_up():
    t = Table(3, layout="nessuna", sitout=(2,), carry={"missed": {"2": 9}})
    with pytest.raises(IllegalAction):
        E.outcome(t.st)
    t.play_checks()
    while t.phase == "mostra":
        t.do(t.turn, "nascondo")
    out = E.outcome(t.st)
    assert out["sitout"] == [2] and out["stand_up"] == [2]
    assert E.carry(t.st)["missed"]["2"] == 10


@pytest.mark.parametrize(("rake_cap", "rake"), [(None, 150), (100, 100)])
def test_the_rules_rake_example(rake_cap, rake):
    """Rules, Telesina "Regole specifiche dei tavoli cash": 3 players put € 10 each in the pot, rake 5 %:
    € 30 × 5 % = € 1,50; with a cap of € 1 the rake is € 1 and the best hand wins € 29 = € 30 − € 1."""
    chips = {1: 5_000, 2: 5_000, 3: 5_000}
    t = Table(
        3, hands=HANDS3, layout="nessuna", chips=chips, invito=1_000, rake_percent=500, rake_cap=rake_cap
    )
    assert sum(t.st["b"]["total"].values()) == 3_000  # the three € 10 in the pot
    t.play_checks()
    while t.phase == "mostra":
        t.do(t.turn, "mostro")
    out = E.outcome(t.st)
    assert out["rake"] == rake
    (winner,) = t.st["pots"][0]["winners"]
    assert out["chips"][str(winner)] == 5_000 - 1_000 + 3_000 - rake
    assert sorted(c for s, c in out["chips"].items() if s != str(winner)) == [4_000, 4_000]
