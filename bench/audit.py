"""Audit chain throughput: writers commit audited transactions at once; then the chain is verified.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/piattaforma_x .venv/bin/python -m bench.audit

Creates a scratch database (``test_`` + the name in DATABASE_URL, migrated, dropped at the end),
runs ``--writers`` threads (one connection each) that each commit ``--rows`` transactions holding
one audit line, every line sealed into the chain right after its commit, and prints rows/s, the
p50/p99 time of one audited commit (insert + commit + seal), and the time ``audit_verify`` takes
over the whole chain. Figures, not a test: the suite never times anything.
"""

from __future__ import annotations

import argparse
import os
import statistics
import threading
import time


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--writers", type=int, default=8)
    parser.add_argument("--rows", type=int, default=200, help="audited transactions per writer")
    parser.add_argument(
        "--no-seal", action="store_true", help="reference: the same commits with no seal after them"
    )
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
    import django

    django.setup()
    from django.db import connection, connections, transaction

    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        from piattaforma import audit
        from piattaforma.actions import audit_record
        from piattaforma.audit import audit_seal, audit_verify

        if args.no_seal:
            audit._seal_after_commit = lambda: None  # type: ignore[assignment]  # the reference run

        timings: list[float] = []
        lock = threading.Lock()
        barrier = threading.Barrier(args.writers)

        def writer(w: int) -> None:
            mine = []
            barrier.wait()
            for i in range(args.rows):
                start = time.perf_counter()
                with transaction.atomic():
                    audit_record(actor=None, action="bench.audit", data={"writer": w, "i": i})
                mine.append(time.perf_counter() - start)  # the seal ran on commit, inside this span
            connections.close_all()
            with lock:
                timings.extend(mine)

        threads = [threading.Thread(target=writer, args=(w,)) for w in range(args.writers)]
        start = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        elapsed = time.perf_counter() - start
        total = args.writers * args.rows
        timings.sort()
        started = time.perf_counter()
        left = audit_seal()  # what the beat task would seal: (--no-seal) every row at once
        seal_s = time.perf_counter() - started
        report = audit_verify()
        verify_s = time.perf_counter() - started - seal_s
        seal = "off (reference)" if args.no_seal else "on commit"
        print(f"database: {connection.vendor}; writers: {args.writers}; commits: {total}; seal {seal}")
        print(f"throughput: {total / elapsed:.0f} audited commits/s ({elapsed:.2f} s)")
        p99 = timings[int(len(timings) * 0.99) - 1]
        print(f"one audited commit: p50 {statistics.median(timings) * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms")
        print(f"seal what was left: {left} rows in {seal_s:.2f} s")
        print(f"verify: ok={report.ok}, {report.rows_checked} rows in {verify_s:.2f} s")
        return 0 if report.ok and report.rows_checked == total else 1
    finally:
        connections.close_all()
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    raise SystemExit(main())
