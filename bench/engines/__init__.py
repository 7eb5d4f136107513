"""Engine benchmarks: scripts that print figures, never assertions in the test suite.

Each module here defines ``run(quick: bool) -> None`` that prints its figures. Run them all with
``python -m bench.engines`` or some with ``python -m bench.engines poker5 evaluator``; ``--quick`` uses
small samples (for a smoke run).
"""
