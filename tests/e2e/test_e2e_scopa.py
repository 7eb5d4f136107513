"""End to end: two players in two browsers play a whole match of Scopa through the table page.

A short match (one smazzata, "a smazzate"). Both press "Sono pronto per iniziare", then every card
is played by clicking it on the page (a capture choice is picked from the choices when the card
offers several). At the end both pages show the end-of-match panel, and the ledger holds the C1
settlement: the loser pays posta partita + posta unitaria × differenza punti (capped at the
perdita massima), the winner gets it less the rake (2 × rake % of the amount).
"""

import pytest

from tests.e2e.live import (
    STATIC_FILES_WARNING,
    TABLE,
    play_card,
    play_turns,
    runtime_info,
    start_match,
    take_seat,
    wait_version,
)
from tests.piattaforma.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.filterwarnings(STATIC_FILES_WARNING)]

DEPOSIT = 20_000
BUY_IN = 5_000  # "50,00" in the form


def setup_match():
    """Two funded players and a short Scopa table (one smazzata); used by the reconnection test too."""
    from tests.lobby.factories import scopa_table
    from tests.wallet.factories import funded_player

    carla = funded_player(DEPOSIT, nickname="Carla")
    dario = funded_player(DEPOSIT, nickname="Dario")
    table = scopa_table(config={"mode": "smazzate", "deals": 1})
    return carla, dario, table


def _ledger(table_id):
    from django.db.models import Sum

    from lobby.models import Hand, Seat
    from wallet import selectors
    from wallet.models import Account, Posting

    seats = Seat.objects.filter(table_id=table_id).order_by("number")
    hand = Hand.objects.get(table_id=table_id, number=1)
    return {
        "credit": {
            s.number: int(selectors.table_credit_get(table_session_ref=s.session_ref)["balance"])
            for s in seats
        },
        "rake": int(Account.objects.filter(kind="house_rake").aggregate(t=Sum("balance"))["t"] or 0),
        "postings": int(Posting.objects.aggregate(t=Sum("amount"))["t"] or 0),
        "outcome": hand.outcome,
    }


def test_two_players_play_a_match_of_scopa_to_the_end(asgi_live, new_context, artifacts):
    live = asgi_live
    carla, dario, table = live.run(setup_match)
    pages = {}
    for seat, user in ((1, carla), (2, dario)):
        context = new_context()
        pages[seat], _frames = take_seat(live, context, user.nickname, PASSWORD, table.pk, seat, "50,00")
    start_match(live, table.pk, pages)
    info = live.run(runtime_info, table.pk)
    assert info["state"] is not None and not info["over"], "the match did not start when both were ready"
    for seat, page in pages.items():
        wait_version(page, info["version"])
        page.screenshot(path=str(artifacts / f"e2e-scopa-start-seat{seat}.png"), full_page=True)

    turns = play_turns(live, table.pk, pages, lambda page, seat: play_card(page), max_turns=60)
    assert turns == 36  # 40 cards, four on the table: 18 plays each in one smazzata

    # Both pages: the match is over and the end-of-match panel (another match / leave) is shown.
    final = live.run(runtime_info, table.pk)
    for seat, page in pages.items():
        wait_version(page, final["version"])
        assert page.get_attribute(TABLE, "data-over") == "1"
        page.wait_for_selector(f"{TABLE} [data-role=ready]", state="visible")
        assert "altra partita" in page.inner_text(f"{TABLE} [data-role=ready]").lower()
        page.screenshot(path=str(artifacts / f"e2e-scopa-end-seat{seat}.png"), full_page=True)

    # C1 in the ledger, recomputed here from the match report.
    ledger = live.run(_ledger, table.pk)
    cash = ledger["outcome"]["cash"]
    lines = ledger["outcome"]["lines"]
    assert ledger["postings"] == 0
    if cash["winner"] is None:  # a drawn match moves nothing
        assert ledger["credit"] == {1: BUY_IN, 2: BUY_IN}
        assert ledger["rake"] == 0
        return
    winner, loser = lines[cash["winner"]][0], lines[1 - cash["winner"]][0]
    extra = cash["cappotti"][cash["winner"]] - cash["cappotti"][1 - cash["winner"]]
    if cash["cappotto"]:
        amount = table.perdita_massima
    else:
        points = table.posta_unitaria * cash["differenza_punti"] + table.posta_partita * extra
        amount = min(table.posta_partita + points, table.perdita_massima)
    rake = amount * 2 * table.rake_bp // 10_000
    assert amount > 0
    assert ledger["credit"][loser] == BUY_IN - amount
    assert ledger["credit"][winner] == BUY_IN + amount - rake
    assert ledger["rake"] == rake
