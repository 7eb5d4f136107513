"""The tournament arithmetic of RULINGS K5-K8, each case quoting the rules text it follows."""

from __future__ import annotations

from datetime import date, timedelta

from hypothesis import given
from hypothesis import strategies as st

from tournaments.formats.danel import Eliminated, danel_placings
from tournaments.formats.danese import DEFAULT_VP, Score, VpScale, forfeit_result, match_result
from tournaments.formats.draw import RandomList
from tournaments.formats.points import PT, TRAINING_COST, k5_loss, training_pt
from tournaments.formats.prizes import danese_weights
from tournaments.formats.ratings import TournamentPlayed, skill_levels

# --- K5 ------------------------------------------------------------------------------------------
# "Nei tornei Danese (ma non nei danEL) il costo di partecipazione viene risuddiviso tra i peggiori
# classificati in maniera non omogenea (ad esempio il 40° classificato perde 2 PT e il 60° ne perde 8)."


def test_k5_the_rules_example_with_the_median_of_66_at_33_and_a_half() -> None:
    assert k5_loss(40, 66) == 2 * PT  # exactly 2 PT: (40 - 33.5) / (66 - 33.5) x 10 PT
    assert k5_loss(60, 66) == 815  # 8,15 PT: "ne perde 8"
    assert [k5_loss(p, 66) for p in (1, 33)] == [0, 0]
    assert k5_loss(66, 66) == TRAINING_COST


@given(entrants=st.integers(2, 300))
def test_k5_median_is_n_plus_one_over_two_for_odd_and_even_n(entrants: int) -> None:
    losses = [k5_loss(p, entrants) for p in range(1, entrants + 1)]
    assert losses == sorted(losses) and losses[-1] == TRAINING_COST
    for p, loss in enumerate(losses, start=1):
        # 0 up to the median (N + 1) / 2; above it, the exact linear share, floored
        assert (loss == 0) == (2 * p <= entrants + 1)
        exact_times = TRAINING_COST * (2 * p - entrants - 1)
        assert loss * (entrants - 1) <= max(0, exact_times) < (loss + 1) * (entrants - 1)


def test_k5_in_training_pt_of_66_entrants() -> None:
    placings = [[f"p{i}"] for i in range(1, 67)]
    plain = training_pt(danese_weights(66), placings)
    danese = training_pt(danese_weights(66), placings, danese=True)
    # the 40th gets back the 10 PT everyone pays, then pays 2 PT by K5
    assert danese["p40"] - plain["p40"] == TRAINING_COST - 2 * PT


# --- K6 ------------------------------------------------------------------------------------------
# "Al fine del calcolo dei MP e VP, la linea che fa scadere il timeout o abbandona farà 0 VP e la
# linea avversaria farà minimo 14 VP. I MP di entrambe le linee saranno calcolati dai VP in base ai
# corrispondenti minimi previsti dalla tabella dei VP."


def test_k6_forfeit_mp_come_from_the_vp_minimums_not_from_the_score() -> None:
    # 792-1965: the real difference 1173 is not used; a win's minimum margin with 20/10/0 is 1
    assert forfeit_result(792, 1965) == (Score(0, -1), Score(20, 1))
    assert forfeit_result(1965, 792) == (Score(0, -1), Score(20, 1))
    graded = VpScale(steps=((0, 10), (1, 12), (20, 14), (50, 17), (100, 20)))
    # offender ahead: "minimo 14 VP", whose minimum MP in this table is 20
    assert forfeit_result(1965, 792, graded) == (Score(0, -20), Score(14, 20))
    # a 70-point lead earns 17 VP; the MP are 17 VP's minimum, 50, not 70
    assert forfeit_result(0, 70, graded) == (Score(0, -50), Score(17, 50))
    assert forfeit_result(0, 500, graded) == (Score(0, -100), Score(20, 100))


@given(a=st.integers(0, 5000), b=st.integers(0, 5000))
def test_k6_forfeit_mp_is_always_a_minimum_of_the_table(a: int, b: int) -> None:
    graded = VpScale(steps=((0, 10), (1, 12), (20, 14), (50, 17), (100, 20)))
    for scale in (DEFAULT_VP, graded):
        off, other = forfeit_result(a, b, scale)
        assert off.vp == 0 and other.vp >= 14 and off.mp == -other.mp
        assert other.mp == scale.min_mp_for(other.vp)
        assert other.mp in {minimum for minimum, _ in scale.steps}


