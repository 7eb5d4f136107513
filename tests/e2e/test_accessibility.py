"""WCAG 2.1 AA, measured with axe-core (axe-playwright-python) on real pages served by Daphne.

One page load per page: the home, the lobby, the training lobby, two rules pages, a live table in
play (with cards) of poker, scopa and burraco, the conto, the tournament list and a tournament
lobby. axe runs with the wcag2a, wcag2aa, wcag21a and wcag21aa tags at desktop size (1366×900)
and, on the pages whose layout changes on a phone (the tables, the lobbies, a rules page), again at
390×844 after a resize. Any violation fails the test, listed with its rule, impact and the
elements it found.

axe leaves undecided the contrast of most text on the felt (a gradient under it, a seat box over
it, text too short for it to call text: chip counts, "×12"); the test measures those itself (below).
It takes about 30 s (loaded): thirteen audits of real pages, three live tables dealt and played.
"""

from __future__ import annotations

import pytest

from tests.e2e.live import LOCKED_AUDIO, STATIC_FILES_WARNING, TABLE, resize

pytestmark = [pytest.mark.browser, pytest.mark.filterwarnings(STATIC_FILES_WARNING)]

TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
TABLE_VERSION = "() => document.querySelector('#table')?.dataset.version ?? null"
TEMPO = 3600  # seconds: no clock runs out during the audit
TABLE_GAMES = {"poker5": ("Piero", "Quinto", "Rita"), "scopa": ("Sara", "Tito"), "burraco": ("Ugo", "Vera")}


def _seed():
    """Three live tables in play, a scheduled tournament; the session of each table's first player."""
    from piattaforma import roles
    from tests.e2e.test_e2e_tables import _setup
    from tests.piattaforma.factories import UserFactory
    from tests.tournaments.factories import make_tournament

    # Clocks longer than the audit: a clock that runs out moves the table (a fold, a new hand)
    # between the two screenshots of a measurement, which then compares different pages.
    tables = {game: _setup(game, names, tempo_giocata=TEMPO) for game, names in TABLE_GAMES.items()}
    staff = UserFactory(role=roles.STAFF)
    tournament = make_tournament(staff, name="Scopa della sera", guaranteed=10_000, smazzate=3)
    return tables, tournament.pk


