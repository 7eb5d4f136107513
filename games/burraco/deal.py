"""One smazzata of Burraco (rules 004 "Regole del Burraco", RULINGS R1), for games.partite.

Positions and lines are those of the match engine (play goes counter-clockwise, R1; line of a
position = position % 2). A turn: ``pesca`` (top card of the tallone) or ``raccogli`` (the whole
discard pile), then any number of ``cala`` (a new meld of the own line) and ``attacca`` (extend a
meld of the own line), then ``scarta``. Melds are validated by games.melds with ``BURRACO``.

Actions whose cards are a subset chosen by the player are offered as *structured specs* (the
contract's concrete specs would be exponential)::

    {"type": "cala", "label": "Apri un gioco", "cards": {"subset_of": [hand], "min": 3},
     "start": {"optional": True, "min": 1, "max": 14}}
    {"type": "attacca", "label": "Allunga", "meld": 7, "cards": {"subset_of": [hand], "min": 1},
     "start": {...}}

The action is ``{"type": "cala", "cards": [...]}`` with an optional ``"start"`` (the position of
the first card of a sequence: picks ace low or high and which end a matta goes to, R1); the
layouts a subset can take are listed by ``options``. ``scarta`` specs are concrete, one per card.

Decisions where the rules are silent (documented here, tested in tests/games/rummy):
* a combination of 2s only is all matte, so it is refused ("giochi formati da sole matte");
* a player may not leave himself without a legal discard: a meld that empties the hand after the
  line took its pozzetto, or leaves only cards he may not discard, is refused;
* "the only card taken" may be discarded when the hand holds another identical card (jolly:
  any other jolly), as the rules say;
* closing and the pozzetto are per line: once a line has its pozzetto, either partner closes by
  emptying his hand (with a discard that is not a matta, the line having a burraco);
* the pozzetto con scarto goes into the hand at once (seen only by its owner) and is played on
  the next turn; the first line to take one takes the first pozzetto;
* the smazzata ends after the discard that leaves two cards or fewer in the tallone, with no
  closing bonus.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from games.cards import rummy_deck
from games.engine import Action, ConfigError, Event, InvalidCards, NotYourTurn, State, UnknownAction
from games.melds import (
    BURRACO,
    BURRACO_BONUS,
    SEQ,
    SET,
    DiscardRefused,
    Meld,
    MeldRefused,
    accepted_layouts,
    attach_hints,
    burraco_card_points,
    burraco_kind,
    card_list,
    choose_layout,
    extend_options,
    is_matta,
    meld_hints,
    meld_options,
    same,
    sort_hand,
    take_cards,
)
from games.partite import DealRules, line_of, prefs
from games.rng import Rng, shuffled
from games.rummy import GIOCA, PESCA, discard_specs, draw, with_layout

HAND = 11
POZZETTO = 11
TALLONE_END = 2  # "una smazzata ha termine anche quando nel tallone rimangono solo due carte"
CLOSING_BONUS = 100
NO_POZZETTO = 100
TIMEOUT_PENALTY = 350

RACCOGLI = "raccogli"
CALA = "cala"
ATTACCA = "attacca"
SCARTA = "scarta"


class BurracoDeal(DealRules):
    """The Burraco smazzata (see the module docstring)."""

    game_defaults: ClassVar[dict[str, Any]] = {}

    def validate_config(self, config: dict[str, Any]) -> None:
        """Burraco has no table options of its own beyond the match engine's."""
        if config["lower_wins"] or config["vinco_subito"]:
            raise ConfigError("opzione non prevista nel burraco")

    # -- the deal ------------------------------------------------------------------------------

    def start(self, st: State, rng: Rng) -> tuple[dict[str, Any], list[list[str]], list[Event]]:
        """Shuffle 108 cards, deal 11 each from the dealer's right, the first discard, the pozzetti."""
        n = len(st["seats"])
        deck = shuffled(rummy_deck(), rng)
        dealer = st["dealer"]
        hands: list[list[str]] = [[] for _ in range(n)]
        i = 0
        for _ in range(HAND):
            for k in range(n):
                hands[(dealer + 1 + k) % n].append(deck[i])
                i += 1
        first_discard = deck[i]
        i += 1
        rest = deck[i:]
        pozzetti: list[list[str]] = [[], []]
        for k in range(2 * POZZETTO):  # one card at a time from the bottom of the deck
            pozzetti[k % 2].append(rest.pop())
        deal: dict[str, Any] = {
            "hands": hands,
            "tallone": list(reversed(rest)),  # pop() draws the top card
            "scarti": [first_discard],
            "pozzetti": pozzetti,
            "pozzetto_line": [None, None],  # which pozzetto (0/1) each line took
            "pozzetto_mode": [None, None],  # "diretta" / "scarto"
            "melds": [],
            "next_id": 1,
            "turn": (dealer + 1) % n,
            "phase": PESCA,
            "raccolto": None,
            "closed_by": None,
            "ended": None,
            "last_mover": None,
        }
        events: list[Event] = [
            {"type": "carte", "pos": p, "cards": list(hands[p]), "to_pos": [p]} for p in range(n)
        ]
        events.append({"type": "primo_scarto", "card": first_discard})
        return deal, [deck], events

    def to_act(self, st: State) -> int | None:
        """Return the position to move, None once the smazzata has ended."""
        d = st["deal"]
        return None if d["ended"] else int(d["turn"])

    # -- checks ----------------------------------------------------------------------------------

    @staticmethod
    def line_melds(d: dict[str, Any], line: int) -> list[Meld]:
        """Return the melds of a line."""
        return [m for m in d["melds"] if m["line"] == line]

    @staticmethod
    def has_burraco(melds: Sequence[Meld]) -> bool:
        """Tell whether any of these melds is a burraco."""
        return any(burraco_kind(m) is not None for m in melds)

    def discard_ok(
        self, d: dict[str, Any], pos: int, hand: Sequence[str], card: str, melds: Sequence[Meld]
    ) -> str | None:
        """Return why discarding ``card`` from ``hand`` is refused, or None if allowed."""
        if card not in hand:
            return "Carta non in mano"
        taken = d["raccolto"]
        if taken is not None and same(card, taken) and sum(1 for c in hand if same(c, card)) < 2:
            return "Non puoi scartare l'unica carta raccolta"
        if len(hand) == 1 and d["pozzetto_line"][line_of(pos)] is not None:
            if not self.has_burraco(melds):
                return "Per chiudere serve almeno un burraco"
            if is_matta(card, BURRACO):
                return "Non puoi chiudere scartando una matta"
        return None

    def can_end_turn(self, d: dict[str, Any], pos: int, hand: Sequence[str], melds: Sequence[Meld]) -> bool:
        """Tell whether this hand still has a legal discard (or is empty for a pozzetto in diretta)."""
        if not hand:
            return d["pozzetto_line"][line_of(pos)] is None
        return any(self.discard_ok(d, pos, hand, c, melds) is None for c in set(hand))

    def plan(self, st: State, pos: int, action: Action) -> dict[str, Any]:
        """Validate an action and return what applying it changes (nothing is mutated here)."""
        d = st["deal"]
        if not isinstance(action, dict):
            raise UnknownAction()
        kind = action.get("type")
        hand: list[str] = d["hands"][pos]
        line = line_of(pos)
        if d["phase"] == PESCA:
            if kind == PESCA and set(action) == {"type"}:
                return {"type": PESCA}
            if kind == RACCOGLI and set(action) == {"type"}:
                if not d["scarti"]:
                    raise InvalidCards("Non ci sono scarti da raccogliere")
                return {"type": RACCOGLI}
            if kind in (CALA, ATTACCA, SCARTA):
                raise NotYourTurn("Prima devi pescare o raccogliere")
            raise UnknownAction()
        mine = self.line_melds(d, line)
        if kind == SCARTA:
            card = action.get("card")
            if set(action) != {"type", "card"} or not isinstance(card, str):
                raise UnknownAction()
            why = self.discard_ok(d, pos, hand, card, mine)
            if why is not None:
                raise DiscardRefused(why)
            return {"type": SCARTA, "card": card}
        if kind not in (CALA, ATTACCA) or not set(action) <= {"type", "cards", "start", "meld"}:
            raise UnknownAction()
        cards = card_list(action.get("cards"))
        rest = take_cards(hand, cards)
        if rest is None:
            raise InvalidCards("Carte non in mano")
        if kind == CALA:
            if "meld" in action:
                raise UnknownAction()
            layout = choose_layout(meld_options(cards, BURRACO), action)
            if layout["kind"] == SET and any(m["kind"] == SET and m["rank"] == layout["rank"] for m in mine):
                # "Non si possono appoggiare, separatamente, combinazioni della stessa carta"
                raise MeldRefused("La tua linea ha già una combinazione di questo valore")
            new = {**layout, "id": d["next_id"], "line": line}
            after = [*mine, new]
        else:
            target = next((m for m in mine if m["id"] == action.get("meld")), None)
            if target is None:
                raise MeldRefused("Puoi allungare solo i giochi della tua linea")
            layout = choose_layout(extend_options(target, cards, BURRACO), action)
            new = {**target, **layout}
            after = [new if m["id"] == target["id"] else m for m in mine]
        if not self.can_end_turn(d, pos, rest, after):
            raise MeldRefused("Devi poter scartare una carta ammessa")
        return {"type": kind, "cards": cards, "meld": new, "rest": rest}

    # -- legal actions -----------------------------------------------------------------------------

    def legal_actions(self, st: State, pos: int) -> list[dict[str, Any]]:
        """Offer pesca/raccogli, then cala/attacca as structured specs and one scarta per card."""
        d = st["deal"]
        if d["phase"] == PESCA:
            specs: list[dict[str, Any]] = [{"type": PESCA, "label": "Pesca"}]
            if d["scarti"]:
                specs.append({"type": RACCOGLI, "label": "Raccogli"})
            return specs
        hand = d["hands"][pos]
        start_spec = {"optional": True, "min": 1, "max": 14}
        specs = []
        if len(hand) >= 3:
            specs.append(
                {
                    "type": CALA,
                    "label": "Apri un gioco",
                    "cards": {"subset_of": list(hand), "min": 3},
                    "start": dict(start_spec),
                }
            )
        for m in self.line_melds(d, line_of(pos)):
            spec: dict[str, Any] = {
                "type": ATTACCA,
                "label": "Allunga",
                "meld": m["id"],
                "cards": {"subset_of": list(hand), "min": 1},
            }
            if m["kind"] == SEQ:
                spec["start"] = dict(start_spec)
            specs.append(spec)
        mine = self.line_melds(d, line_of(pos))
        return specs + discard_specs(hand, lambda c: self.discard_ok(d, pos, hand, c, mine))

    def options(self, st: State, pos: int, action: Action) -> list[Meld]:
        """Return the layouts a cala/attacca of these cards may take (the table's choice panel)."""
        d = st["deal"]
        cards = card_list(action.get("cards"))
        if action.get("type") == CALA:
            return meld_options(cards, BURRACO)
        target = next((m for m in self.line_melds(d, line_of(pos)) if m["id"] == action.get("meld")), None)
        return [] if target is None else extend_options(target, cards, BURRACO)

    def layouts(self, st: State, pos: int, request: Action) -> list[dict[str, Any]]:
        """Return the layouts ``plan`` accepts for a cala/attacca sent without ``start``.

        Each names the ``start`` that selects it (games.melds.accepted_layouts); cards not in the
        hand or that lay no meld give an empty list, a request of another kind is refused.
        """
        if not isinstance(request, dict) or request.get("type") not in (CALA, ATTACCA) or "start" in request:
            raise UnknownAction()
        if take_cards(st["deal"]["hands"][pos], card_list(request.get("cards"))) is None:
            return []
        return accepted_layouts(
            self.options(st, pos, request),
            BURRACO,
            lambda fields: self.plan(st, pos, {**request, **fields}),
            meld=request.get("meld") if request["type"] == ATTACCA else None,
        )

    # -- applying ----------------------------------------------------------------------------------

    def apply(self, st: State, pos: int, action: Action, rng: Rng) -> list[Event]:
        """Validate, then apply one move of the turn."""
        plan = self.plan(st, pos, action)
        d = st["deal"]
        d["last_mover"] = pos
        hand: list[str] = d["hands"][pos]
        kind = plan["type"]
        if kind == PESCA:
            d["raccolto"] = None
            return draw(d, pos)
        if kind == RACCOGLI:
            pile = d["scarti"]
            d["scarti"] = []
            hand.extend(pile)
            d["raccolto"] = pile[0] if len(pile) == 1 else None
            d["phase"] = GIOCA
            return [{"type": "raccogli", "pos": pos, "cards": list(pile)}]
        if kind == SCARTA:
            return self._discard(st, pos, plan["card"])
        meld = plan["meld"]
        d["hands"][pos] = plan["rest"]
        if kind == CALA:
            d["melds"].append(meld)
            d["next_id"] += 1
        else:
            d["melds"] = [meld if m["id"] == meld["id"] else m for m in d["melds"]]
        events: list[Event] = [{"type": kind, "pos": pos, "cards": plan["cards"], "meld": dict(meld)}]
        if not plan["rest"]:
            events.extend(self._take_pozzetto(d, pos, "diretta"))
        return events

    def _take_pozzetto(self, d: dict[str, Any], pos: int, mode: str) -> list[Event]:
        line = line_of(pos)
        which = 0 if d["pozzetto_line"][1 - line] != 0 else 1
        cards = d["pozzetti"][which]
        d["pozzetti"][which] = []
        d["pozzetto_line"][line] = which
        d["pozzetto_mode"][line] = mode
        d["hands"][pos] = list(cards)
        return [
            {"type": "pozzetto", "pos": pos, "line": line, "mode": mode},
            {"type": "carte_pozzetto", "pos": pos, "cards": list(cards), "to_pos": [pos]},
        ]

    def _discard(self, st: State, pos: int, card: str) -> list[Event]:
        d = st["deal"]
        hand: list[str] = d["hands"][pos]
        hand.remove(card)
        d["scarti"].append(card)
        d["raccolto"] = None
        events: list[Event] = [{"type": "scarta", "pos": pos, "card": card}]
        line = line_of(pos)
        if not hand:
            if d["pozzetto_line"][line] is None:
                events.extend(self._take_pozzetto(d, pos, "scarto"))
            else:
                d["closed_by"] = pos
                d["ended"] = "chiusura"
                events.append({"type": "chiusura", "pos": pos, "line": line})
                return events
        if len(d["tallone"]) <= TALLONE_END:
            d["ended"] = "tallone"
            events.append({"type": "tallone_esaurito"})
            return events
        d["turn"] = (pos + 1) % len(st["seats"])
        d["phase"] = PESCA
        return events

    # -- bots ----------------------------------------------------------------------------------------

    def sample(self, st: State, pos: int, rng: Rng) -> Action:
        """Return a random legal move that favours melding (bots, property tests)."""
        d = st["deal"]
        if d["phase"] == PESCA:
            if d["scarti"] and rng.randbelow(3) == 0:
                return {"type": RACCOGLI}
            return {"type": PESCA}
        hand = d["hands"][pos]
        mine = self.line_melds(d, line_of(pos))
        if rng.randbelow(8) != 0:
            tries: list[Action] = [{"type": CALA, "cards": h} for h in meld_hints(hand, BURRACO)]
            tries += [
                {"type": ATTACCA, "meld": mine[i]["id"], "cards": [c]}
                for i, c in attach_hints(mine, hand, BURRACO)
            ]
            while tries:
                act = tries.pop(rng.randbelow(len(tries)))
                opts = self.options(st, pos, act)
                if not opts:
                    continue
                with_layout(act, opts, rng, only_if_several=True)
                try:
                    self.plan(st, pos, act)
                except InvalidCards:
                    continue
                return act
        discards = [c for c in sorted(set(hand)) if self.discard_ok(d, pos, hand, c, mine) is None]
        return {"type": SCARTA, "card": discards[rng.randbelow(len(discards))]}

    def auto_action(self, st: State, pos: int) -> Action:
        """Return the automatic move: pesca, then discard the first card allowed."""
        d = st["deal"]
        if d["phase"] == PESCA:
            return {"type": PESCA}
        hand = d["hands"][pos]
        mine = self.line_melds(d, line_of(pos))
        for c in sort_hand(hand, "valore", BURRACO)[::-1]:
            if self.discard_ok(d, pos, hand, c, mine) is None:
                return {"type": SCARTA, "card": c}
        raise NotYourTurn()  # unreachable: plan() never leaves a hand without a discard

    # -- score -----------------------------------------------------------------------------------

    def table_points(self, d: dict[str, Any], line: int) -> int:
        """The points a line has on the table so far: its melds' cards and burrachi (public)."""
        melds = self.line_melds(d, line)
        table = sum(burraco_card_points(c) for m in melds for c in m["cards"])
        return table + sum(BURRACO_BONUS[k] for k in map(burraco_kind, melds) if k is not None)

    def line_score(self, d: dict[str, Any], line: int) -> dict[str, int]:
        """Return the score sheet of a line for the (ended) smazzata."""
        melds = self.line_melds(d, line)
        table = sum(burraco_card_points(c) for m in melds for c in m["cards"])
        kinds = [burraco_kind(m) for m in melds]
        bonus = sum(BURRACO_BONUS[k] for k in kinds if k is not None)
        hands = sum(burraco_card_points(c) for p, h in enumerate(d["hands"]) if line_of(p) == line for c in h)
        closed = d["closed_by"] is not None and line_of(d["closed_by"]) == line
        no_pozzetto = d["pozzetto_line"][line] is None
        total = table + bonus + (CLOSING_BONUS if closed else 0) - hands - (NO_POZZETTO if no_pozzetto else 0)
        return {
            "carte_appoggiate": table,
            "burrachi": bonus,
            "puliti": kinds.count("pulito"),
            "semipuliti": kinds.count("semipulito"),
            "sporchi": kinds.count("sporco"),
            "chiusura": CLOSING_BONUS if closed else 0,
            "carte_in_mano": -hands,
            "pozzetto": -NO_POZZETTO if no_pozzetto else 0,
            "totale": total,
        }

    def result(self, st: State) -> dict[str, Any]:
        """Score both lines; the KO decider is the line that made the last move (it loses, I5)."""
        d = st["deal"]
        sheets = [self.line_score(d, 0), self.line_score(d, 1)]
        last = d["last_mover"]
        return {
            "points": [sheets[0]["totale"], sheets[1]["totale"]],
            "decider": None if last is None else line_of(last),
            "detail": {
                "lines": sheets,
                "end": d["ended"],
                "closed_by": d["closed_by"],
                "pozzetto_line": list(d["pozzetto_line"]),
                # the final table and hands, shown at the count (score sheet, audit)
                "melds": [{**m, "cards": list(m["cards"])} for m in d["melds"]],
                "hands": [list(h) for h in d["hands"]],
            },
        }

    def penalty(self, st: State, offender: int) -> int:
        """Timeout or abandon: 350 points to the other line (then the difference, never below 0)."""
        return TIMEOUT_PENALTY

    # -- view ------------------------------------------------------------------------------------

    def view(self, st: State, visible: frozenset[int], carte_viste: bool) -> dict[str, Any]:
        """Return the table: own (visible) hands, counts of the others, never the pozzetti' cards."""
        d = st["deal"]
        hands: list[list[str] | None] = []
        for p, h in enumerate(d["hands"]):
            if p in visible:
                order = prefs(st, p).get("ordina_mano")
                hands.append(sort_hand(h, order, BURRACO) if order in ("seme", "valore") else list(h))
            else:
                hands.append(None)
        return {
            "hands": hands,
            "hand_sizes": [len(h) for h in d["hands"]],
            "tallone": len(d["tallone"]),
            "scarti": list(d["scarti"]),
            "pozzetti": [len(p) for p in d["pozzetti"]],
            "pozzetto_line": list(d["pozzetto_line"]),
            "pozzetto_mode": list(d["pozzetto_mode"]),
            "melds": [{**m, "cards": list(m["cards"]), "burraco": burraco_kind(m)} for m in d["melds"]],
            # each line's running score on the table (cards laid and burrachi), shown on its seats
            "punti_in_tavola": [self.table_points(d, 0), self.table_points(d, 1)],
            "turn": d["turn"],
            "phase": d["phase"],
            "raccolto": d["raccolto"],
            "closed_by": d["closed_by"],
            "ended": d["ended"],
        }
