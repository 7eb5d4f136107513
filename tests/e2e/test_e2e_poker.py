"""End to end: two players in two browsers sit at a Poker 5 carte table and play a hand to showdown.

Everything a player does goes through the pages (login, the sit-down form, the table's buttons);
the server side only deals, as the Celery task would. Checked: the ledger after the hand, the same
showdown on both pages, and that neither WebSocket ever carried the other player's covered cards.
"""

import pytest

from tests.e2e.live import (
    STATIC_FILES_WARNING,
    TABLE,
    cards_in,
    click_action,
    dom_cards,
    play_turns,
    runtime_info,
    snapshot,
    states,
    take_seat,
    wait_version,
)
from tests.piattaforma.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.filterwarnings(STATIC_FILES_WARNING)]

DEPOSIT = 50_000
BUY_IN = 10_000  # "100,00" in the form
MAX_HANDS = 5  # a hand nobody opens ends without a showdown: deal the next one


def _setup():
    from tests.lobby.factories import poker_table
    from tests.wallet.factories import funded_player

    anna = funded_player(DEPOSIT, nickname="Anna")
    bruno = funded_player(DEPOSIT, nickname="Bruno")
    table = poker_table(seats=2)
    return anna, bruno, table


def _ledger(table_id, users):
    from django.db.models import Sum

    from lobby.models import Hand, Seat
    from tests.lobby.helpers import carried_pots, house_rake
    from wallet import selectors
    from wallet.models import Posting

    seats = {s.user_id: s for s in Seat.objects.filter(table_id=table_id)}
    return {
        "cash": {u.pk: selectors.balance_get(user=u)["cash"] for u in users},
        "credit": {
            u.pk: int(selectors.table_credit_get(table_session_ref=seats[u.pk].session_ref)["balance"])
            for u in users
        },
        "rake": house_rake(),
        "pots": carried_pots(),
        "postings": int(Posting.objects.aggregate(t=Sum("amount"))["t"] or 0),
        "totals": selectors.ledger_totals(),
        "outcomes": [h.outcome for h in Hand.objects.filter(table_id=table_id).order_by("number")],
        "seat_of": {u.pk: seats[u.pk].number for u in users},
    }


def _choose(snapshot):
    """What a careful player presses: never PASSO; opens with PUNTO when his hand allows it."""
    legal = snapshot["legal"]
    view = snapshot["view"]
    types = [spec["type"] for spec in legal]
    for kind in ("invito", "variante", "dai_carte", "partecipo"):
        if kind in types:
            return next(spec for spec in legal if spec["type"] == kind)
    if view["phase"] == "apertura" and view["opened"] is None and "punto" in types:
        return next(spec for spec in legal if spec["type"] == "punto")
    for kind in ("busso", "vedo", "va_bene", "mostro", "cambio"):
        if kind in types:
            return next(spec for spec in legal if spec["type"] == kind)
    raise AssertionError(f"no careful action among {types}")


def _own_cards(frame):
    view = frame.get("view") or {}
    hand = (view.get("hands") or {}).get(str(frame.get("seat")))
    return set(hand.get("cards", [])) if isinstance(hand, dict) else set()


def _showdown_seen(frame):
    view = frame.get("view") or {}
    return bool(frame.get("over")) or any(
        isinstance(h, dict) and h.get("shown") for h in (view.get("hands") or {}).values()
    )