# Where axe cannot decide a text's contrast, the test measures it as a person sees it: the page is
# drawn twice, as it is and with every text transparent; the pixels that differ inside the text's
# line boxes are its glyphs, and the text's colour as painted (its alpha times the opacities above
# it) is compared with the background drawn under each of them. The lowest ratio counts (WCAG
# 1.4.3: 4.5:1, 3:1 for large text).
TEXT_BOXES = """(selectors) => {
  const boxes = selectors.map((sel) => {
    const el = document.querySelector(sel);
    if (!el) return null;
    const style = getComputedStyle(el);
    const rects = [];
    for (const node of el.childNodes) {
      if (node.nodeType !== Node.TEXT_NODE || !node.textContent.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const r of range.getClientRects()) {
        if (r.width >= 1 && r.height >= 1) rects.push([r.left + scrollX, r.top + scrollY, r.width, r.height]);
      }
    }
    const size = parseFloat(style.fontSize), weight = Number(style.fontWeight) || 400;
    const hidden = style.visibility !== 'visible' || Number(style.opacity) === 0;
    // The text's colour as painted: its alpha times the opacity of the element and its ancestors.
    let alpha = 1;
    for (let e = el; e && e.nodeType === Node.ELEMENT_NODE; e = e.parentNode) {
      alpha *= Number(getComputedStyle(e).opacity);
    }
    const rgba = (el instanceof SVGElement ? style.fill : style.color).match(/[\\d.]+/g).map(Number);
    const color = `rgba(${rgba[0]}, ${rgba[1]}, ${rgba[2]}, ${+((rgba[3] ?? 1) * alpha).toFixed(3)})`;
    const large = size >= 24 || (size >= 18.66 && weight >= 700);
    return {sel, el, rects: hidden ? [] : rects, color, large};
  }).filter(Boolean);
  // Text covered by another element (a card fanned over another one) is not read: its line boxes
  // are left out when what is drawn at their centre is neither the text's element nor its card.
  for (const box of boxes) {
    const own = box.el.closest('svg') || box.el;
    box.rects = box.rects.filter(([x, y, w, h]) => {
      window.scrollTo(0, Math.max(0, y + h / 2 - innerHeight / 2));
      const hit = document.elementFromPoint(x + w / 2 - scrollX, y + h / 2 - scrollY);
      return !hit || own.contains(hit) || hit.contains(own);
    });
    delete box.el;
  }
  window.scrollTo(0, 0);
  return boxes;
}"""
HIDE_TEXT = (
    "*, *::before, *::after { color: transparent !important; -webkit-text-fill-color: transparent !important;"
    " text-shadow: none !important; caret-color: transparent !important; transition: none !important;"
    " animation: none !important; }"
    " svg text, svg tspan { fill: transparent !important; stroke: none !important; }"
)
MEASURE = """async ([shown, bare, boxes, dpr]) => {
  const pixels = async (png) => {
    const bytes = Uint8Array.from(atob(png), (c) => c.charCodeAt(0));
    const bitmap = await createImageBitmap(new Blob([bytes], {type: 'image/png'}));
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const ctx = canvas.getContext('2d', {willReadFrequently: true});
    ctx.drawImage(bitmap, 0, 0);
    return ctx;
  };
  const [withText, without] = [await pixels(shown), await pixels(bare)];
  const lin = Array.from({length: 256}, (_, c) => {
    c /= 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  const lum = (r, g, b) =>
    0.2126 * lin[Math.round(r)] + 0.7152 * lin[Math.round(g)] + 0.0722 * lin[Math.round(b)];
  return boxes.map((box) => {
    const m = box.color.match(/[\\d.]+/g).map(Number);
    const [fr, fg, fb] = m, fa = m.length > 3 ? m[3] : 1;
    const ratioOn = (br, bg, bb) => {
      const l1 = lum(fr * fa + br * (1 - fa), fg * fa + bg * (1 - fa), fb * fa + bb * (1 - fa));
      const l2 = lum(br, bg, bb);
      return (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
    };
    let worst = Infinity, bgWorst = null, glyphs = 0, flat = Infinity, bgFlat = null;
    for (const [x, y, w, h] of box.rects) {
      const x0 = Math.round(x * dpr), y0 = Math.round(y * dpr);
      const ww = Math.max(1, Math.round(w * dpr)), hh = Math.max(1, Math.round(h * dpr));
      if (x0 < 0 || y0 < 0 || x0 + ww > without.canvas.width || y0 + hh > without.canvas.height) continue;
      const a = withText.getImageData(x0, y0, ww, hh).data, b = without.getImageData(x0, y0, ww, hh).data;
      for (let i = 0; i < b.length; i += 4) {
        const [br, bg, bb] = [b[i], b[i + 1], b[i + 2]];
        // A pixel the text paints: the background there is what its glyphs stand on.
        if (Math.abs(a[i] - br) + Math.abs(a[i + 1] - bg) + Math.abs(a[i + 2] - bb) < 24) {
          if (!glyphs) { const r = ratioOn(br, bg, bb); if (r < flat) { flat = r; bgFlat = [br, bg, bb]; } }
          continue;
        }
        glyphs += 1;
        const ratio = ratioOn(br, bg, bb);
        if (ratio < worst) { worst = ratio; bgWorst = [br, bg, bb]; }
      }
    }
    // Text that paints nothing visible has no contrast at all: the lowest ratio of its whole box.
    if (!glyphs) { worst = flat; bgWorst = bgFlat; }
    return {sel: box.sel, ratio: worst, bg: bgWorst, color: box.color, needed: box.large ? 3 : 4.5};
  });
}"""


