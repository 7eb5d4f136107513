"""Poker 5 carte scenarios, phase by phase, from the rules' wording (000/002/003/004) and RULINGS."""

import pytest

from games import registry
from games.engine import ConfigError, InvalidAmount, NotYourTurn, UnknownAction
from games.poker5 import Poker5, use_time_bank
from games.rng import SeededRng


def test_registered():
    engine = registry.get("poker5")
    assert isinstance(engine, Poker5)
    assert (engine.family, engine.min_seats, engine.max_seats) == ("puntate", 2, 6)


@pytest.mark.parametrize(
    "bad",
    [
        {"limit": "XL"},
        {"invito": 0},
        {"invito": 1.5},
        {"rake_percent": 1001},  # at most 10 %
        {"rake_cap": -1},
        {"cash": False},  # the tournament switch is ``mode``
        {"mode": "torneo"},
        {"colour": "red"},
    ],
)
def test_config_is_validated(bad):
    with pytest.raises(ConfigError):
        Poker5().validate_config(bad)


@pytest.mark.parametrize("numbers", [[1, 100], [-1, 2], [1, 1], [True, 2], [1.0, 2]])
def test_seat_numbers_outside_0_to_99_repeated_or_not_ints_are_refused(numbers):
    seats = [{"seat": n, "chips": 1000} for n in numbers]
    with pytest.raises(ConfigError, match="Posto non valido"):
        Poker5().new({"invito": 10}, seats, SeededRng(1))
    assert Poker5().new(
        {"invito": 10}, [{"seat": 0, "chips": 1000}, {"seat": 99, "chips": 1000}], SeededRng(1)
    )


def test_config_defaults_and_tournament_has_no_rake():
    cfg = Poker5().validate_config({"invito": 50, "mode": "tournament", "rake_percent": 500, "rake_cap": 100})
    assert cfg["min_credit"] == 50 and cfg["limit"] == "NL"
    assert cfg["rake_percent"] == 0  # P12: rake on cash tables only


# ---------------------------------------------------------------- invito (P14, P15)


def test_cash_invito_asks_invito_or_sitout(table):
    t = table(3, dealer=3, prefs={1: {"invito_automatico": False}, 2: {"invito_automatico": False}})
    assert t.st["phase"] == "invito" and t.e.to_act(t.st) == [1, 2]  # seat 3 puts it automatically
    assert t.labels(1) == ["INVITO", "SITOUT"]
    assert t.types(1)["invito"]["amount"] == {"min": 10, "max": 10}
    t.do(2, "sitout")
    t.do(1, "invito", 10)
    assert t.st["players"] == [1, 3] and t.st["sitout"]["2"] is True
    assert t.st["b"]["stack"] == {"1": 990, "2": 1000, "3": 990}


def test_cash_sitout_and_low_credit_are_not_dealt_in(table):
    t = table(4, chips={1: 1000, 2: 1000, 3: 30, 4: 1000}, dealer=4, sitout=(2,), min_credit=50)
    assert t.st["players"] == [1, 4]
    assert t.st["sitout"]["3"] is True  # P15: below the credito residuo minimo
    assert t.st["missed"] == {"1": 0, "2": 1, "3": 1, "4": 0}


def test_tournament_takes_the_invito_from_sitout_players_who_then_fold(table):
    t = table(3, dealer=3, mode="tournament", sitout=(2,))
    assert t.st["b"]["total"] == {"1": 10, "2": 10, "3": 10}  # P14
    assert 2 in t.st["b"]["folded"] and t.st["players"] == [1, 3]


# ---------------------------------------------------------------- apertura al buio (P7)


def test_buio_controbuio_over_amounts_and_see_or_pass(table):
    t = table(4, dealer=4)
    assert t.st["phase"] == "buio" and t.turn == 1
    assert t.specs(1) == [
        {"type": "buio", "label": "BUIO", "amount": {"min": 40, "max": 40}},  # = the pot
        {"type": "dai_carte", "label": "DAI CARTE"},
    ]
    t.do(1, "buio", 40)
    assert t.labels(2) == ["CONTROBUIO", "DAI CARTE"] and t.types(2)["buio"]["amount"]["min"] == 80
    t.do(2, "buio", 80)
    assert t.labels(3) == ["OVER", "DAI CARTE"] and t.types(3)["buio"]["amount"]["min"] == 160
    t.do(3, "buio", 160)
    # Dealt: everybody but the last blind raiser may only see or pass, starting at his left.
    assert t.st["phase"] == "apertura" and t.turn == 4
    assert t.labels(4) == ["VEDO", "PASSO"] and t.types(4)["vedo"]["amount"]["min"] == 160
    t.do(4, "passo")
    assert t.labels(1) == ["VEDO", "PASSO"] and t.types(1)["vedo"]["amount"]["min"] == 120
    t.do(1, "vedo", 120)
    t.do(2, "passo")
    # Someone saw: the over may raise or say VA BENE.
    assert t.labels(3) == ["VA BENE", "RILANCIO"]
    t.do(3, "va_bene")
    assert t.st["phase"] == "cambio"
    t.servito_all()
    # P7: after the cambio the last blind raiser speaks last: the first is at his left (4 folded).
    assert t.st["phase"] == "puntata" and t.turn == 1


