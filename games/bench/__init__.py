"""Engine benchmarks: scripts that print figures, never assertions in the test suite.

Each module here defines ``run(quick: bool) -> None`` that prints its figures. Run them all with
``python -m games.bench`` or some with ``python -m games.bench poker5 evaluator``; ``--quick`` uses
small samples (for a smoke run).
"""
