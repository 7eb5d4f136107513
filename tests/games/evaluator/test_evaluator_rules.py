"""The hand ranking from the rules' own examples (000/003/004 "Punteggi", RULINGS P1–P5, T4)."""

from itertools import combinations

import pytest

from games import cards as deck_cards
from games import evaluator as ev
from games.cards import CardError
from games.rng import SeededRng, shuffled


def h(text: str) -> list[str]:
    """Turn "A♥ K♠ 10♣" into ["Ah", "Ks", "Tc"]."""
    suits = {"♥": "h", "♦": "d", "♣": "c", "♠": "s"}
    return [card[:-1].replace("10", "T") + suits[card[-1]] for card in text.split()]


def val(text: str, low: str = "5") -> int:
    return ev.evaluate(h(text), low)


# Every example hand printed in the rules, with its category; the deck is the 40-card one unless the
# example needs another (the 4-player minima is the rules' own "se i giocatori sono 4").
RULE_EXAMPLES = [
    ("A♥ K♠ 10♣ 8♦ 7♣", "5", ev.CARTA_ALTA, "Carta alta A"),  # 000
    ("A♥ K♠ 10♠ 8♦ 7♣", "5", ev.CARTA_ALTA, "Carta alta A"),  # 003 / 004
    ("K♣ J♥ 10♠ 10♥ 7♦", "5", ev.COPPIA, "Coppia di 10"),
    ("Q♣ Q♠ 9♦ 9♣ 8♥", "5", ev.DOPPIA_COPPIA, "Doppia coppia di Q e 9"),
    ("A♦ J♥ J♣ J♠ 8♠", "5", ev.TRIS, "Tris di J"),
    ("K♣ Q♥ J♠ 10♦ 9♥", "5", ev.SCALA, "Scala media al K"),
    ("10♦ 9♦ 8♠ 7♣ A♥", "7", ev.SCALA, "Scala minima"),
    ("A♠ K♦ Q♣ J♥ 10♦", "5", ev.SCALA, "Scala massima"),
    ("J♥ J♦ J♣ 6♠ 6♣", "5", ev.FULL, "Full di J e 6"),
    ("A♦ K♦ J♦ 9♦ 8♦", "5", ev.COLORE, "Colore di quadri"),
    ("K♥ Q♥ 10♥ 9♥ 8♥", "5", ev.COLORE, "Colore di cuori"),
    ("A♠ K♠ J♠ 9♠ 8♠", "5", ev.COLORE, "Colore di picche"),
    ("Q♥ Q♦ Q♣ Q♠ 7♣", "5", ev.POKER, "Poker di Q"),
    ("K♠ Q♠ J♠ 10♠ 9♠", "5", ev.SCALA_REALE, "Scala reale media al K di picche"),
]


@pytest.mark.parametrize(("text", "low", "cat", "description"), RULE_EXAMPLES)
def test_rule_examples(text, low, cat, description):
    value = ev.evaluate(h(text), low)
    assert ev.category(value) == cat
    assert ev.CATEGORY_NAMES[cat] == ev.category_name(value)
    assert ev.describe(value) == description == ev.describe(h(text), low)
    assert value == ev.evaluate_slow(h(text), low)


def test_category_order_colore_above_full():
    # RULINGS P2: colore above full; the rules list the examples low to high.
    ordered = [
        "A♥ K♠ 10♣ 8♦ 7♣",
        "K♣ J♥ 10♠ 10♥ 7♦",
        "Q♣ Q♠ 9♦ 9♣ 8♥",
        "A♦ J♥ J♣ J♠ 8♠",
        "K♣ Q♥ J♠ 10♦ 9♥",
        "J♥ J♦ J♣ 6♠ 6♣",
        "A♦ K♦ J♦ 9♦ 8♦",
        "Q♥ Q♦ Q♣ Q♠ 7♣",
        "K♠ Q♠ J♠ 10♠ 9♠",
    ]
    values = [val(t) for t in ordered]
    assert values == sorted(values)
    assert [ev.category(v) for v in values] == list(range(9))
    assert ev.CATEGORY_NAMES == (
        "carta alta",
        "coppia",
        "doppia coppia",
        "tris",
        "scala",
        "full",
        "colore",
        "poker",
        "scala reale",
    )