def test_buio_nobody_sees_the_blind_raiser_wins(table):
    t = table(3, dealer=3)
    t.do(1, "buio", 30)
    t.do(2, "dai_carte")
    assert t.st["phase"] == "apertura" and t.turn == 2
    t.do(2, "passo")
    t.do(3, "passo")
    assert t.st["phase"] == "mostra" and t.e.to_act(t.st) == [1]  # the winner may show or hide
    assert t.labels(1) == ["MOSTRO", "NASCONDO"]
    t.do(1, "nascondo")
    out = t.e.outcome(t.st)
    assert out["chips"] == {"1": 1020, "2": 990, "3": 990}


def test_blind_raiser_raises_and_normal_betting_follows(table):
    t = table(3, dealer=3)
    t.do(1, "buio", 30)
    t.do(2, "dai_carte")
    t.do(2, "vedo", 30)
    t.do(3, "passo")
    t.do(1, "rilancio", 60)
    assert t.turn == 2 and set(t.types(2)) == {"vedo", "rilancio", "passo"}


def test_buio_only_with_enough_chips_and_only_at_j(table):
    t = table(3, chips={1: 25, 2: 1000, 3: 1000}, dealer=3)
    assert t.st["phase"] == "apertura"  # seat 1 cannot pay the pot (30)
    t = table(3, dealer=3, carry={"min_pair": "Q", "pot": 30})
    assert t.st["phase"] == "apertura" and t.st["blind"] is None


def test_no_over_with_two_players(table):
    t = table(2, dealer=2)
    t.do(1, "buio", 20)
    t.do(2, "buio", 40)
    assert t.st["phase"] == "apertura"  # the blinds go round once


# ---------------------------------------------------------------- apertura (P5)


def test_opening_needs_a_pair_of_j(table):
    t = table(3, dealer=3)
    t.dai_carte()
    t.rig({1: "Th Td 8c 9s Qh", 2: "Jh Jd 8d 9h Ks", 3: "Ah Kd Qc 9c 8s"})
    assert t.labels(1) == ["BUSSO", "PASSO"]  # a pair of 10 cannot open
    assert t.types(1)["passo"]["confirm"]  # P9: passing with nothing bet asks confirmation
    t.do(1, "busso")
    assert t.labels(2) == ["PUNTO", "BUSSO", "PASSO"]
    assert t.types(2)["punto"]["amount"] == {"min": 10, "max": 990}
    t.do(2, "punto", 25)
    assert t.st["opened"] == 2
    assert set(t.types(3)) == {"vedo", "rilancio", "passo"}
    t.do(3, "passo")
    assert set(t.types(1)) == {"vedo", "rilancio", "passo"}  # who passed the word may still see


def test_opening_with_a_suited_four_ace_low(table):
    # P5 + P3: four of one suit in sequence, the ace below the lowest rank (8 with 3 players).
    t = table(3, dealer=3, carry={"min_pair": "K", "pot": 0})
    t.rig({1: "Ah 8h 9h Th Ks", 2: "Qh Qd 8d 9d Kd", 3: "Jh Jd Jc 9c 8s"})
    assert "punto" in t.types(1)
    t.do(1, "busso")
    assert "punto" not in t.types(2)  # a pair of Q at the K minimum
    t.do(2, "busso")
    assert "punto" in t.types(3)  # a tris is above a pair


