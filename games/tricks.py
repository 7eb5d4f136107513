"""Trick-taking, written once for Briscola, Tresette and Bestia (ARCHITECTURE.md, "Shared pieces").

A deal of a trick game keeps its trick part in plain JSON keys of the deal state (the *trick
state*); the functions here read and change only these keys, and a game adds its own beside them:

* ``order``: the seats dealt in, in playing order: each seat's successor is the player on its
  right, since play goes counter-clockwise (RULINGS G2). ``order[0]`` is the dealer's right.
* ``trump``: the trump suit (``"d"``…) or None (Tresette has none).
* ``hands``: ``{"<seat>": [cards]}``.
* ``stock``: the cards still to draw, top first (Briscola puts its face-up card last); may be [].
* ``leader``: who leads the trick being played; ``turn``: who plays next (None when over).
* ``trick``: the plays of the trick in progress, ``[[seat, card], ...]`` in playing order.
* ``taken``: ``{"<seat>": [cards]}`` every card each seat has taken in tricks.
* ``history``: the completed tricks, ``[{"leader": s, "plays": [[s, c], ...], "winner": w}]``.

* ``exposed`` (optional): the trump card turned face up, for Bestia's top-trump lead.

Obligations are a ``TrickRules`` value: none (Briscola), follow suit (Tresette), or Bestia's
follow suit, trump when void and the leading obligation with the top trump (``lead_obligation``).

Above the trick functions: ``TrickDeal``, one smazzata of a two-line trick game (Briscola,
Tresette subclass it); ``TrickDealRules``, its adapter to games.partite's ``DealRules``
(``start_with`` deals from a recorded deck for replays); ``TrickMatchMixin``, what the two
engines add to ``PartiteEngine`` (a forfeit scores the smazzata in progress).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from games.cards import italian_deck, rank, suit
from games.engine import HandOver, InvalidCards, NotYourTurn, UnknownAction
from games.partite import DealRules, PartiteEngine
from games.partite import prefs as match_prefs
from games.rng import Rng, shuffled

State = dict[str, Any]

# Strength for taking, low to high (rank characters of games.cards: A 2..7 J Q K).
BRISCOLA_ORDER = "24567JQK3A"  # Bestia uses it too
TRESETTE_ORDER = "4567JQKA23"


def strength_of(order: str) -> dict[str, int]:
    """Map each rank to its taking strength (higher takes), from a low-to-high rank string."""
    return {r: i for i, r in enumerate(order)}


@dataclass(frozen=True)
class TrickRules:
    """The obligations and card order of one trick game."""

    strength: Mapping[str, int]
    follow_suit: bool = False
    # Bestia: a player void in the led suit must play a trump, even a losing one.
    trump_when_void: bool = False
    # Bestia: the first leader of the deal holding the top trump must lead it (the ace, or the
    # 3 when the ace is the face-up card that shows the trump suit).
    lead_top_trump: bool = False
    # Ranks from the top of the trump suit, for ``top_trump`` (default: the strength order).
    trump_ranks_desc: str = field(default="")

    def ranks_desc(self) -> str:
        """Ranks from the strongest down."""
        return self.trump_ranks_desc or "".join(sorted(self.strength, key=lambda r: -self.strength[r]))


BRISCOLA_RULES = TrickRules(strength=strength_of(BRISCOLA_ORDER))
TRESETTE_RULES = TrickRules(strength=strength_of(TRESETTE_ORDER), follow_suit=True)
BESTIA_RULES = TrickRules(
    strength=strength_of(BRISCOLA_ORDER), follow_suit=True, trump_when_void=True, lead_top_trump=True
)


class NotInHand(InvalidCards):
    code = "card_not_in_hand"
    default_message = "Non hai questa carta"


class MustFollowSuit(InvalidCards):
    code = "must_follow_suit"
    default_message = "Devi rispondere al seme"


class MustTrump(InvalidCards):
    code = "must_trump"
    default_message = "Devi giocare una briscola"


class MustLeadTopTrump(InvalidCards):
    code = "must_lead_top_trump"
    default_message = "Devi giocare la briscola dominante"


def key(seat: int) -> str:
    """The JSON key of a seat (state dicts have string keys only)."""
    return str(seat)


def next_seat(order: Sequence[int], seat: int) -> int:
    """The seat that plays after ``seat`` (the one on its right, RULINGS G2)."""
    return order[(order.index(seat) + 1) % len(order)]


def rotation(order: Sequence[int], first: int) -> list[int]:
    """Every seat once, in playing order, starting from ``first``."""
    i = order.index(first)
    return list(order[i:]) + list(order[:i])


def top_trump(rules: TrickRules, trump: str, exposed: str | None) -> str:
    """The highest trump still in play: the trump ace, or the 3 when the ace shows the trump."""
    for r in rules.ranks_desc():
        card = r + trump
        if card != exposed:
            return card
    raise ValueError("no trump left")  # pragma: no cover - a suit has ten cards


def legal_cards(
    rules: TrickRules,
    hand: Sequence[str],
    trick: Sequence[Sequence[Any]],
    trump: str | None,
    must_lead: Sequence[str] = (),
) -> list[str]:
    """The cards of ``hand`` that may be played to ``trick`` under the game's obligations."""
    if not trick:
        forced = [c for c in must_lead if c in hand]
        return forced[:1] if forced else list(hand)
    if not rules.follow_suit:
        return list(hand)
    led = suit(trick[0][1])
    same = [c for c in hand if suit(c) == led]
    if same:
        return same
    if rules.trump_when_void and trump is not None:
        trumps = [c for c in hand if suit(c) == trump]
        if trumps:
            return trumps
    return list(hand)


