"""Details of the table page a new player notices, on real engine payloads (socket mocked).

Burraco's discard pile shows every card (who picks it up takes them all); a folded poker seat's
nickname reads on its dark ground; a lost match is not in the win colour; a Burraco seat shows its
line's points on the table as the deal goes; Telesina's log names the variant chosen.
"""

from __future__ import annotations

import copy

import pytest

from games import registry
from tests.e2e import test_table_client as client
from tests.e2e.live import STATIC_FILES_WARNING
from tests.e2e.test_table_client import CODES, burraco_with_meld, play_until

pytestmark = [pytest.mark.browser, pytest.mark.filterwarnings(STATIC_FILES_WARNING)]

open_table = client.open_table  # the fixture: a table page whose socket the test plays

LAPTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}

# WCAG's contrast of an element's text on the colour behind it, both read from the page (the
# seat's translucent ground composed over the felt's colour, the seat's own opacity applied).
CONTRAST = """el => {
  const rgba = (s) => {
    const m = s.match(/[\\d.]+/g).map(Number);
    return [m[0], m[1], m[2], m.length > 3 ? m[3] : 1];
  };
  const over = (top, under) => [0, 1, 2].map(i => top[i] * top[3] + under[i] * (1 - top[3])).concat(1);
  let ground = [15, 122, 76, 1];  // the felt (#0f7a4c)
  const chain = [];
  for (let e = el; e && !e.classList.contains('felt'); e = e.parentElement) chain.unshift(e);
  let opacity = 1;
  for (const e of chain) {
    const cs = getComputedStyle(e);
    opacity *= Number(cs.opacity);
    const bg = rgba(cs.backgroundColor);
    if (bg[3] > 0) ground = over(bg, ground);
  }
  const felt = [15, 122, 76, 1];
  const text = over([...rgba(getComputedStyle(el).color).slice(0, 3), opacity], ground);
  const back = over([...ground.slice(0, 3), opacity], felt);
  const lum = (c) => {
    const lin = (x) => { x /= 255; return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4; };
    const v = c.slice(0, 3).map(lin);
    return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2];
  };
  const [a, b] = [lum(text), lum(back)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}"""


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_burraco_discard_pile_shows_every_card(open_table, artifacts, viewport):
    state, seat, _laid = burraco_with_meld()
    state = copy.deepcopy(state)
    deal = state["deal"]
    while len(deal["scarti"]) < 41:
        deal["scarti"].append(deal["tallone"].pop())
    t = open_table("burraco", viewport=viewport)
    t.show(state, seat)
    pile = t.page.locator("[data-role=scarti]")
    assert pile.locator("[data-card]").evaluate_all(CODES) == deal["scarti"]
    assert t.page.locator(".zone-scarti .zone-title").text_content() == "Scarti (41)"
    # the pile stays inside the felt: no sideways scroll, every card's corner on the felt
    assert t.page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    felt = t.page.locator(".felt").bounding_box()
    for box in pile.locator("[data-card]").evaluate_all(
        "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.left, r.right]; })"
    ):
        assert felt["x"] <= box[0] and box[1] <= felt["x"] + felt["width"], (box, felt)
    pile.screenshot(path=str(artifacts / f"tavolo-scarti-{'laptop' if viewport is LAPTOP else 'phone'}.png"))
    assert t.errors == []


def test_a_folded_poker_seat_is_readable(open_table, artifacts):
    engine = registry.get("poker5")
    state, seat = play_until("poker5", lambda st, n, legal: bool(engine.view(st, n).get("folded")), seats=3)
    t = open_table("poker5", players=3)
    t.show(state, seat)
    folded = t.page.locator("[data-role=seats] .seat.folded").first
    folded.wait_for()
    t.page.locator(".felt").screenshot(path=str(artifacts / "tavolo-poker-passato.png"))
    ratio = folded.locator(".seat-name a").evaluate(CONTRAST)
    assert ratio >= 7, ratio  # the name of a player out of the hand still reads at a glance
    assert "Passato" in folded.inner_text()
    assert t.errors == []


def test_a_lost_match_is_not_in_the_win_colour(open_table):
    from django.utils import timezone

    from lobby.models import Hand, HandPlayer

    t = open_table("scopa")
    t.show(None, 1)
    user = t.users[0]

    def hands_played() -> list[int]:
        out = []
        for number, won in ((1, True), (2, False)):
            hand = Hand.objects.create(
                table=t.table,
                number=number,
                game="scopa",
                seats=[{"seat": 1, "user_id": user.pk}],
                outcome={"per_seat": {"1": {"won": won}}},
                ended_at=timezone.now(),
            )
            HandPlayer.objects.create(hand=hand, user=user, seat=1)
            out.append(hand.pk)
        return out

    won, lost = t.live.run(hands_played)
    panel = t.page.locator("[data-role=history]")
    panel.locator("summary").click()
    colour = "el => getComputedStyle(el).color"
    win = panel.locator(f"li[data-hand='{won}'] .history-outcome")
    loss = panel.locator(f"li[data-hand='{lost}'] .history-outcome")
    loss.wait_for()
    assert win.inner_text().strip() == "vinta" and loss.inner_text().strip() == "persa"
    assert win.evaluate(colour) == "rgb(11, 93, 59)"  # the win's green
    assert loss.evaluate(colour) == "rgb(179, 38, 30)"  # the loss's red


def test_burraco_seats_show_their_points_on_the_table(open_table):
    state, seat, _laid = burraco_with_meld()
    engine = registry.get("burraco")
    mine = state["seats"].index(seat) % 2
    points = [engine.rules.table_points(state["deal"], line) for line in (0, 1)]
    assert points[mine] > 0 and points[1 - mine] == 0
    t = open_table("burraco")
    t.show(state, seat)
    for line, no in ((mine, seat), (1 - mine, 3 - seat)):
        infos = t.page.locator(f"[data-role=seats] [data-seat='{no}'] .seat-info").all_inner_texts()
        assert f"Punti in tavola: {points[line]}" in infos, infos
    assert t.errors == []


def test_telesina_log_says_which_variant_the_dealer_chose(open_table):
    state, seat = play_until("telesina", lambda st, n, legal: len(legal) > 1)
    t = open_table("telesina")
    msg = t.payload(state, seat)
    chosen = {"vele": "croce", "distribuzione": "primo_giro", "auto": False}
    msg["events"] = [{"type": "variante", "seat": 1, **chosen}]
    t.push(msg)
    line = t.page.locator("[data-role=log] li").first
    text = " ".join(line.inner_text().split())
    assert text == f"{t.users[0].nickname}: variante: vele croce, distribuzione primo giro", text
    assert "VARIANTE" not in text
    assert t.errors == []
