"""The load benchmark of the live tables: ``python -m bench.loadbench``.

A script, never a test. It starts the platform in production mode on this machine (PostgreSQL,
Redis db 5, several Daphne processes, Celery workers and beat), connects N bot clients over real
WebSockets to Poker 5 carte and Scopa tables, and prints actions per second, the round trip from
an action to the resulting view (p50/p95/p99) and the peak resident memory of every server process.

Modules: ``core`` (pure: layout of N clients into tables, percentiles, the bots' choice),
``prepare`` (seeds the database; run in a subprocess with the production settings), ``client``
(asyncio + websockets bot clients; one or more processes), ``__main__`` (the orchestrator),
``owner`` (the table owners' CPU per action in one process), ``ratelimit`` (the per-user frame
limit's cost in Redis), ``floor`` (the floor of the one owner process per table design, measured
with the same clients), ``probe`` (the event loop's stalls, ``--probe``). ``bench/README.md`` says
what each needs and compares with.
"""
