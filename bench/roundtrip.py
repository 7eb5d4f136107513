"""What one round trip to PostgreSQL costs a thread in CPU, alone and beside a busy thread.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/piattaforma .venv/bin/python -m bench.roundtrip

A thread runs ``--queries`` one-row ``SELECT``s through Django's cursor and prints its own CPU
(``time.thread_time``) and wall time per query: first alone, then while another thread of the
process runs pure Python without pause (as a loaded Daphne's event loop does beside the owners'
database threads). Each wait for PostgreSQL gives the interpreter's lock up; the second figure is
what taking it back costs. The reference is the first figure, same run.
"""

from __future__ import annotations

import argparse
import os
import threading
import time


def run(queries: int) -> tuple[float, float]:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cpu, wall = time.thread_time(), time.perf_counter()
        for i in range(queries):
            cursor.execute("SELECT %s", [i])
        cpu, wall = time.thread_time() - cpu, time.perf_counter() - wall
    connection.close()
    return 1e6 * cpu / queries, 1e6 * wall / queries


def measured(queries: int, busy: bool) -> tuple[float, float]:
    stop = threading.Event()

    def spin() -> None:
        n = 0
        while not stop.is_set():
            n += 1

    spinner = threading.Thread(target=spin)
    if busy:
        spinner.start()
    result: list[tuple[float, float]] = []
    worker = threading.Thread(target=lambda: result.append(run(queries)))
    worker.start()
    worker.join()
    stop.set()
    if busy:
        spinner.join()
    return result[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--queries", type=int, default=1000)
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
    import django

    django.setup()
    alone = measured(args.queries, busy=False)
    beside = measured(args.queries, busy=True)
    print(f"{args.queries} queries, database {os.environ.get('DATABASE_URL', '(embedded)')}")
    print("                      CPU µs/query  wall µs/query")
    print(f"alone (reference)     {alone[0]:12.0f}  {alone[1]:13.0f}")
    print(
        f"beside a busy thread  {beside[0]:12.0f}  {beside[1]:13.0f}  ({beside[0] / alone[0]:.1f}x the CPU)"
    )


if __name__ == "__main__":
    main()
