"""The chat rules, pure: normalisation against evasions, capitals, repeats, flooding, watched entries."""

from datetime import UTC, datetime, timedelta

import pytest

from moderation import filters
from moderation.defaults import rows
from moderation.filters import Entry, Recent, WatchedList, screen

NOW = datetime(2026, 11, 25, 15, 0, tzinfo=UTC)
DEFAULT = WatchedList(Entry(i, *row) for i, row in enumerate(rows()))


def verdict(text, *, in_hand=False, recent=(), watched=DEFAULT):
    return screen(text, watched=watched, recent=list(recent), now=NOW, in_hand=in_hand)


@pytest.mark.parametrize(
    ("text", "norm"),
    [
        ("Stronzò", "stronzo"),
        ("STR0NZ0", "stronzo"),
        ("$c3m0", "scemo"),
        ("s t r o n z o", "stronzo"),
        ("s.t.r.o.n.z.o!", "stronzo"),
        ("s_t_r_o_n_z_o", "stronzo"),
        ("stroooooonzo", "stronzo"),
        ("caaazzzzo", "cazo"),
        ("ｓｔｒｏｎｚｏ", "stronzo"),  # full-width letters
        ("ho 3 re", "ho 3 re"),  # digits alone stay digits
        ("stro\u200bnzo", "stronzo"),  # a zero-width space inside the word
        ("stron\u00adzo", "stronzo"),  # a soft hyphen
        ("\u0441azzo", "cazo"),  # a Cyrillic с
        ("\u0441r\u0435tin\u03bf", "cretino"),  # Cyrillic с and е, Greek ο
    ],
)
def test_normalisation_undoes_the_usual_evasions(text, norm):
    assert filters.normalise(text) == norm


@pytest.mark.parametrize(
    "text",
    [
        "sei uno stronzo",
        "sei uno STR0NZ0",
        "sei uno s t r o n z o",
        "sei uno stroooonzo",
        "sei uno Strònzo",
        "sei uno s.t.r.o.n.z.o",
        "sei uno stro\u200bnzo",
        "sei uno \u0455tronzo",
        "che stronzata",
    ],
)
def test_insults_are_censored_through_evasions(text):
    v = verdict(text)
    assert v.outcome == "censored" and v.category == "insult"
    assert v.text.startswith("sei uno ") or v.text.startswith("che ")
    assert not any(c.isalpha() for c in v.text.split(" ", 2)[-1])  # the insult itself is starred out
    assert len(v.text) == len(text)


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("porco dio", "blasphemy"),
        ("p0rc0 d1o", "blasphemy"),
        ("porcoddio", "blasphemy"),
        ("d i o c a n e", "blasphemy"),
        ("sei un negro", "racism"),
        ("sporco ebreo", "racism"),
        ("figlio di puttana", "insult"),
        ("vieni su www.altrosito.it", "promotion"),
        ("https://example.com/bonus", "promotion"),
        ("gioca su pokerstars.com", "promotion"),
        ("gioca su pokerstars . com", "promotion"),
        ("scrivi a sisal punto it", "promotion"),
        ("chiamami al 333 123 4567", "promotion"),
        ("+39 333.123.4567", "promotion"),
        ("entra su t.me/gruppo", "promotion"),
    ],
)
def test_blocked_entries(text, category):
    v = verdict(text)
    assert (v.outcome, v.code, v.category) == ("blocked", "chat_watched", category)


@pytest.mark.parametrize(
    "text",
    [
        "ciao a tutti, buona partita",
        "Bravo. Io ho vinto ieri",  # ". Io" is no domain
        "che bella scopa!",  # the game, not the verb
        "ho fatto 3 scope ieri sera",  # game talk counts only while in a hand
        "ho una settimana di ferie",
        "gg",
        "OK",
        "Grazie MARIO",
        "tavolo 12345",  # five digits are no phone number
        "classe e cultura",  # no Scunthorpe: watched words match whole words
    ],
)
def test_ordinary_lines_pass(text):
    v = verdict(text)
    assert (v.outcome, v.text, v.flagged) == ("shown", text, False)


