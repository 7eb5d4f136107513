"""House rules that no linter checks (../shared/STYLE.md)."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = (
    "config",
    "games",
    "wallet",
    "lobby",
    "piattaforma",
    "tournaments",
    "moderation",
    "scripts",
    "tests",
)
IGNORE = re.compile(r"#\s*type:\s*ignore(?P<code>\[[a-z0-9_,-]+\])?(?P<rest>.*)$")


def test_every_type_ignore_gives_its_code_and_a_reason():
    """``# type: ignore[code]  # why`` and never a bare ``# type: ignore``."""
    bare = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
                found = IGNORE.search(line)
                if found and (not found["code"] or not found["rest"].strip().startswith("#")):
                    bare.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not bare, "\n".join(bare)


# The composition root inside the core, which gathers every app by design: the demo data. (The
# WebSocket routes and the URLs, which gather them too, are the project's wiring, in ``config``.)
CORE_MAY_IMPORT_APPS = {"piattaforma/management/commands/seed_demo.py"}
APP_IMPORT = re.compile(r"^\s*(?:from|import)\s+(lobby|tournaments|moderation)\b", re.MULTILINE)


def test_the_core_does_not_import_the_apps():
    """``piattaforma`` reaches the lobby, tournaments and moderation through hooks (piattaforma/hooks.py)."""
    found = [
        f"{path.relative_to(ROOT)}: {match.group(0).strip()}"
        for path in sorted((ROOT / "piattaforma").rglob("*.py"))
        if str(path.relative_to(ROOT)) not in CORE_MAY_IMPORT_APPS
        for match in APP_IMPORT.finditer(path.read_text(encoding="utf-8"))
    ]
    assert not found, "\n".join(found)


# Text the platform wrote itself (saved states, the ledger's rows, the audit's normalising
# round-trip): the only places a plain json.loads may read. Anything a client sent goes through
# piattaforma.jsoninput (nesting, lone surrogates, NUL, huge numbers).
TRUSTED_JSON_READERS = {
    "piattaforma/jsoninput.py",
    "piattaforma/audit.py",
    "lobby/runtime/owner.py",
    "wallet/ledger.py",
    "games/engine.py",
}
PRODUCT = ("config", "games", "wallet", "lobby", "piattaforma", "tournaments", "moderation")


def test_client_json_is_read_only_through_the_defensive_reader():
    """A bare ``json.loads`` on a request body was a 500 on ``[[[…`` and let NUL reach PostgreSQL."""
    found = []
    for package in PRODUCT:
        for path in sorted((ROOT / package).rglob("*.py")):
            name = str(path.relative_to(ROOT))
            if "migrations" in name or name in TRUSTED_JSON_READERS:
                continue
            text = path.read_text(encoding="utf-8")
            if re.search(r"\bjson\.loads?\(|\bfrom json import\b|\brequest\.body\b", text) and (
                "jsoninput" not in text or re.search(r"\bjson\.loads?\(", text)
            ):
                found.append(name)
    assert not found, found


def test_ids_in_urls_are_bounded():
    """``<id:...>`` (18 digits at most), never ``<int:...>``, which lets any number of digits through."""
    found = []
    for package in PRODUCT:
        for path in sorted((ROOT / package).rglob("*.py")):
            if re.search(r"<int:\w+>", path.read_text(encoding="utf-8")):
                found.append(str(path.relative_to(ROOT)))
    assert not found, found