def test_escalation_j_q_k_then_back_to_j(table):
    carry = None
    seen = []
    for _ in range(4):
        t = table(3, carry=carry, seed=5)
        seen.append(t.st["min_pair"])
        t.dai_carte()
        while t.st["phase"] == "apertura":
            t.do(t.turn, "busso")
        assert t.e.outcome(t.st)["carried_out"] == t.st["carried_in"] + 30
        carry = t.e.carry(t.st)
    assert seen == ["J", "Q", "K", "K"]  # P5: it stays at K until the pot is won
    assert carry["pot"] == 120
    t = table(3, carry=carry, seed=5)
    assert t.st["b"]["dead"] == 120 and t.st["min_pair"] == "K"
    first = t.turn
    others = [s for s in (1, 2, 3) if s != first]
    t.rig({first: "Kh Kd 8c 9s Qh", others[0]: "Jh Jd 8d 9h Ks", others[1]: "Ah Ad Qc 9c 8s"})
    t.do(first, "punto", 10)
    t.do(t.turn, "passo")
    t.do(t.turn, "passo")
    t.do(first, "nascondo")
    out = t.e.outcome(t.st)
    assert out["chips"][str(first)] == 1000 - 20 + 150 + 10 and out["carried_out"] == 0
    assert t.e.carry(t.st)["min_pair"] == "J"


# ---------------------------------------------------------------- all-in on the invito


def test_tournament_all_in_on_invito_nobody_opens_goes_to_cambio(table):
    t = table(3, chips={1: 6, 2: 1000, 3: 1000}, dealer=3, mode="tournament")
    assert t.st["b"]["stack"]["1"] == 0
    t.dai_carte()
    assert t.turn == 2  # the all-in seat is not asked to open in a tournament
    t.do(2, "busso")
    t.do(3, "busso")
    assert t.st["phase"] == "cambio" and t.turn == 1  # everyone who put the invito changes


def test_cash_all_in_player_is_asked_to_open_for_nothing(table):
    t = table(3, chips={1: 6, 2: 1000, 3: 1000}, dealer=3, min_credit=5)
    t.rig({1: "Kh Kd 8c 9s Qh", 2: "Jh Td 8d 9h Ks", 3: "Ah Qd Jc 9c 8s"})
    assert t.turn == 1 and t.specs(1)[0] == {
        "type": "punto",
        "label": "RESTO",
        "amount": {"min": 0, "max": 0},
    }
    t.do(1, "punto", 0)
    assert t.st["opened"] == 1 and t.st["b"]["stack"]["1"] == 0
    assert set(t.types(2)) == {"busso", "punto", "passo"}


def test_cash_nobody_opens_with_an_all_in_player_recollects(table):
    t = table(3, chips={1: 6, 2: 1000, 3: 1000}, dealer=3, min_credit=5)
    for s in (1, 2, 3):
        t.do(s, "busso")
    assert t.e.is_over(t.st) and t.e.carry(t.st)["min_pair"] == "Q"


# ---------------------------------------------------------------- cambio carte (P8)


def test_fourth_card_is_dealt_last_in_turn(table):
    t = table(3, dealer=3)
    t.dai_carte()
    t.rig(
        {1: "Kh Kd 8c 9s Qh", 2: "Jh Td 8d 9h Ks", 3: "Ah Qd Jc 9c 8s"}, stock="As Ac Ad Kc Qc Qs Js Ts Tc Th"
    )
    t.do(1, "punto", 10)
    t.do(2, "vedo", 10)
    t.do(3, "vedo", 10)
    assert t.st["phase"] == "cambio" and t.turn == 1
    assert len(t.specs(1)) == 31 and t.labels(1)[0] == "CONFERMA"
    t.do(1, "cambio", cards=["8c", "9s", "Qh", "Kd"])
    assert t.st["hands"]["1"] == ["Kh", "As", "Ac", "Ad"]  # three now, the fourth later
    t.do(2, "cambio", cards=["8d", "9h"])
    assert t.st["hands"]["2"] == ["Jh", "Td", "Ks", "Kc", "Qc"]
    t.do(3, "cambio", cards=["8s", "9c", "Jc", "Qd"])
    assert t.st["hands"]["3"] == ["Ah", "Qs", "Js", "Ts", "Th"]
    assert t.st["hands"]["1"] == ["Kh", "As", "Ac", "Ad", "Tc"]
    assert t.st["phase"] == "puntata"