def check_card(
    rules: TrickRules,
    hand: Sequence[str],
    trick: Sequence[Sequence[Any]],
    trump: str | None,
    card: Any,
    must_lead: Sequence[str] = (),
) -> None:
    """Raise the specific InvalidCards error if ``card`` may not be played now."""
    if not isinstance(card, str) or card not in hand:
        raise NotInHand(card=card)
    if card in legal_cards(rules, hand, trick, trump, must_lead):
        return
    if not trick:
        raise MustLeadTopTrump(card=card)
    led = suit(trick[0][1])
    if any(suit(c) == led for c in hand):
        raise MustFollowSuit(card=card, suit=led)
    raise MustTrump(card=card, suit=trump)


def trick_winner(rules: TrickRules, plays: Sequence[Sequence[Any]], trump: str | None) -> int:
    """The seat that takes the trick: highest trump if any, else highest card of the led suit."""
    best_seat, best_card = plays[0][0], plays[0][1]
    for seat, card in plays[1:]:
        if suit(card) == suit(best_card):
            if rules.strength[rank(card)] > rules.strength[rank(best_card)]:
                best_seat, best_card = seat, card
        elif suit(card) == trump:  # the first trump over a non-trump best card
            best_seat, best_card = seat, card
    return int(best_seat)


def new_trick_state(
    order: Sequence[int],
    hands: Mapping[int, Sequence[str]],
    leader: int,
    trump: str | None,
    stock: Sequence[str],
) -> State:
    """The trick keys of a fresh deal (see the module docstring)."""
    return {
        "order": list(order),
        "trump": trump,
        "hands": {key(s): list(hands[s]) for s in order},
        "stock": list(stock),
        "leader": leader,
        "turn": leader,
        "trick": [],
        "taken": {key(s): [] for s in order},
        "history": [],
    }


def lead_obligation(rules: TrickRules, st: State) -> list[str]:
    """Cards the first leader of the deal must lead if held (Bestia: the top trump), else none.

    The trump card turned face up, if the game has one, is the optional key ``exposed``.
    """
    if not rules.lead_top_trump or st["history"] or st["trick"] or st["trump"] is None:
        return []
    return [top_trump(rules, st["trump"], st.get("exposed"))]


def legal_now(rules: TrickRules, st: State, seat: int, must_lead: Sequence[str] = ()) -> list[str]:
    """The cards ``seat`` may play now (empty if it is not its turn)."""
    if st["turn"] != seat:
        return []
    forced = list(must_lead) or lead_obligation(rules, st)
    return legal_cards(rules, st["hands"][key(seat)], st["trick"], st["trump"], forced)


def check_play(rules: TrickRules, st: State, seat: int, card: Any, must_lead: Sequence[str] = ()) -> None:
    """Raise the specific IllegalAction if ``seat`` may not play ``card`` now; change nothing."""
    if st["turn"] != seat:
        raise NotYourTurn()
    forced = list(must_lead) or lead_obligation(rules, st)
    check_card(rules, st["hands"][key(seat)], st["trick"], st["trump"], card, forced)


