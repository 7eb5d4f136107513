"""Benchmarks, probes, load clients and floor experiments: scripts that print figures.

Never imported by the product and never installed with it (``pyproject.toml`` packages only the
apps); run each with ``python -m bench.<name>`` from the repository's root, as ``README.md`` here
lists.
"""