def test_stock_exhaustion_reshuffles_only_the_discards(table):
    t = table(6, dealer=6)
    t.dai_carte()
    t.rig(
        {
            1: "Ah Ad 5h 6d 7c",
            2: "Kh Kd 5d 6c 7s",
            3: "Qh Qd 5c 6s 8h",
            4: "Jh Jd 5s 7h 8d",
            5: "Th Td 6h 7d 8c",
            6: "9h 9d 8s 9c Tc",
        }
    )
    t.do(1, "punto", 10)
    for _ in range(5):
        t.do(t.turn, "vedo", 10)
    assert t.st["phase"] == "cambio" and len(t.st["stock"]) == 10
    discarded = []
    while t.st["phase"] == "cambio":
        seat = t.turn
        cards = t.st["hands"][str(seat)][:4]
        discarded += cards
        t.do(seat, "cambio", cards=cards)
    assert len(t.st["deck_log"]) == 2
    assert set(t.st["deck_log"][1]) <= set(discarded)  # P8: only the discards
    held = [c for h in t.st["hands"].values() for c in h]
    assert len(held) == len(set(held)) == 30


def test_cambio_refuses_bad_cards(table):
    t = table(3, dealer=3)
    t.dai_carte()
    for _ in range(3):
        t.do(t.turn, "busso")
    assert t.e.is_over(t.st)


# ---------------------------------------------------------------- last betting round (P9, P10)


def _to_last_round(t, opener=2):
    t.dai_carte()
    t.rig({1: "Kh Kd 8c 9s Qh", 2: "Jh Jd 8d 9h Ks", 3: "Ah Qd Jc 9c 8s"})
    t.do(1, "busso")
    t.do(2, "punto", 20)
    t.do(3, "rilancio", 40)  # to 40 = 2 × 20: raising stays open
    t.do(1, "vedo", 40)
    t.do(2, "vedo", 20)
    t.servito_all()


def test_first_to_speak_is_the_last_raiser_of_the_opening(table):
    t = table(3, dealer=3)
    _to_last_round(t)
    assert t.st["phase"] == "puntata" and t.turn == 3  # P9
    assert t.labels(3) == ["BUSSO", "PAROL", "PUNTO", "PASSO"]
    assert t.types(3)["passo"]["confirm"]


def test_busso_cancels_parol_and_the_pot_is_played(table):
    t = table(3, dealer=3)
    _to_last_round(t)
    t.do(3, "parol")
    t.do(1, "busso")
    assert "parol" not in t.types(2)
    t.do(2, "busso")
    assert t.st["phase"] in ("mostra", "fine")


def test_a_bet_after_parol_makes_the_parol_players_speak_again(table):
    t = table(3, dealer=3)
    _to_last_round(t)
    t.do(3, "parol")
    t.do(1, "punto", 50)
    t.do(2, "vedo", 50)
    assert t.turn == 3 and set(t.types(3)) == {"vedo", "rilancio", "passo"}


def test_parol_across_two_hands_with_adeguamento(table):
    t = table(3, dealer=3)
    t.dai_carte()
    t.rig({1: "Kh Kd 8c 9s Qh", 2: "Jh Td 8d 9h Ks", 3: "Ah Qd Jc 9c 8s"})
    t.do(1, "punto", 20)
    t.do(2, "vedo", 20)
    t.do(3, "passo")
    t.servito_all()
    assert t.turn == 1
    t.do(1, "parol")
    t.do(2, "parol")
    # P10: the pot is not awarded; seat 3 (dealt in, not at the end) may pay the difference.
    assert t.st["phase"] == "parol" and t.e.to_act(t.st) == [3]
    assert t.specs(3) == [
        {"type": "partecipo", "label": "PARTECIPO", "amount": {"min": 20, "max": 20}},
        {"type": "passo", "label": "PASSO"},
    ]
    t.do(3, "partecipo", 20)
    out = t.e.outcome(t.st)
    assert out["carried_out"] == 90 and out["rake"] == 0
    assert sum(out["chips"].values()) + 90 == 3000
    carry = t.e.carry(t.st)
    assert carry["parol"] == {"seats": [1, 2, 3]} and carry["min_pair"] == "K"
    # Next hand: no invito, opening at K, the minimum opening bet is the pot.
    specs = [{"seat": s, "chips": int(out["chips"][str(s)]), "sitout": False, "prefs": {}} for s in (1, 2, 3)]
    st = t.e.new(t.cfg, specs, t.rng, carry)
    assert st["parol_hand"] and st["b"]["total"] == {"1": 0, "2": 0, "3": 0} and st["b"]["dead"] == 90
    assert st["phase"] == "apertura" and st["min_pair"] == "K"
    seat = st["turn"]
    st["hands"][str(seat)] = ["Kh", "Kd", "8c", "9s", "Qh"]
    punto = {s["type"]: s for s in t.e.legal_actions(st, seat)}["punto"]
    assert punto["amount"]["min"] == 90