def test_colore_suit_first():
    # "K♥ Q♥ 10♥ 9♥ 8♥ batte A♠ K♠ J♠ 9♠ 8♠": the suit counts before the ranks.
    assert val("K♥ Q♥ 10♥ 9♥ 8♥") > val("A♠ K♠ J♠ 9♠ 8♠")
    # Same suit: ranks from the highest down.
    assert val("A♠ K♠ J♠ 9♠ 8♠") > val("A♠ K♠ J♠ 9♠ 7♠") > val("A♠ Q♠ J♠ 9♠ 8♠")


def test_carta_alta_ranks_then_suits():
    assert val("A♠ K♠ 10♣ 8♦ 7♣") > val("A♥ Q♥ J♣ 10♦ 8♣")  # second card decides
    assert val("A♥ K♠ 10♣ 8♦ 7♣") > val("A♦ K♥ 10♥ 8♥ 7♥")  # suits from the highest card down
    assert val("A♥ K♠ 10♣ 8♦ 7♥") > val("A♥ K♠ 10♣ 8♦ 7♣")  # …down to the last card


def test_coppia_kickers_then_their_suits_then_the_pair():
    assert val("10♠ 10♣ A♠ 6♠ 5♠") > val("9♥ 9♦ A♥ K♥ Q♥")
    assert val("10♠ 10♣ K♠ 7♠ 5♠") > val("10♥ 10♦ K♥ 6♥ 5♥")  # kickers' ranks
    assert val("10♠ 10♣ K♥ 7♠ 5♠") > val("10♥ 10♦ K♦ 7♥ 5♥")  # kickers' suits, highest first
    # Only with everything else equal (shared vele) the pair's suits: ♥♣ beats ♦♣.
    assert val("10♥ 10♣ K♥ 7♠ 5♠") > val("10♦ 10♣ K♥ 7♠ 5♠")


def test_doppia_coppia():
    assert val("Q♣ Q♠ 9♦ 9♣ 8♥") > val("J♥ J♦ 10♥ 10♦ A♥")  # higher pair first
    assert val("Q♣ Q♠ 9♦ 9♣ 8♥") > val("Q♥ Q♦ 8♦ 8♣ A♥")  # then the lower pair
    assert val("Q♣ Q♠ 9♦ 9♣ 8♥") > val("Q♥ Q♦ 9♥ 9♠ 7♥")  # then the fifth card's rank
    assert val("Q♣ Q♠ 9♦ 9♣ 8♥") > val("Q♥ Q♦ 9♥ 9♠ 8♦")  # then its suit


def test_tris_kickers():
    assert val("A♦ J♥ J♣ J♠ 8♠") > val("K♥ J♥ J♣ J♠ Q♥")
    assert val("A♦ J♥ J♣ J♠ 8♠") > val("A♣ J♥ J♣ J♠ 8♥")
    assert val("A♦ J♥ J♣ J♠ 8♠") > val("A♦ J♥ J♣ J♠ 7♠")


def test_scala():
    assert val("A♠ K♦ Q♣ J♥ 10♦") > val("K♣ Q♥ J♠ 10♦ 9♥")
    # Same top card: suits from the top card down.
    assert val("K♥ Q♠ J♠ 10♠ 9♣") > val("K♦ Q♥ J♥ 10♥ 9♥")
    assert val("K♥ Q♠ J♠ 10♠ 9♦") > val("K♥ Q♠ J♠ 10♠ 9♣")
    # RULINGS P3: the minima is the lowest straight; its top card is the highest non-ace.
    minima = ev.evaluate(h("10♦ 9♦ 8♠ 7♣ A♥"), "7")
    assert minima < ev.evaluate(h("J♦ 10♦ 9♠ 8♣ 7♥"), "7")
    # Same ranks, with the 7 not the lowest rank: no straight (no ace-low), just carta alta.
    assert ev.category(ev.evaluate(h("10♦ 9♦ 8♠ 7♣ A♥"), "5")) == ev.CARTA_ALTA
    assert ev.category(ev.evaluate(h("8♦ 7♦ 6♠ 5♣ A♥"), "5")) == ev.SCALA
    # No wrap-around: K-A-9-10-J in the 24-card deck is nothing.
    assert ev.category(ev.evaluate(h("K♦ A♦ 9♠ 10♣ J♥"), "9")) == ev.CARTA_ALTA
    assert ev.describe(h("A♥ 9♠ 10♣ J♥ Q♦"), "9") == "Scala minima"
    # In the minima the ace is the lowest card for the suit tie-break.
    assert ev.evaluate(h("10♠ 9♥ 8♥ 7♥ A♥"), "7") < ev.evaluate(h("10♥ 9♠ 8♠ 7♠ A♠"), "7")


