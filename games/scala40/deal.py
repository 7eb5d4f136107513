"""One smazzata of Scala 40 (rules 004 "Regole della Scala 40", RULINGS R2), among 2-4 players.

Positions are the engine's (``games.scala40``): ``0 .. n-1`` in playing order, clockwise (G2);
``active`` lists the positions dealt in (partite a punti drop the players who are out).
A turn: ``pesca`` or ``raccogli`` (the last discard), then the moves below, then ``scarta``.

Moves (structured specs: the table offers the hand and the player picks the cards)
* ``apri`` (not yet opened): ``{"melds": [{"cards": [...], "start"?: 3, "jolly_suit"?: "c"}, ...]}``
  worth at least 40 (ace 1 before the 2, 11 after the king or in a combination, figures 10, a
  jolly the card it replaces); a player who took the discard must use it in these melds.
* ``cala`` / ``attacca`` (opened): a new meld, or cards added to anyone's meld.
* ``sostituisci`` (opened): put the card a jolly stands for in its place and use the jolly at
  once (``"use": {"type": "cala", "cards": [...]}`` or ``{"type": "attacca", "meld": id,
  "cards": [...]}``, the jolly added): the rules oblige the player to use it before discarding,
  and doing both in one move never leaves a player holding a jolly he may not keep. It goes into
  a new meld or onto another one ("attaccarlo ad altre sequenze o combinazioni"), never back onto
  the meld it left.
* ``rimetti``: put a taken discard back and draw instead (the online table's "annulla"), so a
  player who took a card he cannot use is never stuck.

Decisions where the rules are silent (documented here, tested in tests/games/rummy):
* the last discard may be taken while it is the only card of the pile; a jolly in a combination
  declares a suit (the panel of "Come si gioca"); a 4-card combination has no choice;
* an unopened player may not discard a card that attaches to a meld on the table; if every card
  of his hand attaches, he may discard any (otherwise he could not end the turn);
* chiusura in mano: the closer opened in the same turn (he laid all his cards at once); the hands
  of the others count double, but a player who never opened pays 100, not 200;
* when the tallone is empty at the end of a turn the discards but the top one are shuffled into a
  new tallone (the deck goes to the deck log); if there are none, the smazzata ends without a
  closer and everyone pays his hand (100 if never opened).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.cards import is_joker, rummy_deck
from games.engine import Action, Event, InvalidCards, NotYourTurn, State, UnknownAction
from games.melds import (
    SCALA40,
    SEQ,
    DiscardRefused,
    Meld,
    MeldRefused,
    accepted_layouts,
    attach_hints,
    card_list,
    choose_layout,
    extend_options,
    meld_hints,
    meld_options,
    same,
    scala40_hand_points,
    scala40_meld_value,
    sort_hand,
    take_cards,
    wild_card_stands_for,
    wild_index,
)
from games.rng import Rng, shuffled
from games.rummy import GIOCA, PESCA, discard_specs, draw, with_layout

HAND = 13
OPENING = 40
NEVER_OPENED = 100

RACCOGLI = "raccogli"
APRI = "apri"
CALA = "cala"
ATTACCA = "attacca"
SOSTITUISCI = "sostituisci"
RIMETTI = "rimetti"
SCARTA = "scarta"


class OpeningRefused(InvalidCards):
    code = "invalid_opening"
    default_message = "Per aprire servono almeno 40 punti"


def count_same(hand: Sequence[str], card: str) -> int:
    """Count the cards of a hand equal to ``card``."""
    return sum(1 for c in hand if same(c, card))


def new_deal(n_positions: int, active: list[int], dealer: int, rng: Rng) -> tuple[dict[str, Any], list[str]]:
    """Shuffle and deal 13 cards each, one at a time clockwise from the dealer's left."""
    deck = shuffled(rummy_deck(), rng)
    hands: list[list[str]] = [[] for _ in range(n_positions)]
    order = active[active.index(dealer) + 1 :] + active[: active.index(dealer) + 1]
    i = 0
    for _ in range(HAND):
        for p in order:
            hands[p].append(deck[i])
            i += 1
    deal: dict[str, Any] = {
        "active": list(active),
        "hands": hands,
        "scarti": [deck[i]],
        "tallone": list(reversed(deck[i + 1 :])),  # pop() draws the top card
        "melds": [],
        "next_id": 1,
        "turn": order[0],
        "phase": PESCA,
        "opened": [False] * n_positions,
        "opened_at": [None] * n_positions,  # the turn number in which each player opened
        "raccolto": None,  # {"card": c, "limit": count of c before taking it}
        "rimesso": False,
        "turn_no": 0,  # completed turns of this smazzata
        "closed_by": None,
        "in_mano": False,
        "ended": None,
        "last_mover": None,
    }
    return deal, deck