def test_parol_pot_only_for_those_who_took_part(table):
    t = table(3, dealer=3)
    t.dai_carte()
    t.rig({1: "Kh Kd 8c 9s Qh", 2: "Jh Td 8d 9h Ks", 3: "Ah Qd Jc 9c 8s"})
    t.do(1, "punto", 20)
    t.do(2, "vedo", 20)
    t.do(3, "passo")
    t.servito_all()
    t.do(1, "parol")
    t.do(2, "parol")
    t.do(3, "passo")
    carry = t.e.carry(t.st)
    assert carry["parol"] == {"seats": [1, 2]} and carry["pot"] == 70
    specs = [{"seat": s, "chips": 900, "sitout": s == 2, "prefs": {}} for s in (1, 2, 3)]
    st = t.e.new(t.cfg, specs, t.rng, carry)
    assert st["players"] == [2, 1]  # nobody else takes part; a sitout parol player does


def test_no_parol_with_a_player_all_in(table):
    t = table(3, chips={1: 1000, 2: 40, 3: 1000}, dealer=3)
    t.dai_carte()
    t.rig({1: "Kh Kd 8c 9s Qh", 2: "Jh Td 8d 9h Ks", 3: "Ah Qd Jc 9c 8s"})
    t.do(1, "punto", 20)
    assert t.labels(2) == ["VEDO", "RESTO", "PASSO"]  # NB.1: the raise is the whole credit
    t.do(2, "rilancio", 30)
    t.do(3, "vedo", 30)
    t.do(1, "vedo", 10)
    t.servito_all()
    assert "parol" not in t.types(t.turn)  # P10


# ---------------------------------------------------------------- showdown (P11), side pots, rake (P12)


def test_showdown_order_auto_show_and_hide(table):
    t = table(3, dealer=3)
    t.dai_carte()
    t.rig({1: "Ah Ad Ac 9s 8h", 2: "Kh Kd 8c 9c Qh", 3: "Qs Qd 8d 9h Ks"})
    t.do(1, "busso")
    t.do(2, "punto", 10)
    t.do(3, "vedo", 10)
    t.do(1, "vedo", 10)
    t.servito_all()
    assert t.turn == 2
    t.do(2, "punto", 20)
    t.do(3, "vedo", 20)
    t.do(1, "vedo", 20)
    # From the last raiser (2): 2 shows; 3 (worse) is asked; 1 (better) shows automatically.
    assert t.st["shown"] == {"2": ["Kh", "Kd", "8c", "9c", "Qh"]} and t.e.to_act(t.st) == [3]
    t.do(3, "nascondo")
    assert set(t.st["shown"]) == {"1", "2"} and t.st["hidden"] == [3]
    out = t.e.outcome(t.st)
    assert out["chips"] == {"1": 1080, "2": 960, "3": 960}
    for seat in (None, 1, 2):
        assert "Qs" not in str(t.e.view(t.st, seat)["hands"]["3"])


def test_show_preference_applies(table):
    t = table(3, dealer=3, prefs={3: {"mostra_nascondi": "mostra"}})
    t.dai_carte()
    t.rig({1: "Ah Ad Ac 9s 8h", 2: "Kh Kd 8c 9c Qh", 3: "Qs Qd 8d 9h Ks"})
    t.do(1, "busso")
    t.do(2, "punto", 10)
    t.do(3, "vedo", 10)
    t.do(1, "vedo", 10)
    t.servito_all()
    for _ in range(3):
        t.do(t.turn, "busso")
    assert t.e.is_over(t.st) and set(t.st["shown"]) == {"1", "2", "3"}


def test_side_pots_and_rake_with_cap(table):
    t = table(3, chips={1: 60, 2: 1000, 3: 1000}, dealer=3, rake_percent=500, rake_cap=12)
    t.dai_carte()
    t.rig({1: "Ah Ad Ac 9s 8h", 2: "Kh Kd 8c 9c Qh", 3: "Qs Qd 8d 9h Ks"})
    t.do(1, "busso")
    t.do(2, "punto", 100)
    t.do(3, "vedo", 100)
    assert t.labels(1) == ["RESTO", "PASSO"]
    t.do(1, "vedo", 50)  # all-in
    t.servito_all()
    t.do(2, "busso")
    t.do(3, "busso")
    t.do(3, "nascondo")
    out = t.e.outcome(t.st)
    pots = [(p["amount"], p["eligible"], p["winners"], p["rake"]) for p in out["pots"]]
    assert pots == [(180, [1, 2, 3], [1], 9), (100, [2, 3], [2], 3)]  # cap 12: main pot first
    assert out["rake"] == 12
    assert out["chips"] == {"1": 171, "2": 987, "3": 890}
    assert sum(out["chips"].values()) + out["rake"] == 2060


