"""The server process keeps what it loaded to start out of the garbage collector's full passes."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_asgi_application_freezes_what_the_process_loaded_to_start():
    code = (
        "import gc; before = gc.get_freeze_count(); import piattaforma.asgi;"
        " print(before, gc.get_freeze_count(), len(gc.get_objects()))"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "piattaforma.settings.test", "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True, check=True
    )
    before, frozen, left = (int(x) for x in out.stdout.split())
    assert frozen - before > 50_000  # Django, the apps and the engines
    assert left < frozen / 10  # what a full pass still walks: what was made after the start
