"""The tournament slot "Pierino Tenta la Fortuna" (rules 004 "Regole della slot tornei", RULINGS S1–S8).

``table``: the product's numbers (symbols, pays, paylines, reel strips, bonus, free-spin and Pierino
tables); ``lines``: what a spin shows and pays; ``engine``: one player's session as a pure state
machine with its journal and replay; ``rtp``: the exact return and hit frequency. The package
registers no engine in ``games.registry``: the slot is not a table game (see ``engine``).
"""

NAME = "slot"  # the game's name where the platform names games (switches, tournaments)
TITLE = "Pierino Tenta la Fortuna"