def test_uncalled_bet_is_returned_before_rake(table):
    t = table(2, dealer=2, rake_percent=1000)
    t.dai_carte()
    t.rig({1: "Ah Ad Ac 9s Th", 2: "Kh Kd Tc 9c Qh"})
    t.do(1, "punto", 500)
    t.do(2, "passo")
    t.do(1, "nascondo")
    out = t.e.outcome(t.st)
    assert out["pots"][0]["amount"] == 20 and out["rake"] == 2
    assert out["chips"] == {"1": 1008, "2": 990}


# ---------------------------------------------------------------- sitout, timeout, time bank (P14, G5)


def test_timeout_folds_facing_a_bet_and_sends_sitout(table):
    t = table(3, dealer=3)
    t.dai_carte()
    t.rig({1: "Kh Kd 8c 9s Qh", 2: "Jh Td 8d 9h Ks", 3: "Ah Qd Jc 9c 8s"})
    assert t.e.timeout_action(t.st, 1) == {"type": "busso"}
    t.do(1, "punto", 20)
    action = t.e.timeout_action(t.st, 2)
    assert action == {"type": "passo"}
    t.do(2, "passo", timeout=True)
    assert t.st["sitout"]["2"] is True and 2 in t.st["b"]["folded"]


def test_sitout_player_checks_automatically_when_allowed(table):
    t = table(3, dealer=3)
    t.dai_carte()
    t.rig({1: "Kh Kd 8c 9s Qh", 2: "Jh Td 8d 9h Ks", 3: "Ah Qd Jc 9c 8s"})
    t.do(1, "punto", 20)
    t.do(2, "vedo", 20)
    t.do(3, "vedo", 20)
    t.do(1, "cambio", cards=[])
    t.do(2, "cambio", cards=[], timeout=True)  # not a betting phase: no sitout
    assert t.st["sitout"]["2"] is False
    t.do(3, "cambio", cards=[])
    t.do(1, "busso", timeout=True)  # P14: busso, stays in the hand, goes sitout
    assert t.st["sitout"]["1"] is True and 1 not in t.st["b"]["folded"]
    t.do(2, "busso")
    t.do(3, "punto", 30)
    # seat 1 is sitout and must put chips in: folds automatically; seat 2 is asked.
    assert 1 in t.st["b"]["folded"] and t.turn == 2


def test_time_bank_does_not_regenerate(table):
    t = table(2, dealer=2, time_bank=60)
    assert t.st["time_bank"] == {"1": 60, "2": 60}
    assert use_time_bank(t.st, 1, 25) == 35
    t.dai_carte()
    t.do(1, "passo")
    t.do(2, "nascondo")
    carry = t.e.carry(t.st)
    assert carry["time_bank"]["1"] == 35
    t2 = table(2, carry=carry, time_bank=60)
    assert t2.st["time_bank"]["1"] == 35


# ---------------------------------------------------------------- giro pazzo (P13)


def test_full_at_showdown_starts_a_giro_pazzo_of_one_orbit(table):
    t = table(3, dealer=3, giro_pazzo=True)
    t.dai_carte()
    t.rig({1: "Ah Ad Ac 9s 9h", 2: "Kh Kd 8c 9c Qh", 3: "Qs Qd 8d Th Ks"})
    t.do(1, "punto", 10)
    t.do(2, "vedo", 10)
    t.do(3, "passo")
    t.servito_all()
    t.do(1, "busso")
    t.do(2, "busso")
    while not t.e.is_over(t.st):
        t.do(t.turn, "nascondo")
    carry = t.e.carry(t.st)
    assert carry["giro_pazzo"] == 3
    left = []
    for _ in range(4):
        t2 = table(3, carry=carry, giro_pazzo=True)
        left.append(t2.st["giro_pazzo"])
        t2.dai_carte()
        while not t2.e.is_over(t2.st):
            t2.do(t2.turn, "busso")
        carry = t2.e.carry(t2.st)
    assert left == [True, True, True, False]


# ---------------------------------------------------------------- refusals (G6)