@pytest.mark.parametrize(
    "text",
    [
        "ho l'asso di denari",
        "ho tre assi",
        "avevo il settebello",
        "sono a 80 punti",
        "ho fatto 2 scope",
        "HO 2 RE".lower(),
        "tengo una coppia",
    ],
)
def test_durante_il_gioco_holds_card_and_score_talk_only_in_a_hand(text):
    assert verdict(text, in_hand=False).outcome == "shown"
    v = verdict(text, in_hand=True)
    assert (v.outcome, v.code, v.category) == ("held", "chat_held", "game_talk")


def test_durante_il_gioco_flags_talk_of_the_hand_in_progress():
    v = verdict("questa mano la vinco io", in_hand=True)
    assert (v.outcome, v.flagged, v.category) == ("shown", True, "game_talk")
    assert not verdict("questa mano la vinco io").flagged


def test_intimidation_and_collusion_are_held():
    assert verdict("ti ammazzo").outcome == "held"
    assert verdict("vattene dal tavolo").outcome == "held"
    v = verdict("facciamo a metà?")
    assert (v.outcome, v.category) == ("held", "collusion")


def test_complaints_are_shown_and_flagged():
    v = verdict("questo gioco truccato")
    assert (v.outcome, v.flagged, v.category) == ("shown", True, "complaint")


def test_capitals():
    assert verdict("CIAO A TUTTI QUANTI").code == "chat_capitals"
    assert verdict("Ciao A TUTTI").outcome == "refused"
    assert verdict("GG WP").outcome == "shown"  # too short to be shouting
    assert verdict("Ciao a tutti, BUONA").outcome == "shown"


def test_repeating_the_same_line():
    line = filters.normalise("ciao belli")
    seen = [Recent(NOW - timedelta(seconds=50), line), Recent(NOW - timedelta(seconds=30), line)]
    assert verdict("Ciao  BELLI", recent=seen[:1]).outcome == "shown"  # twice is fine
    assert verdict("ciao belli!!", recent=seen).code == "chat_repeated"
    assert verdict("ciaooo bellii", recent=seen).code == "chat_repeated"  # the evasion is the same line
    old = [Recent(NOW - timedelta(minutes=3), line)] * 2
    assert verdict("ciao belli", recent=old).outcome == "shown"  # outside the window
    refused = [Recent(NOW - timedelta(seconds=5), line, counted=False)] * 3
    assert verdict("ciao belli", recent=refused).outcome == "shown"  # refused attempts are no repeats


def test_flooding():
    burst = [Recent(NOW - timedelta(seconds=s), f"riga {s}") for s in (1, 2, 3, 4, 5)]
    assert verdict("ancora una", recent=burst[:4]).outcome == "shown"
    assert verdict("ancora una", recent=burst).code == "chat_flood"
    spread = [Recent(NOW - timedelta(seconds=20 + s), f"riga {s}") for s in range(5)]
    assert verdict("ancora una", recent=spread).outcome == "shown"


def test_the_strongest_action_wins_and_each_match_is_listed():
    v = verdict("stronzo, porco dio")
    assert v.outcome == "blocked" and v.category == "blasphemy"
    assert {m["category"] for m in v.matches} == {"insult", "blasphemy"}


def test_custom_entries_each_kind_and_action():
    watched = WatchedList(
        [
            Entry(1, "pippo*", "word", "insult", "block"),
            Entry(2, "brutto * muso", "phrase", "insult", "censor"),
            Entry(3, r"\bcodice\s*\d{4}\b", "regex", "promotion", "hold"),
            Entry(4, "pluto", "word", "insult", "flag"),
        ]
    )
    assert verdict("sei un pippone", watched=watched).outcome == "blocked"
    v = verdict("che brutto grosso muso", watched=watched)
    assert (v.outcome, v.text) == ("censored", "che ****** ****** ****")
    assert verdict("usa il codice 1234", watched=watched).outcome == "held"
    v = verdict("ciao pluto", watched=watched)
    assert (v.outcome, v.flagged, v.text) == ("shown", True, "ciao pluto")
    assert verdict("ciao", watched=WatchedList([])).outcome == "shown"


@pytest.mark.parametrize(
    "entry",
    [
        Entry(1, "a(b", "regex", "insult", "block"),
        Entry(2, "due parole", "word", "insult", "block"),
        Entry(3, "  ", "phrase", "insult", "block"),
    ],
)
def test_bad_entries_are_refused(entry):
    with pytest.raises(filters.re.error):
        filters.entry_words(entry)
