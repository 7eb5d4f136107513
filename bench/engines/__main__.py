"""Run the engine benchmarks: ``python -m bench.engines [--quick] [name ...]``."""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import time

import bench.engines


def main() -> None:
    """Import each benchmark module (or the ones named) and run it, printing its figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("names", nargs="*", help="benchmark modules to run (default: all)")
    parser.add_argument("--quick", action="store_true", help="small samples, for a smoke run")
    args = parser.parse_args()
    modules = pkgutil.iter_modules(bench.engines.__path__)
    available = sorted(m.name for m in modules if not m.name.startswith("_"))
    for name in args.names or available:
        if name not in available:
            parser.error(f"unknown benchmark {name!r}; available: {', '.join(available)}")
        module = importlib.import_module(f"bench.engines.{name}")
        print(f"== {name}", flush=True)
        started = time.perf_counter()
        module.run(quick=args.quick)
        print(f"   ({time.perf_counter() - started:.1f} s)", flush=True)


if __name__ == "__main__":
    main()