def test_illegal_actions_change_nothing(table):
    t = table(3, dealer=3)
    t.dai_carte()
    t.rig({1: "Th Td 8c 9s Qh", 2: "Jh Jd 8d 9h Ks", 3: "Ah Qd Jc 9c 8s"})
    before = t.snapshot()
    with pytest.raises(NotYourTurn):
        t.do(2, "busso")
    with pytest.raises(UnknownAction):
        t.do(1, "punto", 20)  # a pair of 10 cannot open
    t.do(1, "busso")
    before = t.snapshot()
    for amount in (9, 991, -1, True, "20", 20.0):
        with pytest.raises(InvalidAmount):
            t.do(2, "punto", amount)
    with pytest.raises(UnknownAction):
        t.e.apply(t.st, 2, "punto", t.rng)
    with pytest.raises(UnknownAction):
        t.do(2, "busso", timeout=False)
    assert t.st == before


def test_giro_pazzo_choice_is_automatic_with_only_classica_and_a_variant_plugs_in(table, monkeypatch):
    from games.poker5 import engine as p5

    t = table(3, carry={"giro_pazzo": 2, "dealer": 2}, giro_pazzo=True)
    assert t.st["phase"] != "variante" and t.st["variant"] == "classica"  # only Classica: no question

    def telesina(cfg, prefs):
        return [
            {
                "type": "variante",
                "variant": "telesina",
                "vele": v,
                "distribuzione": "mai",
                "label": "TELESINA",
            }
            for v in ("croce", "h")
        ]

    monkeypatch.setitem(p5.GIRO_PAZZO_VARIANTS, "telesina", telesina)
    t = table(3, carry={"giro_pazzo": 2, "dealer": 2}, giro_pazzo=True)
    assert t.st["phase"] == "variante" and t.e.to_act(t.st) == [3]  # the dealer chooses
    assert t.labels(3) == ["CLASSICA", "TELESINA", "TELESINA"]
    assert t.e.timeout_action(t.st, 3) == {"type": "variante", "variant": "classica"}
    t.do(3, "variante", variant="telesina", vele="h", distribuzione="mai")
    assert t.e.is_over(t.st)
    out, carry = t.e.outcome(t.st), t.e.carry(t.st)
    assert out["chips"] == {"1": 1000, "2": 1000, "3": 1000} and out["carried_out"] == 0
    assert carry["handoff"] == {"variant": "telesina", "vele": "h", "distribuzione": "mai", "dealer": 3}
    assert carry["dealer"] == 2 and carry["giro_pazzo"] == 2  # the variant's engine deals with dealer 3


def test_ten_missed_hands_stand_the_player_up(table):
    t = table(3, sitout=(2,), carry={"missed": {"2": 9}})
    while not t.e.is_over(t.st):
        t.do(t.e.to_act(t.st)[0], t.e.timeout_action(t.st, t.e.to_act(t.st)[0])["type"])
    assert t.e.outcome(t.st)["stand_up"] == [2]  # P15


def test_pot_limit_in_a_hand_is_the_rules_example(table):
    # 5 players, invito 20: 100 in the pot; one opens 20, one sees 20: the next may put up to 160.
    t = table(5, dealer=5, invito=20, limit="PL")
    t.dai_carte()
    t.rig({1: "Ah Ad 6c 7s 8h", 2: "Kh Qd 6d 7h Ks", 3: "Qs Qh 6h 9h 8c"})
    t.do(1, "punto", 20)
    t.do(2, "vedo", 20)
    assert t.types(3)["rilancio"]["amount"] == {"min": 40, "max": 160}


def test_fixed_limit_bets_are_the_invito(table):
    t = table(3, dealer=3, limit="FL")
    t.dai_carte()
    t.rig({1: "Ah Ad 8c 9s Th", 2: "Kh Qd 8d 9h Ks", 3: "Qs Qh Jh 9c 8s"})
    assert t.types(1)["punto"]["amount"] == {"min": 10, "max": 10}
    t.do(1, "punto", 10)
    assert t.types(2)["rilancio"]["amount"] == {"min": 20, "max": 20}


def _showdown_table(table, **kw):
    t = table(3, dealer=3, **kw)
    t.dai_carte()
    t.rig({1: "Ah Ad Ac 9s 8h", 2: "Kh Kd 8c 9c Qh", 3: "Qs Qd 8d 9h Ks"})
    return t


def test_all_in_raiser_shows_even_when_beaten(table):
    # P11: who went all-in raising shows automatically.
    t = _showdown_table(table, chips={1: 1000, 2: 1000, 3: 60})
    t.do(1, "punto", 10)
    t.do(2, "vedo", 10)
    t.do(3, "rilancio", 50)  # RESTO, to 50
    t.do(1, "vedo", 40)
    t.do(2, "vedo", 40)
    t.servito_all()
    t.do(1, "busso")
    t.do(2, "busso")
    # No bet in the final round: from its first speaker (1, as 3 is all-in); 2 is asked and hides.
    assert t.st["shown"].keys() == {"1"} and t.e.to_act(t.st) == [2]
    t.do(2, "nascondo")
    assert t.e.is_over(t.st) and t.st["shown"].keys() == {"1", "3"}  # 3 shows although beaten
    out = t.e.outcome(t.st)
    assert [p["winners"] for p in out["pots"]] == [[1]]


