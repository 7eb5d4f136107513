"""Build the evaluator's C lookup (games/_fasteval.c) next to its source, for this interpreter.

``make venv`` runs it with the virtualenv's Python. It needs a C compiler and the interpreter's
headers (both on the platform's machines); without them it says so and stops with status 0, and
games.evaluator keeps its pure-Python lookup, so ``make run`` still works anywhere. With
``PIATTAFORMA_REQUIRE_NATIVE=1`` (CI) a failed build is an error instead.

Only the standard library is used: the compiler and flags come from ``sysconfig``, as setuptools
would take them, and the module is written to a temporary name and moved into place, so an
import never sees half a file.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "games" / "_fasteval.c"


def target() -> Path:
    """Return where the module goes: games/_fasteval<this interpreter's extension suffix>."""
    return SOURCE.with_name("_fasteval" + sysconfig.get_config_var("EXT_SUFFIX"))


def command(output: Path) -> list[str]:
    """Return the compiler command that builds the module into ``output``."""
    cc = shlex.split(sysconfig.get_config_var("CC") or "cc")
    if not shutil.which(cc[0]):
        cc = ["cc"]
    include = sysconfig.get_paths()["include"]
    flags = ["-O2", "-fPIC", "-shared", "-Wall", "-std=c11", "-fno-strict-aliasing"]
    return [*cc, *flags, f"-I{include}", str(SOURCE), "-o", str(output)]


def build() -> str | None:
    """Build the module; return None, or why it could not be built."""
    header = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not header.exists():
        return f"mancano gli header di Python ({header})"
    out = target()
    with tempfile.NamedTemporaryFile(dir=out.parent, prefix=".fasteval-", suffix=".so", delete=False) as tmp:
        partial = Path(tmp.name)
    try:
        try:
            # The compiler named by this interpreter's own build configuration, on our source.
            done = subprocess.run(command(partial), capture_output=True, text=True, timeout=300)  # noqa: S603
        except (OSError, subprocess.TimeoutExpired) as exc:
            return f"compilatore C non disponibile ({exc})"
        if done.returncode != 0:
            return f"compilazione fallita:\n{done.stdout}{done.stderr}"
        os.replace(partial, out)
    finally:
        partial.unlink(missing_ok=True)
    probe = subprocess.run(
        [sys.executable, "-c", "from games import _fasteval; print(_fasteval.VERSION)"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    if probe.returncode != 0:
        out.unlink(missing_ok=True)
        return f"il modulo compilato non si importa:\n{probe.stderr}"
    return None


def main() -> int:
    """Build, report, and return the exit status (1 only when the build is required and failed)."""
    problem = build()
    if problem is None:
        print(f"valutatore in C: {target().relative_to(ROOT)}")
        return 0
    print(f"valutatore in C non compilato, resta quello in Python: {problem}", file=sys.stderr)
    return 1 if os.environ.get("PIATTAFORMA_REQUIRE_NATIVE") == "1" else 0


if __name__ == "__main__":
    sys.exit(main())
