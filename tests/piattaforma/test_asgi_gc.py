"""The server process keeps what it loaded to start out of the garbage collector's full passes, and
collects its young objects every 10,000 allocations, not 700; it builds the hand evaluator's
tables before its first table needs them (``config/asgi.py``)."""

import os
import subprocess
import sys
from pathlib import Path

from games import evaluator

ROOT = Path(__file__).resolve().parents[2]


def started(code: str) -> list[str]:
    """What ``code`` prints, run in a fresh interpreter that imports the ASGI application in it."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test", "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True, check=True
    )
    return out.stdout.split()


def test_the_asgi_application_freezes_what_the_process_loaded_to_start():
    code = (
        "import gc; before = gc.get_freeze_count(); import config.asgi;"
        " print(before, gc.get_freeze_count(), len(gc.get_objects()), *gc.get_threshold())"
    )
    before, frozen, left, *threshold = (int(x) for x in started(code))
    assert frozen - before > 50_000  # Django, the apps and the engines
    assert left < frozen / 10  # what a full pass still walks: what was made after the start
    assert threshold == [10_000, 10, 10]  # the Python default is 700, 10, 10


def test_the_asgi_application_builds_every_decks_evaluator_tables_at_start():
    code = (
        "from games import evaluator; before = ''.join(sorted(evaluator._TABLES)); import config.asgi;"
        " print(before or '-', ''.join(sorted(evaluator._TABLES)) or '-')"
    )
    before, after = started(code)
    assert before == "-"  # none on import: the engines build a deck's tables on first use
    assert after == "".join(sorted(evaluator.LOWEST_RANKS))  # all five by the time it serves
