"""The table client's own words all reach the page's catalog, and each has its English.

The client writes Italian and looks each text up in the catalog lobby/client_text.py builds: a text
the catalog lacks stays Italian on the English page. This reads the client's modules for the texts
it passes to t() and the felt's labels, phases and values (dom.js), and checks each is listed and
translated in locale/en.
"""

from __future__ import annotations

import re
from pathlib import Path

from django.utils import translation

from lobby import client_text

TABLE_JS = Path(__file__).resolve().parents[2] / "static" / "js" / "table"
T_CALL = re.compile(r'\bt\(\s*"((?:[^"\\]|\\.)*)"')
# dom.js's maps (LABELS, PHASES, VALUES, KEYED_VALUES) and choices.js' (FIELDS, COMBOS, COMBOS_FR,
# ACCUSI): every quoted value after a colon.
MAP = re.compile(
    r"const (?:LABELS|PHASES|VALUES|KEYED_VALUES|FIELDS|COMBOS|COMBOS_FR|ACCUSI) = \{(.*?)\n\};", re.S
)
MAP_VALUE = re.compile(r':\s*"((?:[^"\\]|\\.)*)"')
# Terms of art stay Italian in English too (STYLE.md: invito, parol, vele, primiera, pozzetto...).
SAME_IN_ENGLISH = {
    "Premove",
    "Sitout",
    "Parol",
    "Rake",
    "MP",
    "VP",
    "Garage",
    "Bestia",
    "Chemin",
    "No",
    "Cappotto",
    "Giro pazzo",
    "Invito",
    "Mazzetto",
    "Pozzetto",
    "Primiera",
    "Scope",
    "Scopa!",
    "Seguito",
    "Settebello",
    "Vele",
}


def client_texts() -> set[str]:
    found: set[str] = set()
    for path in TABLE_JS.glob("*.js"):
        source = re.sub(r"(?m)^\s*//.*$", "", path.read_text(encoding="utf-8"))  # comments hold examples
        found |= set(T_CALL.findall(source))
        for block in MAP.findall(source):
            found |= set(MAP_VALUE.findall(block))
    return found


def test_every_client_text_is_in_the_catalog():
    listed = set(client_text.TEXTS) | set(client_text.LABELS)
    missing = sorted(client_texts() - listed)
    assert missing == [], missing


def test_every_client_text_has_its_english():
    with translation.override("en"):
        catalog = client_text.catalog()
    untranslated = sorted(
        text for text in client_texts() if catalog.get(text, text) == text and text not in SAME_IN_ENGLISH
    )
    assert untranslated == [], untranslated
