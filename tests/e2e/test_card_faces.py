"""The SVG card faces of static/js/cards.js (RULINGS G3), through the demo page."""

import pytest

from tests.e2e.live import STATIC_FILES_WARNING

pytestmark = [pytest.mark.browser, pytest.mark.filterwarnings(STATIC_FILES_WARNING)]

SUITS = "hdcs"
FRENCH = {"h": "cuori", "d": "quadri", "c": "fiori", "s": "picche"}
ITALIAN = {"h": "coppe", "d": "denari", "c": "bastoni", "s": "spade"}
RANK_NAMES = {"A": "asso", "T": "10", "J": "fante", "Q": "donna", "K": "re"}


def expected_labels(style: str) -> dict[str, str]:
    """Return the aria-label of every card of a style's deck, as games.cards.label() names them."""
    if style == "francesi":
        cards = {r + s: f"{RANK_NAMES.get(r, r)} di {FRENCH[s]}" for s in SUITS for r in "A23456789TJQK"}
        cards.update({f"X{i}": "jolly" for i in range(1, 5)})
        return cards
    names = {**RANK_NAMES, "Q": "cavallo"}
    return {r + s: f"{names.get(r, r)} di {ITALIAN[s]}" for s in SUITS for r in "A234567JQK"}


@pytest.fixture
def demo(page, asgi_live):
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.goto(f"{asgi_live.url}/static/cards-demo.html")
    page.wait_for_selector("body[data-ready='3']")
    yield page
    assert errors == []


@pytest.mark.parametrize("style", ["napoletane", "piacentine", "francesi"])
def test_every_card_of_each_style_renders(demo, artifacts, style):
    labels = expected_labels(style)
    section = demo.locator(f"#stile-{style}")
    for size in (100, 40):
        faces = section.locator(f"[data-size='{size}'] svg")
        found = faces.evaluate_all(
            """els => els.map(e => {
                const r = e.getBoundingClientRect();
                return {card: e.dataset.card, label: e.getAttribute('aria-label'),
                        role: e.getAttribute('role'),
                        tag: e.namespaceURI + ' ' + e.localName, w: r.width, h: r.height,
                        shapes: e.querySelectorAll('path, circle, ellipse, text').length,
                        box: (({x, y, width, height}) => [x, y, x + width, y + height])(e.getBBox())};
            })"""
        )
        assert sorted(f["card"] for f in found) == sorted(labels)
        for face in found:
            assert face["tag"] == "http://www.w3.org/2000/svg svg"
            assert face["role"] == "img"
            assert face["label"] == labels[face["card"]], face
            assert face["w"] == pytest.approx(size) and face["h"] == pytest.approx(size * 1.4)
            assert face["shapes"] >= 3, face  # a real drawing, not an empty box
            left, top, right, bottom = face["box"]  # the drawing stays on the card (100 × 140)
            assert left >= 0 and top >= 0 and right <= 100 and bottom <= 140, face
    section.screenshot(path=str(artifacts / f"carte-{style}.png"))


def test_covered_cards_and_backs(demo):
    for style in ("napoletane", "piacentine", "francesi"):
        backs = demo.locator(f"#stile-{style} [data-role='backs'] svg")
        assert backs.count() == 5
        labels = backs.evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")
        assert set(labels) == {"carta coperta"}
        assert all(w > 0 for w in backs.evaluate_all("els => els.map(e => e.getBoundingClientRect().width)"))


def test_module_api(demo):
    """cardSvg's options and fallbacks: Italian styles draw 8–10 as French cards, bad codes throw."""
    result = demo.evaluate(
        """async () => {
            const m = await import('/static/js/cards.js');
            const label = (c, o) => m.cardSvg(c, o).getAttribute('aria-label');
            let thrown = '';
            try { m.cardSvg('1h'); } catch (e) { thrown = e.name; }
            return {
                re: label('Kd', {style: 'napoletane'}),
                cavallo: label('Qh', {style: 'piacentine'}),
                donna: label('Qh', {style: 'francesi'}),
                otto: label('8h', {style: 'napoletane'}),
                ottoClass: m.cardSvg('8h', {style: 'napoletane'}).classList.contains('carta--francesi'),
                coperta: label('As', {faceDown: true}),
                jolly: label('X3', {style: 'napoletane'}),
                compact: m.cardSvg('As', {size: 40}).classList.contains('carta--compatta'),
                full: m.cardSvg('As', {size: 100}).classList.contains('carta--compatta'),
                noSize: m.cardSvg('As').getAttribute('width'),
                thrown,
                forPoker: m.styleForGame('napoletane', false),
                forScopa: m.styleForGame('piacentine', true),
                decks: [m.deckCards('napoletane').length, m.deckCards('francesi', {jokers: true}).length],
            };
        }"""
    )
    assert result == {
        "re": "re di denari",
        "cavallo": "cavallo di coppe",
        "donna": "donna di cuori",
        "otto": "8 di cuori",
        "ottoClass": True,
        "coperta": "carta coperta",
        "jolly": "jolly",
        "compact": True,
        "full": False,
        "noSize": None,
        "thrown": "RangeError",
        "forPoker": "francesi",
        "forScopa": "piacentine",
        "decks": [40, 56],
    }


def test_card_sizes_from_css_classes(demo):
    """Without a size the SVG takes its width from cards.css and keeps the 5:7 shape."""
    box = demo.evaluate(
        """async () => {
            const m = await import('/static/js/cards.js');
            const svg = m.cardSvg('Th', {style: 'francesi'});
            svg.classList.add('carta--lg');
            document.body.append(svg);
            const r = svg.getBoundingClientRect();
            svg.remove();
            return [r.width, r.height];
        }"""
    )
    assert box == [pytest.approx(100), pytest.approx(140)]


def test_drawing_time(demo):
    """Print the demo page's figure: the mean time to draw one card as an SVG element."""
    figure = demo.inner_text("#tempo")
    print(figure)
    assert "ms per carta" in figure