def _measured_contrast(page, selectors: list[str]) -> list[dict]:
    """The lowest contrast ratio of each element's own text against what is drawn under it."""
    import base64

    boxes = [b for b in page.evaluate(TEXT_BOXES, selectors) if b["rects"]]
    if not boxes:
        return []
    shown = page.screenshot(full_page=True, animations="disabled")
    # A constructed style sheet: the page's CSP (style-src 'self') refuses an inline <style>.
    page.evaluate(
        "(css) => { window.__hide = new CSSStyleSheet(); __hide.replaceSync(css);"
        " document.adoptedStyleSheets = [...document.adoptedStyleSheets, __hide]; }",
        HIDE_TEXT,
    )
    bare = page.screenshot(full_page=True, animations="disabled")
    page.evaluate("() => { document.adoptedStyleSheets = document.adoptedStyleSheets.slice(0, -1); }")
    dpr = page.evaluate("devicePixelRatio")
    pngs = [base64.b64encode(shown).decode(), base64.b64encode(bare).decode()]
    return page.evaluate(MEASURE, [*pngs, boxes, dpr])


def _violations(page, where: str) -> list[str]:
    """axe's violations, plus the texts whose contrast axe left undecided and the test measured too low."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page, options={"runOnly": {"type": "tag", "values": TAGS}}).response
    found = []
    for v in results["violations"]:
        for node in v["nodes"]:
            detail = node.get("failureSummary", "").replace("\n", " ")
            found.append(f"{where}: {v['id']} ({v['impact']}) {node['target']} {detail[:220]}")
    undecided = [
        node["target"][0]
        for item in results["incomplete"]
        if item["id"] == "color-contrast"
        for node in item["nodes"]
    ]
    for m in _measured_contrast(page, undecided):
        if m["ratio"] < m["needed"]:
            found.append(
                f"{where}: color-contrast (measured) {m['sel']} {m['ratio']:.2f} < {m['needed']}"
                f" ({m['color']} on rgb{tuple(m['bg'])})"
            )
    return found


def test_wcag21_aa_on_the_pages_of_play(asgi_live, new_context):
    live = asgi_live
    tables, tournament = live.run(_seed)
    context = new_context()
    context.add_init_script(LOCKED_AUDIO)  # audio held locked: the "Attiva i suoni" question stays, audited
    page = context.new_page()
    page.set_viewport_size(DESKTOP)
    found: list[str] = []

    def audit(path: str, slug: str, *, phone: bool, ready=None) -> None:
        page.set_viewport_size(DESKTOP)
        page.goto(live.url + path)
        if ready:
            ready()
        version = page.evaluate(TABLE_VERSION)
        found.extend(_violations(page, f"desktop {slug}"))
        if phone:
            resize(page, PHONE)
            found.extend(_violations(page, f"phone {slug}"))
        # The measurements compare screenshots taken one after the other: they hold only for a
        # table that did not move meanwhile.
        assert page.evaluate(TABLE_VERSION) == version, f"{slug}: the table moved during its audit"

    def table_ready() -> None:
        page.wait_for_function(
            "() => { const t = document.querySelector('#table');"
            " return t && t.dataset.connected === '1' && Number(t.dataset.version || 0) > 0; }"
        )
        page.wait_for_selector(f"{TABLE} [data-role=hand] [data-card]")

    for game, (table_id, session) in tables.items():
        context.add_cookies([{"name": "sessionid", "value": session, "url": live.url}])
        audit(f"/lobby/tavolo/{table_id}/", game, phone=True, ready=table_ready)
    # The rest as the poker player (a player with a conto, seated at a table).
    context.add_cookies([{"name": "sessionid", "value": tables["poker5"][1], "url": live.url}])
    audit("/", "home", phone=False)
    audit("/lobby/", "lobby", phone=True)
    audit("/lobby/allenamento/", "allenamento", phone=True)
    audit("/regole/scopa/", "regole-scopa", phone=True)
    audit("/regole/tornei/", "regole-tornei", phone=False)
    audit("/conto/", "conto", phone=False)
    audit("/tornei/", "tornei", phone=False)
    audit(f"/tornei/{tournament}/", "torneo", phone=False)
    assert found == [], "\n".join(found)