class Scala40Deal:
    """The rules of one smazzata; the state is ``st["deal"]``."""

    # -- checks ----------------------------------------------------------------------------------

    @staticmethod
    def raccolto_used(d: dict[str, Any], hand: Sequence[str]) -> bool:
        """Tell whether the card taken from the discards has left the hand (used in a meld)."""
        r = d["raccolto"]
        return r is None or count_same(hand, r["card"]) <= r["limit"]

    def discard_reason(
        self,
        d: dict[str, Any],
        pos: int,
        hand: Sequence[str],
        card: str,
        melds: Sequence[Meld],
        opened: bool,
        attaching: frozenset[str] | None = None,
    ) -> str | None:
        """Return why discarding ``card`` is refused now, or None if allowed.

        ``attaching``: the cards of the hand that attach to a meld (``attaching_cards``), when the
        caller asks about every card of the hand (the same answers, computed once).
        """
        if card not in hand:
            return "Carta non in mano"
        if not self.raccolto_used(d, hand):
            return "Devi usare la carta raccolta"
        if len(hand) == 1:
            if is_joker(card):
                return "Non puoi chiudere scartando un jolly"
            if d["turn_no"] < len(d["active"]):
                return "Non si può chiudere al primo giro"
            return None
        if not opened and (self.attaches(card, melds) if attaching is None else card in attaching):
            if all(self.attaches(c, melds) for c in hand) if attaching is None else attaching >= set(hand):
                return None  # every card attaches: he must discard one anyway (documented)
            return "Non puoi scartare una carta che si attacca a un gioco sul tavolo"
        return None

    def attaching_cards(
        self, hand: Sequence[str], melds: Sequence[Meld], opened: bool
    ) -> frozenset[str] | None:
        """Return the cards of an unopened player's hand that attach to a meld (None once opened)."""
        return None if opened else frozenset(c for c in set(hand) if self.attaches(c, melds))

    @staticmethod
    def attaches(card: str, melds: Sequence[Meld]) -> bool:
        """Tell whether a card attaches to any meld on the table."""
        return any(extend_options(m, [card], SCALA40) for m in melds)

    def can_end_turn(
        self, d: dict[str, Any], pos: int, hand: Sequence[str], melds: Sequence[Meld], opened: bool
    ) -> bool:
        """Tell whether the turn can still end with a discard (or the taken card go back)."""
        if not hand:
            return False  # "non è consentito rimanere senza carte in mano senza aver effettuato lo scarto"
        return any(self.discard_reason(d, pos, hand, c, melds, opened) is None for c in set(hand))

    @staticmethod
    def _check_can_open(d: dict[str, Any], pos: int) -> None:
        """Refuse an opening before drawing or after opening."""
        if d["phase"] == PESCA:
            raise NotYourTurn("Prima devi pescare o raccogliere")
        if d["opened"][pos]:
            raise MeldRefused("Hai già aperto")

    def _layout_new(self, hand: list[str], part: Any) -> tuple[Meld, list[str]]:
        if not isinstance(part, dict) or not set(part) <= {"cards", "start", "jolly_suit", "type"}:
            raise UnknownAction()
        cards = card_list(part.get("cards"))
        rest = take_cards(hand, cards)
        if rest is None:
            raise InvalidCards("Carte non in mano")
        return choose_layout(meld_options(cards, SCALA40), part), rest

    def _attach(
        self, melds: list[Meld], hand: list[str], part: dict[str, Any], extra: Sequence[str] = ()
    ) -> tuple[Meld, list[str]]:
        cards = card_list(part.get("cards", []), allow_empty=bool(extra))
        rest = take_cards(hand, cards)
        if rest is None:
            raise InvalidCards("Carte non in mano")
        target = next((m for m in melds if m["id"] == part.get("meld")), None)
        if target is None:
            raise MeldRefused("Gioco inesistente")
        layout = choose_layout(extend_options(target, [*cards, *extra], SCALA40), part)
        return {**target, **layout}, rest

    def plan(self, st: State, pos: int, action: Action) -> dict[str, Any]:
        """Validate an action and return the changes it makes (nothing is mutated here)."""
        d = st["deal"]
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise UnknownAction()
        kind = action["type"]
        hand: list[str] = d["hands"][pos]
        opened: bool = d["opened"][pos]
        if d["phase"] == PESCA:
            if set(action) != {"type"}:
                raise UnknownAction()
            if kind == PESCA:
                if not d["tallone"]:
                    raise InvalidCards("Il tallone è vuoto")
                return {"type": PESCA}
            if kind == RACCOGLI:
                if not d["scarti"] or d["rimesso"]:
                    raise InvalidCards("Non puoi raccogliere lo scarto")
                return {"type": RACCOGLI}
            raise NotYourTurn("Prima devi pescare o raccogliere")
        melds: list[Meld] = d["melds"]
        if kind == SCARTA:
            card = action.get("card")
            if set(action) != {"type", "card"} or not isinstance(card, str):
                raise UnknownAction()
            why = self.discard_reason(d, pos, hand, card, melds, opened)
            if why is not None:
                raise DiscardRefused(why)
            return {"type": SCARTA, "card": card}
        if kind == RIMETTI:
            if set(action) != {"type"} or d["raccolto"] is None or self.raccolto_used(d, hand):
                raise InvalidCards("Non c'è una carta raccolta da rimettere")
            if count_same(hand, d["raccolto"]["card"]) == 0:
                raise InvalidCards()
            return {"type": RIMETTI}
        if kind == APRI:
            self._check_can_open(d, pos)
            if set(action) != {"type", "melds"}:
                raise UnknownAction()
            parts = action["melds"]
            if not isinstance(parts, list) or not parts:
                raise MeldRefused()
            rest = list(hand)
            new: list[Meld] = []
            next_id = d["next_id"]
            for part in parts:
                layout, rest = self._layout_new(rest, part)
                new.append({**layout, "id": next_id, "owner": pos})
                next_id += 1
            value = sum(scala40_meld_value(m) for m in new)
            if value < OPENING:
                raise OpeningRefused(f"Per aprire servono almeno 40 punti (ne hai {value})", value=value)
            if not self.raccolto_used(d, rest):
                raise MeldRefused("Devi aprire usando la carta raccolta")
            after = [*melds, *new]
            if not self.can_end_turn(d, pos, rest, after, True):
                raise MeldRefused("Devi poter scartare una carta ammessa")
            return {"type": APRI, "melds": new, "rest": rest, "value": value}
        if not opened:
            raise MeldRefused("Prima devi aprire")
        plan = self._plan_meld(d, pos, action, kind, melds, hand)
        if not self.raccolto_used(d, plan["rest"]):
            # the table has the taken card used first, so "rimetti" stays possible until then
            raise MeldRefused("Usa prima la carta raccolta")
        return plan

    def _plan_meld(
        self, d: dict[str, Any], pos: int, action: Action, kind: str, melds: list[Meld], hand: list[str]
    ) -> dict[str, Any]:
        if kind == CALA:
            if not set(action) <= {"type", "cards", "start", "jolly_suit"}:
                raise UnknownAction()
            layout, rest = self._layout_new(hand, action)
            meld = {**layout, "id": d["next_id"], "owner": pos}
            after = [*melds, meld]
            changed = [meld]
        elif kind == ATTACCA:
            if not set(action) <= {"type", "meld", "cards", "start", "jolly_suit"}:
                raise UnknownAction()
            meld, rest = self._attach(melds, hand, action)
            after = [meld if m["id"] == meld["id"] else m for m in melds]
            changed = [meld]
        elif kind == SOSTITUISCI:
            return self._plan_substitution(d, pos, action)
        else:
            raise UnknownAction()
        if not self.can_end_turn(d, pos, rest, after, True):
            raise MeldRefused("Devi poter scartare una carta ammessa")
        return {"type": kind, "melds": changed, "rest": rest}

    def _take_jolly(
        self, d: dict[str, Any], pos: int, action: Action
    ) -> tuple[Meld, str, list[str], list[Meld]]:
        """Return the meld with the jolly replaced, the jolly, the hand left and the melds then."""
        if set(action) != {"type", "meld", "card", "use"} or not isinstance(action["use"], dict):
            raise UnknownAction()
        hand: list[str] = d["hands"][pos]
        melds: list[Meld] = d["melds"]
        target = next((m for m in melds if m["id"] == action["meld"]), None)
        card = action["card"]
        if target is None or not isinstance(card, str):
            raise MeldRefused("Gioco inesistente")
        stands_for = wild_card_stands_for(target, SCALA40)
        w = wild_index(target, SCALA40)
        if stands_for is None or w is None or card != stands_for or card not in hand:
            raise MeldRefused("Il jolly si sostituisce solo con la carta che rappresenta")
        jolly = target["cards"][w]
        replaced = {
            **target,
            "cards": [card if i == w else c for i, c in enumerate(target["cards"])],
            "jolly_suit": None,
        }
        rest = list(hand)
        rest.remove(card)
        return replaced, jolly, rest, [replaced if m["id"] == target["id"] else m for m in melds]

    def _plan_substitution(self, d: dict[str, Any], pos: int, action: Action) -> dict[str, Any]:
        replaced, jolly, rest, melds2 = self._take_jolly(d, pos, action)
        card = action["card"]
        use = action["use"]
        if use.get("type") == CALA:
            part = {**use, "cards": [*card_list(use.get("cards")), jolly]}
            taken = take_cards(rest, part["cards"][:-1])
            if taken is None:
                raise InvalidCards("Carte non in mano")
            layout = choose_layout(meld_options(part["cards"], SCALA40), part)
            meld = {**layout, "id": d["next_id"], "owner": pos}
            after = [*melds2, meld]
            rest = taken
            changed = [replaced, meld]
        elif use.get("type") == ATTACCA:
            if not set(use) <= {"type", "meld", "cards", "start", "jolly_suit"}:
                raise UnknownAction()
            if use.get("meld") == replaced["id"]:
                # "attaccarlo ad altre sequenze o combinazioni": not back onto the meld it left
                raise MeldRefused("Il jolly sostituito va usato in un altro gioco")
            meld, rest = self._attach(melds2, rest, use, extra=[jolly])
            after = [meld if m["id"] == meld["id"] else m for m in melds2]
            changed = [replaced, meld]
        else:
            raise MeldRefused("Devi usare il jolly sostituito")
        if not self.can_end_turn(d, pos, rest, after, True):
            raise MeldRefused("Devi poter scartare una carta ammessa")
        return {"type": SOSTITUISCI, "melds": changed, "rest": rest, "jolly": jolly, "card": card}

    # -- legal actions -----------------------------------------------------------------------------

    def legal_actions(self, st: State, pos: int) -> list[dict[str, Any]]:
        """Offer the moves of this position: concrete ones and structured meld specs."""
        d = st["deal"]
        if d["phase"] == PESCA:
            specs: list[dict[str, Any]] = []
            if d["tallone"]:
                specs.append({"type": PESCA, "label": "Pesca"})
            if d["scarti"] and not d["rimesso"]:
                specs.append({"type": RACCOGLI, "label": "Raccogli"})
            return specs
        hand: list[str] = d["hands"][pos]
        opened = d["opened"][pos]
        cards = {"subset_of": list(hand), "min": 1}
        choice = {
            "start": {"optional": True, "min": 1, "max": 14},
            "jolly_suit": {"optional": True, "of": "hdcs"},
        }
        specs = []
        if d["raccolto"] is not None and not self.raccolto_used(d, hand):
            specs.append({"type": RIMETTI, "label": "Rimetti la carta raccolta"})
        if not opened:
            specs.append(
                {
                    "type": APRI,
                    "label": "Apri",
                    "melds": {"list_of": {"cards": {**cards, "min": 3}, **choice}, "min_value": OPENING},
                    "must_use": None if d["raccolto"] is None else d["raccolto"]["card"],
                }
            )
        else:
            specs.append({"type": CALA, "label": "Cala un gioco", "cards": {**cards, "min": 3}, **choice})
            for m in d["melds"]:
                specs.append(
                    {"type": ATTACCA, "label": "Attacca", "meld": m["id"], "cards": dict(cards), **choice}
                )
                stands = wild_card_stands_for(m, SCALA40)
                if stands is not None and stands in hand:
                    specs.append(
                        {
                            "type": SOSTITUISCI,
                            "label": "Sostituisci il jolly",
                            "meld": m["id"],
                            "card": stands,
                            "use": {"one_of": [CALA, ATTACCA]},
                        }
                    )
        attaching = self.attaching_cards(hand, d["melds"], opened)
        return specs + discard_specs(
            hand, lambda c: self.discard_reason(d, pos, hand, c, d["melds"], opened, attaching)
        )

    def options(self, st: State, pos: int, action: Action) -> list[Meld]:
        """Return the layouts the chosen cards may take (a new meld or an attachment)."""
        d = st["deal"]
        cards = card_list(action.get("cards"))
        if action.get("type") == ATTACCA:
            target = next((m for m in d["melds"] if m["id"] == action.get("meld")), None)
            return [] if target is None else extend_options(target, cards, SCALA40)
        return meld_options(cards, SCALA40)

    def layouts(self, st: State, pos: int, request: Action) -> list[dict[str, Any]]:
        """Return the layouts ``plan`` accepts for a meld request sent without one (the chooser).

        ``cala`` / ``attacca``: the request's own layouts. ``apri``: those of its last part (the
        parts before it as chosen; the opening need not reach 40 yet), with their points.
        ``sostituisci``: those of its ``use``; a ``use`` ``attacca`` without ``meld`` lists every
        meld the jolly attaches to, ``meld`` then among the fields. Each entry carries the fields
        that select it (games.melds.accepted_layouts), to add to the request, its ``use`` or its
        last part. Cards not in the hand or that lay no meld give an empty list; a request of
        another kind, or a sostituzione or earlier part the rules refuse, raises.
        """
        d = st["deal"]
        if not isinstance(request, dict):
            raise UnknownAction()
        kind = request.get("type")
        chosen = {"start", "jolly_suit"}
        if kind in (CALA, ATTACCA):
            if chosen & set(request):
                raise UnknownAction()
            if take_cards(d["hands"][pos], card_list(request.get("cards"))) is None:
                return []
            return accepted_layouts(
                self.options(st, pos, request),
                SCALA40,
                lambda fields: self.plan(st, pos, {**request, **fields}),
                meld=request.get("meld") if kind == ATTACCA else None,
                points=scala40_meld_value if kind == CALA else None,
            )
        if kind == APRI:
            parts = request.get("melds")
            if set(request) != {"type", "melds"} or not isinstance(parts, list) or not parts:
                raise UnknownAction()
            last = parts[-1]
            if not isinstance(last, dict) or chosen & set(last):
                raise UnknownAction()
            self._check_can_open(d, pos)
            rest = list(d["hands"][pos])
            for part in parts[:-1]:
                rest = self._layout_new(rest, part)[1]
            cards = card_list(last.get("cards"))
            if take_cards(rest, cards) is None:
                return []
            return accepted_layouts(
                meld_options(cards, SCALA40),
                SCALA40,
                lambda fields: self._layout_new(rest, {**last, **fields}),
                points=scala40_meld_value,
            )
        if kind != SOSTITUISCI:
            raise UnknownAction()
        use = request.get("use")
        if not isinstance(use, dict) or use.get("type") not in (CALA, ATTACCA) or chosen & set(use):
            raise UnknownAction()
        _, jolly, rest, melds = self._take_jolly(d, pos, request)
        cards = card_list(use.get("cards", []), allow_empty=use["type"] == ATTACCA)
        if take_cards(rest, cards) is None:
            return []

        def accepts(fields: dict[str, Any]) -> object:
            return self.plan(st, pos, {**request, "use": {**use, **fields}})

        if use["type"] == CALA:
            return accepted_layouts(
                meld_options([*cards, jolly], SCALA40), SCALA40, accepts, points=scala40_meld_value
            )
        out: list[dict[str, Any]] = []
        for m in melds:
            if ("meld" in use and m["id"] != use["meld"]) or m["id"] == request["meld"]:
                continue  # not the meld asked for, or the one the jolly left (plan refuses it)
            out += accepted_layouts(
                extend_options(m, [*cards, jolly], SCALA40),
                SCALA40,
                accepts,
                meld=m["id"],
                fields=None if "meld" in use else {"meld": m["id"]},
            )
        return out

    # -- applying ----------------------------------------------------------------------------------

    def apply(self, st: State, pos: int, action: Action, rng: Rng) -> list[Event]:
        """Validate, then apply one move; events use positions (the engine maps them to seats)."""
        plan = self.plan(st, pos, action)
        d = st["deal"]
        d["last_mover"] = pos
        hand: list[str] = d["hands"][pos]
        kind = plan["type"]
        if kind == PESCA:
            return draw(d, pos)
        if kind == RACCOGLI:
            card = d["scarti"].pop()
            d["raccolto"] = {"card": card, "limit": count_same(hand, card)}
            hand.append(card)
            d["phase"] = GIOCA
            return [{"type": RACCOGLI, "pos": pos, "card": card}]
        if kind == RIMETTI:
            card = d["raccolto"]["card"]
            hand.remove(next(c for c in hand if same(c, card)))
            d["scarti"].append(card)
            d["raccolto"] = None
            d["rimesso"] = True
            d["phase"] = PESCA
            return [{"type": RIMETTI, "pos": pos, "card": card}]
        if kind == SCARTA:
            return self._discard(st, pos, plan["card"], rng)
        d["hands"][pos] = plan["rest"]
        by_id = {m["id"]: m for m in plan["melds"]}
        d["melds"] = [by_id.pop(m["id"], m) for m in d["melds"]] + list(by_id.values())
        d["next_id"] = max([d["next_id"] - 1, *(m["id"] for m in d["melds"])]) + 1
        event: Event = {"type": kind, "pos": pos, "melds": [dict(m) for m in plan["melds"]]}
        if kind == APRI:
            d["opened"][pos] = True
            d["opened_at"][pos] = d["turn_no"]
            event["value"] = plan["value"]
        if kind == SOSTITUISCI:
            event["card"] = plan["card"]
        return [event]

    def _discard(self, st: State, pos: int, card: str, rng: Rng) -> list[Event]:
        d = st["deal"]
        hand: list[str] = d["hands"][pos]
        hand.remove(card)
        d["scarti"].append(card)
        d["raccolto"] = None
        d["rimesso"] = False
        events: list[Event] = [{"type": SCARTA, "pos": pos, "card": card}]
        if not hand:
            d["closed_by"] = pos
            d["in_mano"] = d["opened_at"][pos] == d["turn_no"]
            d["ended"] = "chiusura"
            events.append({"type": "chiusura", "pos": pos, "in_mano": d["in_mano"]})
            return events
        d["turn_no"] += 1
        active: list[int] = d["active"]
        d["turn"] = active[(active.index(pos) + 1) % len(active)]
        d["phase"] = PESCA
        if not d["tallone"]:
            if len(d["scarti"]) > 1:
                top = d["scarti"].pop()
                deck = shuffled(d["scarti"], rng)
                st["deck_log"].append(list(deck))
                d["tallone"] = list(reversed(deck))
                d["scarti"] = [top]
                events.append({"type": "rimescola", "cards": len(deck)})
            else:
                d["ended"] = "tallone"  # nothing to draw and no discard to take: no closer
                events.append({"type": "tallone_esaurito"})
        return events

    # -- bots ----------------------------------------------------------------------------------------

    def sample(self, st: State, pos: int, rng: Rng) -> Action:
        """Return a random legal move that favours opening and melding (bots, property tests)."""
        d = st["deal"]
        hand: list[str] = d["hands"][pos]
        if d["phase"] == PESCA:
            if (
                d["scarti"]
                and not d["rimesso"]
                and (d["opened"][pos] or not d["tallone"])
                and rng.randbelow(3) == 0
            ):
                return {"type": RACCOGLI}
            if not d["tallone"]:
                return {"type": RACCOGLI}
            return {"type": PESCA}
        opened = d["opened"][pos]
        if not opened:
            act = self._sample_opening(st, pos, rng)
            if act is not None:
                return act
            if not self.raccolto_used(d, hand):
                return {"type": RIMETTI}
        elif rng.randbelow(6) != 0:
            tries: list[Action] = [{"type": CALA, "cards": h} for h in meld_hints(hand, SCALA40)]
            tries += [
                {"type": ATTACCA, "meld": d["melds"][i]["id"], "cards": [c]}
                for i, c in attach_hints(d["melds"], hand, SCALA40)
            ]
            for m in d["melds"]:
                stands = wild_card_stands_for(m, SCALA40)
                if stands is not None and stands in hand:
                    for other in d["melds"]:  # its own meld among them: plan refuses it
                        tries.append(
                            {
                                "type": SOSTITUISCI,
                                "meld": m["id"],
                                "card": stands,
                                "use": {"type": ATTACCA, "meld": other["id"], "cards": []},
                            }
                        )
            while tries:
                act = tries.pop(rng.randbelow(len(tries)))
                if act["type"] != SOSTITUISCI:
                    opts = self.options(st, pos, act)
                    if not opts:
                        continue
                    with_layout(act, opts, rng)
                try:
                    self.plan(st, pos, act)
                except InvalidCards:
                    continue
                return act
        if not self.raccolto_used(d, hand):
            return {"type": RIMETTI}
        attaching = self.attaching_cards(hand, d["melds"], opened)
        discards = [
            c
            for c in sorted(set(hand))
            if self.discard_reason(d, pos, hand, c, d["melds"], opened, attaching) is None
        ]
        return {"type": SCARTA, "card": discards[rng.randbelow(len(discards))]}

    def _sample_opening(self, st: State, pos: int, rng: Rng) -> Action | None:
        d = st["deal"]
        hand: list[str] = d["hands"][pos]
        hints = meld_hints(hand, SCALA40)
        for _ in range(3):
            order = shuffled(hints, rng)
            rest = list(hand)
            parts: list[dict[str, Any]] = []
            value = 0
            for h in order:
                left = take_cards(rest, h)
                if left is None:
                    continue
                opts = meld_options(h, SCALA40)
                o = max(opts, key=scala40_meld_value)
                part: dict[str, Any] = {"cards": list(h)}
                if o["kind"] == SEQ:
                    part["start"] = o["start"]
                elif o.get("jolly_suit") is not None:
                    part["jolly_suit"] = o["jolly_suit"]
                parts.append(part)
                value += scala40_meld_value(o)
                rest = left
            if value >= OPENING:
                act: Action = {"type": APRI, "melds": parts}
                try:
                    self.plan(st, pos, act)
                except InvalidCards:
                    continue
                return act
        return None

    def auto_action(self, st: State, pos: int) -> Action:
        """Return the automatic move: pesca (raccogli if the tallone is empty), then a discard."""
        d = st["deal"]
        if d["phase"] == PESCA:
            return {"type": PESCA} if d["tallone"] else {"type": RACCOGLI}
        hand = d["hands"][pos]
        if not self.raccolto_used(d, hand):
            return {"type": RIMETTI}
        for c in sorted(set(hand), key=lambda c: -scala40_hand_points([c])):
            if self.discard_reason(d, pos, hand, c, d["melds"], d["opened"][pos]) is None:
                return {"type": SCARTA, "card": c}
        raise NotYourTurn()  # unreachable: plan() never leaves a hand without a discard

    # -- score -----------------------------------------------------------------------------------

    def points(self, d: dict[str, Any]) -> list[int]:
        """Return the points each position pays for this (ended) smazzata (0 for the closer)."""
        out = [0] * len(d["hands"])
        factor = 2 if d["in_mano"] else 1
        for p in d["active"]:
            if p == d["closed_by"]:
                continue
            if not d["opened"][p]:
                out[p] = NEVER_OPENED  # "indipendentemente dalla somma delle carte possedute"
            else:
                out[p] = factor * scala40_hand_points(d["hands"][p])
        return out

    @staticmethod
    def _shown_hand(st: State, pos: int, hand: list[str]) -> list[str]:
        order = st["prefs"].get(str(st["seats"][pos]), {}).get("ordina_mano")
        return sort_hand(hand, order, SCALA40) if order in ("seme", "valore") else list(hand)

    def view(self, st: State, visible: frozenset[int]) -> dict[str, Any]:
        """Return the table as seen by a viewer of the ``visible`` hands."""
        d = st["deal"]
        return {
            "active": list(d["active"]),
            "hands": [self._shown_hand(st, p, h) if p in visible else None for p, h in enumerate(d["hands"])],
            "hand_sizes": [len(h) for h in d["hands"]],
            "tallone": len(d["tallone"]),
            "scarto": d["scarti"][-1] if d["scarti"] else None,
            "scarti": len(d["scarti"]),
            "melds": [{**m, "cards": list(m["cards"])} for m in d["melds"]],
            "turn": d["turn"],
            "phase": d["phase"],
            "opened": list(d["opened"]),
            "raccolto": None if d["raccolto"] is None else d["raccolto"]["card"],
            "turn_no": d["turn_no"],
            "closed_by": d["closed_by"],
            "in_mano": d["in_mano"],
            "ended": d["ended"],
        }