def test_full_and_poker():
    assert val("J♥ J♦ J♣ 6♠ 6♣") > val("10♥ 10♦ 10♣ A♠ A♣")
    assert val("J♥ J♦ J♣ 7♠ 7♣") > val("J♥ J♦ J♣ 6♠ 6♣")
    assert val("Q♥ Q♦ Q♣ Q♠ 7♣") > val("J♥ J♦ J♣ J♠ A♥")
    assert val("Q♥ Q♦ Q♣ Q♠ 8♠") > val("Q♥ Q♦ Q♣ Q♠ 7♥")
    assert val("Q♥ Q♦ Q♣ Q♠ 7♥") > val("Q♥ Q♦ Q♣ Q♠ 7♣")


def test_scala_reale_and_the_p4_exception():
    low = "7"
    massima_cuori = ev.evaluate(h("A♥ K♥ Q♥ J♥ 10♥"), low)
    minima_picche = ev.evaluate(h("10♠ 9♠ 8♠ 7♠ A♠"), low)
    minima_cuori = ev.evaluate(h("10♥ 9♥ 8♥ 7♥ A♥"), low)
    media_fiori = ev.evaluate(h("K♣ Q♣ J♣ 10♣ 9♣"), low)
    media_quadri = ev.evaluate(h("K♦ Q♦ J♦ 10♦ 9♦"), low)
    assert [ev.straight_flush_kind(v) for v in (massima_cuori, minima_picche, media_fiori)] == [
        "massima",
        "minima",
        "media",
    ]
    assert ev.straight_flush_kind(val("K♣ Q♥ J♠ 10♦ 9♥")) is None
    assert ev.straight_kind(val("K♣ Q♥ J♠ 10♦ 9♥")) == "media"
    # The ordinary order (the value): massima > media > minima; same top card: suit.
    assert massima_cuori > media_quadri > media_fiori > minima_cuori > minima_picche
    # NB.2: "la scala minima di picche è superiore alla massima di cuori".
    assert ev.pot_winners([massima_cuori, minima_picche]) == [1]
    assert ev.beats(minima_picche, massima_cuori) and not ev.beats(massima_cuori, minima_picche)
    # The best minima wins when there are several.
    assert ev.pot_winners([minima_picche, massima_cuori, minima_cuori]) == [2]
    # RULINGS P4: with a media among the contenders the ordinary order applies.
    assert ev.pot_winners([minima_picche, massima_cuori, media_fiori]) == [1]
    assert ev.pot_winners([minima_picche, media_fiori]) == [1]
    # Other hands do not matter to the exception.
    assert ev.pot_winners([minima_picche, val("Q♥ Q♦ Q♣ Q♠ 7♣"), massima_cuori]) == [0]
    assert ev.pot_winners([val("Q♥ Q♦ Q♣ Q♠ 7♣"), val("A♦ J♥ J♣ J♠ 8♠")]) == [0]
    # Identical hands (shared vele) split.
    assert ev.pot_winners([media_fiori, media_fiori, minima_cuori]) == [0, 1]
    with pytest.raises(ValueError):
        ev.pot_winners([])


def test_describe_straight_flushes():
    assert ev.describe(h("10♠ 9♠ 8♠ 7♠ A♠"), "7") == "Scala reale minima di picche"
    assert ev.describe(h("A♥ K♥ Q♥ J♥ 10♥"), "7") == "Scala reale massima di cuori"


@pytest.mark.parametrize("players", range(2, 7))
def test_decks_match_the_core(players):
    low = deck_cards.poker_lowest_rank(players)
    assert sorted(ev.deck(low)) == sorted(deck_cards.poker_deck(players))


