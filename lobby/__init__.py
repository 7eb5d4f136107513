"""Cash tables and the live-table runtime.

Tables, seats, waiting lists, hand history and replay, and the runtime that plays them: one owner
per table (an asyncio task in a server process) applies its actions in order, journals every step
before any view leaves, sends each seat its own projection, runs the clocks, and is taken over
from snapshot and journal by another process when its own dies. The Channels consumers, the pages
and the back office enter a table through its actions; money moves through ``wallet``, results
reach the tournaments through ``piattaforma.hooks``. See docs/live-tables.md.
"""
