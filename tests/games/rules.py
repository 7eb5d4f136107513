"""The rules' Italian originals, read from ``../shared/rules`` beside the project (as in CI).

A test that checks the code against the rules' own text fails, never skips, where they are missing.
"""

from pathlib import Path

import pytest

RULES_DIR = Path(__file__).resolve().parents[3] / "shared" / "rules"


def rules_text(prefix: str) -> str:
    """The text of the rules file whose name starts with ``prefix`` (``004_`` is the regulation)."""
    found = sorted(RULES_DIR.glob(f"{prefix}*.txt"))
    if not found:
        pytest.fail(f"the rules {prefix}*.txt are missing from {RULES_DIR} (../shared/rules of the project)")
    return found[0].read_text(encoding="utf-8")