# --- K7 ------------------------------------------------------------------------------------------
# danEL: "Questa modalità prevede che siano utilizzate le regole dei tornei Danese" and for those
# "La classifica finale viene stilata sulla base dei VP totalizzati in tutti i turni. A parità di VP
# valgono i MP. In caso di ulteriore parità saranno assegnati degli 'ex aequo'".


def test_k7_an_eliminated_line_with_more_vp_ranks_above_a_readmitted_one() -> None:
    rl = RandomList(("a", "b", "c", "d", "e", "f"))
    eliminated = [Eliminated("e", 1, Score(0, -5)), Eliminated("d", 2, Score(20, 3))]
    # c was re-admitted after round 2 with 10 VP and lost round 3: 10 VP in all
    active = {"a": Score(60, 40), "b": Score(40, 12), "c": Score(10, -30), "f": Score(30, -20)}
    assert danel_placings(active, eliminated, rl) == [["a"], ["b"], ["f"], ["d"], ["c"], ["e"]]


def test_k7_ties_are_ex_aequo_listed_by_the_random_list() -> None:
    rl = RandomList(("z", "y", "x"))
    placings = danel_placings({"x": Score(20, 5)}, [Eliminated("z", 1, Score(20, 5))], rl)
    assert placings == [["z", "x"]]  # equal VP and MP: one ex aequo group, never split at random
    assert danel_placings({"x": Score(20, 6)}, [Eliminated("z", 1, Score(20, 5))], rl) == [["x"], ["z"]]


@given(
    scores=st.lists(
        st.tuples(st.integers(0, 80), st.integers(-200, 200), st.booleans()), min_size=2, max_size=30
    )
)
def test_k7_placings_follow_total_vp_then_mp_whatever_the_status(
    scores: list[tuple[int, int, bool]],
) -> None:
    names = [f"l{i}" for i in range(len(scores))]
    active = {n: Score(vp, mp) for n, (vp, mp, out) in zip(names, scores, strict=True) if not out}
    eliminated = [
        Eliminated(n, 1, Score(vp, mp)) for n, (vp, mp, out) in zip(names, scores, strict=True) if out
    ]
    placings = danel_placings(active, eliminated, RandomList(tuple(names)))
    flat = [line for group in placings for line in group]
    assert sorted(flat) == sorted(names)
    total = {n: (vp, mp) for n, (vp, mp, _) in zip(names, scores, strict=True)}
    keys = [total[line] for line in flat]
    assert keys == sorted(keys, reverse=True)
    for group in placings:
        assert len({total[line] for line in group}) == 1


# --- K8 ------------------------------------------------------------------------------------------
# "1° Livello (i giocatori con rating compreso nel migliore 20%) ... 5° Livello (i giocatori con
# rating compreso nel quinto e ultimo 20%)": rank r of N rated players -> 1 + floor(5 (r - 1) / N).


def _history(vp: int, today: date) -> list[TournamentPlayed]:
    return [TournamentPlayed(today - timedelta(days=i), 500, 2, 4, vp) for i in range(7)]


@given(n=st.integers(1, 40))
def test_k8_the_best_player_is_always_level_one(n: int) -> None:
    today = date(2026, 6, 1)
    histories = {f"p{i}": _history(4 * i, today) for i in range(n)}  # p{n-1} is the best
    levels = skill_levels(histories, today)
    for i in range(n):
        rank = n - i
        assert levels[f"p{i}"] == 1 + 5 * (rank - 1) // n
    assert levels[f"p{n - 1}"] == 1


def test_k8_three_players_are_levels_one_two_four() -> None:
    today = date(2026, 6, 1)
    levels = skill_levels(
        {"a": _history(60, today), "b": _history(40, today), "c": _history(20, today)}, today
    )
    assert (levels["a"], levels["b"], levels["c"]) == (1, 2, 4)


def test_match_result_unchanged_by_k6() -> None:
    assert match_result(1965, 792) == (Score(20, 1173), Score(0, -1173))
