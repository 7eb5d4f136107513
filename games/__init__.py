"""Pure rules engines of every game: no Django import anywhere under games/.

Each game is a deterministic state machine behind one contract (``games.engine.Engine``: ``new``,
``legal_actions``, ``to_act``, ``apply``, ``view``, ``timeout_action``, ``outcome``), registered by
name in ``games.registry``. Shared pieces (cards, RNG, betting and pots, capture, tricks, melds,
the match engine of the giochi a partite) live once here; each game package holds only its own
rules. See games/README.md.
"""