def test_bad_hands_are_refused():
    with pytest.raises(CardError):
        ev.evaluate(["Ah", "Kh", "Qh", "Jh"], "9")
    with pytest.raises(CardError):
        ev.evaluate(["Ah", "Kh", "Qh", "Jh", "Jh"], "9")
    with pytest.raises(CardError):
        ev.evaluate(["Ah", "Kh", "Qh", "Jh", "8h"], "9")  # no 8 in the 2-player deck
    with pytest.raises(CardError):
        ev.evaluate(["Ah", "Kh", "Qh", "Jh", "Th"], "4")
    with pytest.raises(CardError):
        ev.evaluate_slow(["Ah", "Kh", "Qh", "Jh", "8h"], "9")
    with pytest.raises(CardError):
        ev.best_hand(["Ah", "Kh", "Qh", "Jh"], "9")
    with pytest.raises(CardError):
        ev.best_hand(["Ah", "Kh", "Qh", "Jh", "Ah", "9c"], "9")


def test_best_hand_small():
    value, five = ev.best_hand(h("2♣ A♥ K♥ Q♥ J♥ 10♥ 9♥")[1:], "9")
    assert ev.describe(value) == "Scala reale massima di cuori"
    assert five == h("A♥ K♥ Q♥ J♥ 10♥")
    value, five = ev.best_hand(h("9♣ J♦ J♠ A♥ A♣ 10♥ 10♠"), "9")
    assert ev.describe(value) == "Doppia coppia di A e J"
    assert five == h("J♦ J♠ A♥ A♣ 10♥")  # fifth card: 10♥ beats 10♠ (and 9♣)


def test_best_hand_nb1_two_straight_flushes():
    # RULINGS T4 / NB.1: with two scale reali the higher suit plays, not the higher top card.
    cards = h("K♥ Q♥ J♥ 10♥ 9♥ A♠ K♠ Q♠ J♠ 10♠")
    value, five = ev.best_hand(cards, "9")
    assert five == h("K♥ Q♥ J♥ 10♥ 9♥")
    assert ev.describe(value) == "Scala reale media al K di cuori"
    # Same suit: the higher top card.
    value, five = ev.best_hand(h("A♦ K♦ Q♦ J♦ 10♦ 9♦"), "9")
    assert ev.describe(value) == "Scala reale massima di quadri"


def test_best_hand_is_max_over_subsets_when_not_two_straight_flushes():
    cards = h("A♥ A♦ K♣ K♠ Q♥ Q♦ J♣ 9♠")
    value, five = ev.best_hand(cards, "9")
    assert value == max(ev.evaluate(c, "9") for c in combinations(cards, 5))
    assert ev.evaluate(five, "9") == value


@pytest.mark.parametrize(
    ("text", "min_pair", "low", "ok"),
    [
        ("J♥ J♦ 9♣ 8♠ 7♣", "J", "7", True),
        ("J♥ J♦ 9♣ 8♠ 7♣", "Q", "7", False),
        ("Q♥ Q♦ 9♣ 8♠ 7♣", "Q", "7", True),
        ("Q♥ Q♦ 9♣ 8♠ 7♣", "K", "7", False),
        ("A♥ A♦ 9♣ 8♠ 7♣", "K", "7", True),  # "coppia di K o un punto superiore"
        ("10♥ 10♦ 9♣ 9♠ 7♣", "K", "7", True),  # any doppia coppia is above a pair
        ("10♥ 10♦ 10♣ 8♠ 7♣", "K", "7", True),
        ("10♥ 9♦ 8♣ 7♠ A♣", "K", "7", True),  # scala minima
        ("10♥ 10♦ 9♣ 8♠ 7♣", "J", "7", False),
        ("A♥ K♦ Q♣ 9♠ 8♣", "J", "7", False),
        # Progetto bilaterale di scala reale: four of one suit in sequence.
        ("10♥ 9♥ 8♥ 7♥ A♣", "K", "7", True),
        ("K♠ Q♠ J♠ 10♠ 7♣", "K", "7", True),
        ("A♦ K♦ Q♦ J♦ 7♣", "K", "7", True),  # ace high
        ("A♦ 7♦ 8♦ 9♦ K♣", "K", "7", True),  # ace low under the lowest rank 7
        ("A♦ 7♦ 8♦ 9♦ K♣", "K", "5", False),  # …but not when the deck goes down to 5
        ("A♦ 5♦ 6♦ 7♦ K♣", "K", "5", True),
        ("K♦ A♦ 9♦ 10♦ 9♣", "J", "9", False),  # no wrap-around (K-A-9-10 is not a sequence)
        ("K♦ Q♦ J♦ 9♦ 7♣", "J", "7", False),  # a gap
        ("K♦ Q♦ J♦ 10♣ 7♣", "J", "7", False),  # three suited
    ],
)
def test_opening_ok(text, min_pair, low, ok):
    assert ev.opening_ok(h(text), min_pair, low) is ok


