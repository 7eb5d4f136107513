"""What a process that serves the live tables does once it has loaded, before it serves
(``config.asgi``; the load benchmark's floor starts the same way, to differ from the product in
its design only)."""

import gc

from games import evaluator


def ready_to_serve() -> None:
    """Build what a table would otherwise build on the event loop, and tune the collector.

    - The hand evaluator's lookup tables of the five decks (about a second and 18 MB), built now,
      not at a table's first showdown in each deck: there the build holds the event loop, and with
      it every table of the process, up to half a second (the 40-card deck of six players).
    - What the process loaded to start (Django, the apps, the engines, those tables: some 120,000
      objects) lives as long as it does: out of the collector's full passes from now on. A full
      pass walks every tracked object and holds the event loop, so every table of the process:
      frozen objects are not walked, and what remains is what the tables and sockets hold
      (``python -m bench.loadbench --probe`` reports the collector's pauses).
    - A young collection every 10,000 new container objects instead of 700: the views, events and
      frames of an action die young, before the collector looks; fewer survivors are promoted, so
      the middle and full passes (those that stall every table of the process) come far less
      often, and the event loop spends less time collecting in all.
    """
    evaluator.build_all()
    gc.freeze()
    gc.set_threshold(10_000, 10, 10)