def tricks_won(st: State) -> dict[str, int]:
    """How many tricks each seat has taken (Bestia pays by tricks)."""
    won = dict.fromkeys(st["hands"], 0)
    for t in st["history"]:
        won[key(t["winner"])] += 1
    return won


def play(rules: TrickRules, st: State, seat: int, card: str) -> dict[str, Any] | None:
    """Play a card already checked by ``check_play``; return the completed trick, if this ended one.

    When the trick is complete its cards go to the winner's ``taken``, it is appended to
    ``history`` and the winner leads next (``turn`` is None once every hand is empty).
    """
    st["hands"][key(seat)].remove(card)
    st["trick"].append([seat, card])
    order = st["order"]
    if len(st["trick"]) < len(order):
        st["turn"] = next_seat(order, seat)
        return None
    winner = trick_winner(rules, st["trick"], st["trump"])
    done = {"leader": st["leader"], "plays": st["trick"], "winner": winner}
    st["taken"][key(winner)].extend(c for _, c in st["trick"])
    st["history"].append(done)
    st["trick"] = []
    st["leader"] = winner
    st["turn"] = winner if st["hands"][key(winner)] else None
    return done


def draw_round(st: State, winner: int) -> list[list[Any]]:
    """Each seat draws one card from the stock, the trick's winner first (in playing order).

    Returns the draws ``[[seat, card], ...]``; nothing when the stock is empty.
    """
    draws: list[list[Any]] = []
    for s in rotation(st["order"], winner):
        if not st["stock"]:
            break
        card = st["stock"].pop(0)
        st["hands"][key(s)].append(card)
        draws.append([s, card])
    return draws


def deal_round_robin(
    deck: Sequence[str], order: Sequence[int], each: int
) -> tuple[dict[int, list[str]], list[str]]:
    """Deal ``each`` cards one at a time in playing order from the top of ``deck``; return hands and rest."""
    hands: dict[int, list[str]] = {s: [] for s in order}
    i = 0
    for _ in range(each):
        for s in order:
            hands[s].append(deck[i])
            i += 1
    return hands, list(deck[i:])


def cards_in_play(st: State) -> list[str]:
    """Every card the trick state holds: hands, stock, current trick and taken (for audits)."""
    out: list[str] = []
    for cards in st["hands"].values():
        out.extend(cards)
    out.extend(st["stock"])
    out.extend(c for _, c in st["trick"])
    for cards in st["taken"].values():
        out.extend(cards)
    return out


# --------------------------------------------------------------------------------------------
# The deal ("smazzata") of a trick game between two lines, shared by Briscola and Tresette, and
# its adapter to the match engine (games.partite).
# --------------------------------------------------------------------------------------------

# Config keys a deal keeps in its own state (the match config holds many more).
DEAL_OPTION_KEYS = (
    "carte_viste",
    "carte_scoperte",
    "vinco_subito",
    "vinco_subito_smazzata",
    "a_perdere",
    "accuso",
    "cappotto",
    "dichiarazioni",
)