def test_showdown_timeout_hides_and_a_side_pot_winner_shows(table):
    t = table(3, chips={1: 60, 2: 1000, 3: 1000}, dealer=3)
    t.dai_carte()
    t.rig({1: "Ah Ad Ac 9s 8h", 2: "Qs Qd 8d 9h Ks", 3: "Kh Kd 8c 9c Qh"})
    t.do(1, "busso")
    t.do(2, "punto", 100)
    t.do(3, "vedo", 100)
    t.do(1, "vedo", 50)  # all-in calling: not a raise
    t.servito_all()
    t.do(2, "busso")
    t.do(3, "busso")
    # From the first speaker of the last round (2): 2 shows; 3 beats 2 in the side pot: shows;
    # 1 beats everyone in the main pot: shows.
    assert set(t.st["shown"]) == {"1", "2", "3"} and t.e.is_over(t.st)
    out = t.e.outcome(t.st)
    assert [p["winners"] for p in out["pots"]] == [[1], [3]]


def test_showdown_timeout_hides(table):
    t = _showdown_table(table)
    t.do(1, "busso")
    t.do(2, "punto", 10)
    t.do(3, "vedo", 10)
    t.do(1, "vedo", 10)
    t.servito_all()
    t.do(2, "busso")
    t.do(3, "busso")
    t.do(1, "busso")
    assert t.e.to_act(t.st) == [3] and t.e.timeout_action(t.st, 3) == {"type": "nascondo"}
    t.do(3, "nascondo", timeout=True)
    assert t.st["hidden"] == [3] and t.st["sitout"]["3"] is False  # not a betting phase


def test_sitout_player_keeps_his_cards_at_the_cambio(table):
    t = _showdown_table(table)
    t.do(1, "punto", 10)
    t.do(2, "vedo", 10, timeout=True)
    assert t.st["sitout"]["2"] is True and 2 not in t.st["b"]["folded"]
    t.do(3, "vedo", 10)
    t.do(1, "cambio", cards=["8h"])
    # seat 2 is sitout: served automatically, the word passes to 3
    assert t.turn == 3 and t.st["changed"]["2"] == 0


def test_hand_cancelled_without_two_players(table):
    t = table(3, dealer=3, sitout=(1, 2), carry={"pot": 50, "min_pair": "Q"})
    assert t.e.is_over(t.st)
    out, carry = t.e.outcome(t.st), t.e.carry(t.st)
    assert out["chips"] == {"1": 1000, "2": 1000, "3": 1000} and out["carried_out"] == 50
    assert carry["min_pair"] == "Q" and carry["pot"] == 50


def test_parol_pot_with_one_participant_left_goes_to_him(table):
    t = table(3, dealer=3, carry={"pot": 90, "min_pair": "K", "parol": {"seats": [2, 7]}})
    assert t.e.is_over(t.st)
    out = t.e.outcome(t.st)
    assert out["chips"]["2"] == 1090 and out["carried_in"] == 90 and out["carried_out"] == 0


@pytest.mark.parametrize(("cap", "rake"), [(None, 150), (100, 100)])
def test_rake_is_the_rules_cash_example(table, cap, rake):
    # Rules, "Regole specifiche dei tavoli cash": three players put €10 each, pot €30, rake 5 %
    # = €1,50; with a €1 cap the rake is €1 and the winner gets €29.
    t = table(3, chips=5000, dealer=3, invito=500, rake_percent=500, rake_cap=cap)
    t.dai_carte()
    t.rig({1: "Ah Ad Ac 9s 8h", 2: "Kh Kd 8c 9c Qh", 3: "Qs Qd 8d 9h Ks"})
    t.do(1, "punto", 500)
    t.do(2, "vedo", 500)
    t.do(3, "vedo", 500)
    t.servito_all()
    for _ in range(3):
        t.do(t.turn, "busso")
    while not t.e.is_over(t.st):
        t.do(t.e.to_act(t.st)[0], "nascondo")
    out = t.e.outcome(t.st)
    assert out["rake"] == rake
    assert out["chips"]["1"] == 5000 - 1000 + 3000 - rake