def test_two_players_play_a_hand_of_poker_to_showdown(asgi_live, new_context, artifacts):
    live = asgi_live
    anna, bruno, table = live.run(_setup)
    players = [(anna, 1), (bruno, 2)]
    pages, frames = {}, {}
    for user, seat in players:
        pages[seat], frames[seat] = take_seat(
            live, new_context(), user.nickname, PASSWORD, table.pk, seat, "100,00"
        )
    after_sit = live.run(_ledger, table.pk, [anna, bruno])
    assert after_sit["cash"] == {anna.pk: DEPOSIT - BUY_IN, bruno.pk: DEPOSIT - BUY_IN}
    assert after_sit["credit"] == {anna.pk: BUY_IN, bruno.pk: BUY_IN}

    from lobby import door

    users = {seat: user for user, seat in players}
    showdown = False
    for _hand in range(MAX_HANDS):
        assert live.run(door.table_start_hand, table_id=table.pk)  # as the lobby.table_start task
        play_turns(live, table.pk, pages, lambda page, seat: _careful_turn(live, table.pk, page, seat, users))
        final = live.run(runtime_info, table.pk)
        if final["state"].get("shown") and len(final["state"]["shown"]) == 2:
            showdown = True
            break
    assert showdown, "no hand reached the showdown"

    # Both pages show the same showdown: the server's last version, over, both hands face up.
    shown = final["state"]["shown"]
    for seat, page in pages.items():
        wait_version(page, final["version"])
        assert page.get_attribute(TABLE, "data-version") == str(final["version"])
        assert page.get_attribute(TABLE, "data-over") == "1"
        on_page = set(dom_cards(page))
        for cards in shown.values():
            assert set(cards) <= on_page, f"seat {seat}'s page does not show the showdown {shown}"
        page.screenshot(path=str(artifacts / f"e2e-poker5-showdown-seat{seat}.png"), full_page=True)

    # The ledger: the hands' outcomes moved exactly the chips, the house got the rake, nothing lost.
    ledger = live.run(_ledger, table.pk, [anna, bruno])
    last = ledger["outcomes"][-1]
    for user in (anna, bruno):
        seat = ledger["seat_of"][user.pk]
        assert ledger["credit"][user.pk] == last["chips"][str(seat)]
        assert ledger["cash"][user.pk] == DEPOSIT - BUY_IN
    pot = sum(p["amount"] for p in last["pots"])
    assert last["rake"] == min(pot * table.rake_bp // 10_000, table.rake_cap)
    assert ledger["rake"] == sum(int(o.get("rake", 0)) for o in ledger["outcomes"])
    assert ledger["rake"] > 0
    assert sum(ledger["credit"].values()) + ledger["rake"] + ledger["pots"] == 2 * BUY_IN
    assert ledger["postings"] == 0
    assert all(total == 0 for total in ledger["totals"].values()), ledger["totals"]
    winners = last["pots"][0]["winners"]
    assert [s for s in (1, 2) if last["chips"][str(s)] > BUY_IN] == winners

    # Hidden cards: before the showdown, no frame to one player held a card of the other's hand.
    own_ever = {seat: set().union(*(_own_cards(f) for f in states(frames[seat]))) for seat in pages}
    for seat in pages:
        other = 3 - seat
        theirs = own_ever[other] | set(shown[str(other)])
        assert own_ever[seat], "the player's own cards never reached his page"
        before = [f for f in states(frames[seat]) if not _showdown_seen(f)]
        assert before, "no frame before the showdown was recorded"
        for frame in before:
            leaked = (cards_in(frame) - own_ever[seat]) & theirs
            assert not leaked, f"seat {seat} received {leaked} of seat {other} at version {frame['version']}"
        # ...and at the showdown they did arrive: the check above looks at the right frames.
        assert set(shown[str(other)]) <= set().union(*(cards_in(f) for f in states(frames[seat])))


def _careful_turn(live, table_id, page, seat, users):
    """One turn of a careful player, pressed on his page."""
    spec = _choose(live.run(snapshot, table_id, users[seat].pk))
    buttons = page.eval_on_selector_all(
        f"{TABLE} [data-role=actions] button[data-action]", "bs => bs.map(b => b.dataset.action)"
    )
    assert spec["type"] in buttons, f"{spec['type']} not offered on the page: {buttons}"
    if spec["type"] == "cambio" and seat == 2:
        # Seat 2 changes one card: picked on the page (aria-pressed), sent with the button.
        card = page.locator(f"{TABLE} [data-role=hand] [data-card]").first
        card.click()
        assert card.get_attribute("aria-pressed") == "true"
    amount = spec.get("amount")
    click_action(page, spec["type"], amount["min"] if amount and amount["min"] != amount["max"] else None)