class TrickDeal(ABC):
    """One smazzata of a two-line trick game: deal, play, draws, views and the points per line.

    The deal state is a JSON dict: the trick keys above plus ``game``, ``dealer``, ``lines``
    (two lists of seats; partners sit opposite), ``opts`` (the table options the deal uses,
    ``DEAL_OPTION_KEYS``), ``prefs`` (``{"<seat>": {...}}``, a snapshot taken when the deal starts:
    a changed preference applies from the next smazzata), ``context`` (``{"target": int | None,
    "before": [a, b]}``: the match target when a deal may end the match at once, and the match
    points before this deal), ``over`` and ``ended_by``. The deck order is kept by the caller
    (``deck_log`` of the match state, RULINGS G4). "Seats" here are whatever ints the caller uses;
    the match engine passes its positions ``0..n-1``.
    """

    game: str = ""
    rules: TrickRules = BRISCOLA_RULES
    hand_size: int = 0

    # -- lines and seats ------------------------------------------------------------------------
    @staticmethod
    def line_of(d: State, seat: int) -> int:
        """The index (0 or 1) of the line the seat plays for."""
        return 0 if seat in d["lines"][0] else 1

    @staticmethod
    def partner(d: State, seat: int) -> int | None:
        """The seat's partner in a game a coppie (None testa a testa)."""
        line = d["lines"][0] if seat in d["lines"][0] else d["lines"][1]
        others = [s for s in line if s != seat]
        return others[0] if others else None

    @staticmethod
    def pref(d: State, seat: int, name: str, default: bool = True) -> bool:
        """A seat's automatic-play preference (games.options keys; missing means the default)."""
        return bool(d["prefs"].get(key(seat), {}).get(name, default))

    @staticmethod
    def opt(d: State, name: str) -> bool:
        """A table option of the deal."""
        return bool(d["opts"].get(name))

    # -- creation -------------------------------------------------------------------------------
    def new(
        self,
        *,
        order: Sequence[int],
        dealer: int,
        lines: Sequence[Sequence[int]],
        deck: Sequence[str],
        opts: Mapping[str, Any] | None = None,
        prefs: Mapping[str, Any] | None = None,
        context: Mapping[str, Any] | None = None,
    ) -> State:
        """Deal a smazzata from ``deck`` (shuffled by the caller with the table's rng).

        ``hand_size`` cards each, one at a time counter-clockwise from the dealer's right, who
        plays first (RULINGS G2); the rest is the stock; ``setup`` adds the game's own keys.
        """
        if len(order) not in (2, 4):
            raise ValueError("si gioca in 2 o in 4")
        play_order = rotation(order, next_seat(order, dealer))
        hands, rest = deal_round_robin(deck, play_order, self.hand_size)
        d: State = {"game": self.game, "dealer": dealer, "lines": [list(x) for x in lines]}
        d.update(new_trick_state(play_order, hands, play_order[0], None, rest))
        d.update(
            {
                "opts": {k: v for k, v in (opts or {}).items() if k in DEAL_OPTION_KEYS},
                "prefs": {key(int(s)): dict(p) for s, p in (prefs or {}).items()},
                "context": {"target": None, "before": [0, 0], **dict(context or {})},
                "over": False,
                "ended_by": None,
            }
        )
        self.setup(d)
        return d

    def setup(self, d: State) -> None:  # noqa: B027  (optional hook: most games add nothing)
        """Hook: the game's own keys of a fresh deal (the briscola card, accusi…)."""

    # -- queries --------------------------------------------------------------------------------
    def to_act(self, d: State) -> list[int]:
        """The seat that must play now (empty when the deal is over)."""
        return [] if d["over"] or d["turn"] is None else [d["turn"]]

    def play_specs(self, d: State, seat: int) -> list[dict[str, Any]]:
        """One ``gioca`` spec per card the seat may play now."""
        if d["over"]:
            return []
        cards = legal_now(self.rules, d, seat)
        return [{"type": "gioca", "card": c, "label": c} for c in cards]

    def legal_actions(self, d: State, seat: int) -> list[dict[str, Any]]:
        """What the seat may do now (default: the cards it may play)."""
        return self.play_specs(d, seat)

    def apply(self, d: State, seat: int, action: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Apply one action of the seat, validated fully before any change."""
        if d["over"]:
            raise HandOver()
        if action.get("type") != "gioca":
            raise UnknownAction(action=action.get("type"))
        return self.play_card(d, seat, action)

    def auto_action(self, d: State, seat: int) -> dict[str, Any]:
        """The first legal card (training tables' timeout, bots)."""
        specs = self.play_specs(d, seat)
        if not specs:
            raise NotYourTurn()
        return {"type": "gioca", "card": specs[0]["card"]}

    def line_cards(self, d: State, line: int) -> list[str]:
        """Every card a line has taken so far."""
        return [c for s in d["lines"][line] for c in d["taken"][key(s)]]

    def last_taker(self, d: State) -> int | None:
        """The seat that made the last trick so far (None before the first)."""
        return int(d["history"][-1]["winner"]) if d["history"] else None

    # -- play -----------------------------------------------------------------------------------
    def play_card(self, d: State, seat: int, action: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Check and play a ``gioca`` action; return the events (draws and the trick included)."""
        card = action.get("card")
        if set(action) - {"type", "card"}:
            raise InvalidCards(extra=sorted(set(action) - {"type", "card"}))
        check_play(self.rules, d, seat, card)
        assert isinstance(card, str)
        events: list[dict[str, Any]] = self.before_play(d, seat, card)
        events.append({"type": "gioca", "seat": seat, "card": card})
        done = play(self.rules, d, seat, card)
        if done is None:
            return events
        winner = done["winner"]
        events.append({"type": "presa", "seat": winner, "cards": [c for _, c in done["plays"]]})
        events.extend(self.draw_events(d, draw_round(d, winner)))
        if d["turn"] is None:
            self.finish(d, "fine_carte")
        else:
            self.after_trick(d, winner)
        return events

    def before_play(self, d: State, seat: int, card: str) -> list[dict[str, Any]]:
        """Hook: events due just before a card is played (Tresette's accuso and dichiarazione)."""
        return []

    def after_trick(self, d: State, winner: int) -> None:  # noqa: B027  (optional hook)
        """Hook: after a trick that did not end the deal (Briscola's vinco subito)."""

    def finish(self, d: State, reason: str) -> None:
        """End the deal."""
        d["over"] = True
        d["ended_by"] = reason
        d["turn"] = None

    def draw_seen_by(self, d: State, seat: int) -> list[int] | None:
        """Who sees a drawn card: None for everybody, else the seat (and its partner, carte scoperte)."""
        mate = self.partner(d, seat)
        return [seat] if mate is None or not self.opt(d, "carte_scoperte") else [seat, mate]

    def draw_events(self, d: State, draws: Sequence[Sequence[Any]]) -> list[dict[str, Any]]:
        """Events for the draws: the card goes only to who may see it, the fact to everybody."""
        events: list[dict[str, Any]] = []
        for s, c in draws:
            seen = None if c == d.get("briscola") else self.draw_seen_by(d, s)
            if seen is None:
                events.append({"type": "pesca", "seat": s, "card": c})
            else:
                events.append({"type": "pesca", "seat": s, "card": c, "to": seen})
                events.append({"type": "pesca", "seat": s})
        return events

    # -- points (game specific) -----------------------------------------------------------------
    @abstractmethod
    def running_points(self, d: State) -> list[int]:
        """The points each line has made so far in this deal."""
        ...

    @abstractmethod
    def result(self, d: State) -> dict[str, Any]:
        """The deal's outcome per line (index 0 and 1 of ``lines``)."""
        ...

    @abstractmethod
    def unassigned_points(self, d: State) -> int:
        """Points of this deal not yet assigned to either line (for the timeout penalty)."""
        ...

    # -- views ----------------------------------------------------------------------------------
    def has_stock(self, d: State) -> bool:
        """Whether the smazzata was dealt with a stock (Tresette in four deals every card)."""
        return len(cards_in_play(d)) > self.hand_size * len(d["order"])

    def hands_known(self, d: State) -> bool:
        """Whether, testa a testa a carte viste, the rest is played face up (the stock is out)."""
        return len(d["order"]) == 2 and not d["stock"]

    def shown_cards(self, d: State, carte_viste: bool) -> dict[str, list[str]]:
        """Cards of each hand known to everybody (spizzichino draws…); default none."""
        return {}

    def view(self, d: State, visible: frozenset[int], carte_viste: bool) -> dict[str, Any]:
        """What a viewer who may see the hands of the ``visible`` seats may see of the deal.

        Without carte viste only the trick on the table and the last completed one are shown;
        with it every trick of the smazzata. The stock shows only its size (its order never).
        """
        history = d["history"]
        seen_tricks = history if carte_viste else history[-1:]
        v: dict[str, Any] = {
            "game": d["game"],
            "dealer": d["dealer"],
            "order": list(d["order"]),
            "lines": [list(x) for x in d["lines"]],
            "trump": d["trump"],
            "turn": d["turn"],
            "leader": d["leader"],
            "trick": [list(p) for p in d["trick"]],
            "tricks_seen": [
                {"leader": t["leader"], "plays": [list(p) for p in t["plays"]], "winner": t["winner"]}
                for t in seen_tricks
            ],
            "tricks_played": len(history),
            "hand_counts": {k: len(h) for k, h in d["hands"].items()},
            "taken_counts": [len(self.line_cards(d, i)) for i in (0, 1)],
            "hands": {key(s): list(d["hands"][key(s)]) for s in sorted(visible) if key(s) in d["hands"]},
            "over": d["over"],
        }
        if self.has_stock(d):
            v["stock_count"] = len(d["stock"])
        shown = self.shown_cards(d, carte_viste)
        if shown:
            v["shown"] = shown
        if d["over"]:
            v["result"] = self.result(d)
        return v


def positions_lines(n: int) -> list[list[int]]:
    """The match engine's lines by position: testa a testa [[0], [1]], pairs [[0, 2], [1, 3]]."""
    return [[0], [1]] if n == 2 else [[0, 2], [1, 3]]


def to_match_events(events: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rename a deal event's ``seat``/``to`` (positions) to the match engine's ``pos``/``to_pos``."""
    out: list[dict[str, Any]] = []
    for ev in events:
        e = dict(ev)
        if "seat" in e:
            e["pos"] = e.pop("seat")
        if "to" in e:
            e["to_pos"] = e.pop("to")
        out.append(e)
    return out


class TrickDealRules(DealRules):
    """Adapter: a TrickDeal as the ``DealRules`` of games.partite (positions are its seats)."""

    # carte viste is shown by the trick view, vinco subito ends the deal; only Tresette plays a
    # perdere (its own list)
    not_implemented: ClassVar[frozenset[str]] = frozenset({"lower_wins", "decider_always"})

    deal: ClassVar[TrickDeal]

    def points_so_far(self, st: State) -> list[int] | None:
        """The card points each line has taken in the smazzata in progress (they count at a forfeit)."""
        return self.deal.running_points(st["deal"])

    def start(self, st: State, rng: Rng) -> tuple[dict[str, Any], list[list[str]], list[dict[str, Any]]]:
        """Shuffle, deal, and send each position its hand (and the partner's, carte scoperte)."""
        return self.start_with(st, shuffled(italian_deck(), rng))

    def start_with(
        self, st: State, deck: list[str]
    ) -> tuple[dict[str, Any], list[list[str]], list[dict[str, Any]]]:
        """``start`` from a given deck order (replays from ``deck_log`` and golden tests)."""
        cfg = st["config"]
        n = len(st["seats"])
        target = cfg["target"] if cfg["vinco_subito"] and cfg["mode"] == "punti" else None
        d = self.deal.new(
            order=list(range(n)),
            dealer=st["dealer"],
            lines=positions_lines(n),
            deck=deck,
            opts=cfg,
            prefs={key(p): match_prefs(st, p) for p in range(n)},
            context={"target": target, "before": list(st["totals"])},
        )
        events: list[dict[str, Any]] = []
        for p in range(n):
            seen = self.deal.draw_seen_by(d, p) or [p]
            events.append({"type": "carte", "seat": p, "cards": list(d["hands"][key(p)]), "to": seen})
        events.extend(self.public_start_events(d))
        return d, [deck], to_match_events(events)

    def public_start_events(self, d: State) -> list[dict[str, Any]]:
        """Public events at the start of a deal (the face-up briscola)."""
        return []

    def to_act(self, st: State) -> int | None:
        """The position to play (None when the deal is over)."""
        acting = self.deal.to_act(st["deal"])
        return acting[0] if acting else None

    def legal_actions(self, st: State, pos: int) -> list[dict[str, Any]]:
        """The deal's specs for the position."""
        return self.deal.legal_actions(st["deal"], pos)

    def apply(self, st: State, pos: int, action: dict[str, Any], rng: Rng) -> list[dict[str, Any]]:
        """Apply on the deal state; events renamed for the match engine."""
        return to_match_events(self.deal.apply(st["deal"], pos, action))

    def view(self, st: State, visible: frozenset[int], carte_viste: bool) -> dict[str, Any]:
        """The deal's view for these visible positions."""
        return self.deal.view(st["deal"], visible, carte_viste)

    def auto_action(self, st: State, pos: int) -> dict[str, Any]:
        """The first legal card."""
        return self.deal.auto_action(st["deal"], pos)

    def is_over(self, st: State) -> bool:
        """Whether the smazzata has ended."""
        return bool(st["deal"]["over"])

    def result(self, st: State) -> dict[str, Any]:
        """The match engine's deal result: points, decider (the last trick's line), detail."""
        res = self.deal.result(st["deal"])
        return {"points": res["points"], "decider": res["last_trick"], "cappotto": None, "detail": res}

    def penalty(self, st: State, offender: int) -> int:
        """The points of the smazzata not yet assigned (the match engine caps them per game)."""
        return 0 if st["over"] or not st["deal"] else self.deal.unassigned_points(st["deal"])

    def hands_known(self, st: State) -> bool:
        """Testa a testa, once the stock is out every hand is known (carte viste plays face up)."""
        return self.deal.hands_known(st["deal"])


class TrickMatchMixin(PartiteEngine):
    """What Briscola and Tresette share above the deal: a match of trick-taking smazzate.

    A forfeit (timeout or abandon) scores the smazzata in progress through
    ``TrickDealRules.points_so_far`` (the match engine's hook).
    """

    rules: ClassVar[TrickDealRules]