def brute_best(cards, low):
    """The best five by brute force over every 5-subset, with NB.1 for two scale reali."""
    scored = [(ev.evaluate(c, low), c) for c in combinations(cards, 5)]
    value, five = max(scored)
    if ev.category(value) == ev.SCALA_REALE:
        # RULINGS T4 / NB.1: the higher suit first, then the higher top card.
        straight_flushes = [(v & 3, v, c) for v, c in scored if ev.category(v) == ev.SCALA_REALE]
        _, value, five = max(straight_flushes)
    return value, sorted(five)


@pytest.mark.parametrize("size", [5, 6, 7, 9, 14])
@pytest.mark.parametrize("players", [2, 4, 6])
def test_best_hand_equals_brute_force(size, players):
    low = deck_cards.poker_lowest_rank(players)
    deck = deck_cards.poker_deck(players)
    for seed in range(60 if size < 14 else 8):
        cards = shuffled(deck, SeededRng(f"best-{players}-{size}-{seed}"))[:size]
        value, five = ev.best_hand(cards, low)
        assert (value, sorted(five)) == brute_best(cards, low), cards
        assert [c for c in cards if c in five] == five  # the given order is kept


def test_evaluator_for_matches_evaluate():
    for players in range(2, 7):
        low = deck_cards.poker_lowest_rank(players)
        fast = ev.evaluator_for(low)
        deck = deck_cards.poker_deck(players)
        for seed in range(200):
            five = shuffled(deck, SeededRng(seed))[:5]
            assert fast(five) == ev.evaluate(five, low) == ev.evaluate_slow(five, low)
        with pytest.raises(CardError):
            fast(five[:4] + five[:1])
        with pytest.raises(CardError):
            fast(five[:4])


def test_deck_tables_give_the_same_values():
    # The public tables (for hot loops such as Telesina's) follow the documented formula.
    low = "6"
    t = ev.deck_tables(low)
    for seed in range(300):
        five = shuffled(t.cards, SeededRng(seed))[:5]
        m = 0
        for card in five:
            m |= t.bit[card]
        assert t.values[t.high[m >> t.split] + t.low[m & t.low_mask]] == ev.evaluate(five, low)
    assert ev.category(t.values[0]) == t.values[0] >> ev.CATEGORY_SHIFT


def test_pot_winners_every_small_field_of_straight_flushes():
    # RULINGS P4 over every field of 1 to 3 scale reali of the 32-card deck plus a poker.
    low = "7"
    runs = {"minima": "A789T", "media": "789TJ", "massima": "TJQKA"}
    field_pool = [
        (kind, suit, ev.evaluate([r + suit for r in ranks], low))
        for kind, ranks in runs.items()
        for suit in "hdcs"
    ]
    field_pool.append(("poker", "", ev.evaluate(h("Q♥ Q♦ Q♣ Q♠ 7♣"), low)))
    strength = {"h": 3, "d": 2, "c": 1, "s": 0}
    for size in (1, 2, 3):
        for field in combinations(field_pool, size):
            kinds = {kind for kind, _, _ in field}
            if {"minima", "massima"} <= kinds and "media" not in kinds:
                # The best minima (same top card: the higher suit) takes the pot.
                expected = max(
                    (strength[suit], i) for i, (kind, suit, _) in enumerate(field) if kind == "minima"
                )[1]
            else:
                expected = max(range(size), key=lambda i: field[i][2])
            assert ev.pot_winners([v for _, _, v in field]) == [expected], field
