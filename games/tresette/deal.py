"""One smazzata of Tresette and of spizzichino (rules 004, "Regole del Tresette"; RULINGS I7).

4 players (two pairs, or "4 in 2"): ten cards each, ten tricks. 2 players (spizzichino): ten
each and twenty in the stock; after each trick the winner, then the other, draws one card that
is shown to both (it is public in every view until played). Every player must follow suit; the
highest card of the led suit takes (3 2 A K Q J 7 6 5 4; no trumps).

Points: asso 1, tre/due/re/cavallo/fante ⅓, the rest 0; a line's total is floored (7 + ⅓ = 7)
and the last trick adds 1, so a smazzata is always worth 11 (the floors of the 32 thirds always
add up to 10). Options (table config ``opts``):

* ``a_perdere``: the aim is to make fewer points (the match engine decides); no accuso and no
  chiamata fuori.
* ``accuso``: napoletana (3, 2 and A of a suit) and three of a kind of 3, 2 or A are worth 3,
  four of a kind 4; declared during the first trick on the player's turn before playing, by the
  system unless the seat's pref ``accuso_automatico`` is off (then the action ``accuso``).
* ``cappotto`` (never in tournaments): a line that makes all 11 points has a cappotto, and the
  other line's accusi do not count.
* ``dichiarazioni`` (4 players): the player who leads may declare about the suit he leads:
  "Ho …" (honours and number of cards), "Busso", "Ho per te". "Ho …" is made by the system unless
  the seat's pref ``dichiarazione_automatica`` is off; Busso and Ho per te are always manual.
* chiamata fuori = the match option ``vinco_subito`` (partite a punti; RULINGS I7): the line that
  has just taken ends the match the moment its match points before the deal plus its points so
  far (floored thirds and accusi) reach the target (the match engine checks ``taker_calling``);
  with the seat's pref ``chiamata_fuori_automatica`` off, that seat gets the action
  ``chiama_fuori`` instead when it leads right after taking.
* ``carte_viste``: the previous tricks; the honours declared and cards accused still in hand;
  what follows for certain from the draws, plays and declarations (``known_holdings``: cards
  certainly in another hand, "evidenziate", and declared suit counts "shown as such");
  in spizzichino, once the stock is out, both hands face up. ``carte_scoperte``: partners see each
  other's hand.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.cards import SUITS, italian_deck, rank, suit
from games.engine import HandOver, IllegalAction, UnknownAction
from games.tricks import TRESETTE_RULES, State, TrickDeal, key

THIRDS = {"A": 3, "3": 1, "2": 1, "K": 1, "Q": 1, "J": 1}
TOTAL_POINTS = 11
HONOURS = ("3", "2", "A")
HONOUR_NAME = {"3": "il 3", "2": "il 2", "A": "l'asso"}
ORDINAL = {
    1: ("secco", "secchi"),
    2: ("secondo", "secondi"),
    3: ("terzo", "terzi"),
    4: ("quarto", "quarti"),
    5: ("quinto", "quinti"),
    6: ("sesto", "sesti"),
    7: ("settimo", "settimi"),
    8: ("ottavo", "ottavi"),
    9: ("nono", "noni"),
    10: ("decimo", "decimi"),
}
COMBO_POINTS = {"napoletana": 3, "tre": 3, "quattro": 4}
# The manual declarations a leader may set before leading ("Ho …" excludes "Busso", rules 004).
DECLARATIONS = (
    {"ho": True, "busso": False, "per_te": False},
    {"ho": False, "busso": True, "per_te": False},
    {"ho": False, "busso": False, "per_te": True},
    {"ho": True, "busso": False, "per_te": True},
    {"ho": False, "busso": True, "per_te": True},
)


class NoAccuso(IllegalAction):
    code = "accuso_not_allowed"
    default_message = "Accuso non ammesso"


class NoDeclaration(IllegalAction):
    code = "declaration_not_allowed"
    default_message = "Dichiarazione non ammessa"


class NoChiamataFuori(IllegalAction):
    code = "chiamata_fuori_not_allowed"
    default_message = "Chiamata fuori non ammessa"


def thirds(cards: Sequence[str]) -> int:
    """Thirds of a point in some cards (asso 3, tre/due/figure 1)."""
    return sum(THIRDS.get(rank(c), 0) for c in cards)


def combos(hand: Sequence[str]) -> list[str]:
    """The accusi a hand holds: ``napoletana:<suit>``, ``tre:<rank>``, ``quattro:<rank>``."""
    out = [f"napoletana:{s}" for s in SUITS if all(r + s in hand for r in HONOURS)]
    for r in HONOURS:
        n = sum(1 for c in hand if rank(c) == r)
        if n == 4:
            out.append(f"quattro:{r}")
        elif n == 3:
            out.append(f"tre:{r}")
    return out


def combo_points(combo: str) -> int:
    """Points of one accuso (3, or 4 for four of a kind)."""
    return COMBO_POINTS[combo.split(":")[0]]


def combo_cards(combo: str, hand: Sequence[str]) -> list[str]:
    """The cards an accuso shows (for a three of a kind the three held)."""
    kind, what = combo.split(":")
    if kind == "napoletana":
        return [r + what for r in HONOURS]
    return [c for c in hand if rank(c) == what]


def declaration_text(ho: bool, busso: bool, per_te: bool, honours: Sequence[str], count: int) -> str:
    """The Italian words of a declaration, e.g. "Ho per te e ho il 3 e il 2 quinti".

    The ordinal is the number of cards held in the suit, the led card included ("il 3 quarto":
    the 3 and four cards in all). The rules' "Ho il 2 terzo … 5 carte" contradicts its own other
    examples ("il 3 quarto" = 4, "il 3 e il 2 quinti" = 5); we follow the majority reading.
    """
    parts: list[str] = []
    if per_te:
        parts.append("Ho per te")
    if busso:
        parts.append("busso" if parts else "Busso")
    if ho:
        if honours:
            names = [HONOUR_NAME[r] for r in honours]
            held = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " e " + names[-1]
            ordinal = ORDINAL[count][0 if len(names) == 1 else 1]
            body = f"{held} {ordinal}"
        else:
            body = "1 carta" if count == 1 else f"{count} carte"
        parts.append(("ho " if parts else "Ho ") + body)
    return " e ".join(parts)


class TresetteDeal(TrickDeal):
    """The rules of one Tresette smazzata (see the module docstring)."""

    game = "tresette"
    rules = TRESETTE_RULES
    hand_size = 10

    def setup(self, d: State) -> None:
        """Accusi, declarations and the spizzichino draws start empty."""
        order = d["order"]
        d["drawn"] = {key(s): [] for s in order}
        d["accusi"] = {key(s): [] for s in order}
        d["accuso_cards"] = {key(s): [] for s in order}
        d["pending"] = {}
        d["declarations"] = []
        d["called"] = None

    # -- options --------------------------------------------------------------------------------
    def accuso_on(self, d: State) -> bool:
        """Accusi are played (not in the a perdere variant)."""
        return self.opt(d, "accuso") and not self.opt(d, "a_perdere")

    def declarations_on(self, d: State) -> bool:
        """Dichiarazioni are played (pairs only)."""
        return self.opt(d, "dichiarazioni") and len(d["order"]) == 4

    def chiamata_on(self, d: State) -> bool:
        """Chiamata fuori is played (partite a punti only, not a perdere)."""
        on = self.opt(d, "vinco_subito") and not self.opt(d, "a_perdere")
        return on and d["context"]["target"] is not None

    # -- actions --------------------------------------------------------------------------------
    def open_combos(self, d: State, seat: int) -> list[str]:
        """The accusi the seat may still declare now (first trick, its turn, before playing)."""
        if not self.accuso_on(d) or d["over"] or d["history"] or d["turn"] != seat:
            return []
        done = d["accusi"][key(seat)]
        return [c for c in combos(d["hands"][key(seat)]) if c not in done]

    def may_call_out(self, d: State, seat: int) -> bool:
        """Whether the seat, having just taken and leading, may call out (manual chiamata fuori)."""
        if not self.chiamata_on(d) or d["over"] or d["turn"] != seat or d["trick"] or not d["history"]:
            return False
        if d["history"][-1]["winner"] != seat:
            return False
        return self.reached_target(d, self.line_of(d, seat))

    def reached_target(self, d: State, line: int) -> bool:
        """Whether a line's match points plus its points so far reach the target."""
        ctx = d["context"]
        return bool(ctx["before"][line] + self.running_points(d)[line] >= ctx["target"])

    def legal_actions(self, d: State, seat: int) -> list[dict[str, Any]]:
        """Cards to play, plus accuso / dichiara / annulla / chiama_fuori when allowed."""
        specs = self.play_specs(d, seat)
        if not specs:
            return []
        if not self.pref(d, seat, "accuso_automatico"):
            specs += [{"type": "accuso", "combo": c, "label": "Accuso"} for c in self.open_combos(d, seat)]
        if self.declarations_on(d) and not d["trick"]:
            current = d["pending"].get(key(seat))
            specs += [
                {"type": "dichiara", **x, "label": "Dichiarazione"} for x in DECLARATIONS if x != current
            ]
            auto = current is None and self.pref(d, seat, "dichiarazione_automatica")
            if auto or (current is not None and any(current.values())):
                specs.append({"type": "annulla_dichiarazione", "label": "Annulla"})
        if not self.pref(d, seat, "chiamata_fuori_automatica") and self.may_call_out(d, seat):
            specs.append({"type": "chiama_fuori", "label": "Chiamo fuori"})
        return specs

    def apply(self, d: State, seat: int, action: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Apply one action of the seat (validated fully before any change)."""
        if d["over"]:
            raise HandOver()
        kind = action.get("type")
        if kind == "gioca":
            return self.play_card(d, seat, action)
        if kind not in ("accuso", "dichiara", "annulla_dichiarazione", "chiama_fuori"):
            raise UnknownAction(action=kind)
        if not any(
            all(action.get(k) == v for k, v in spec.items() if k != "label") and set(action) <= set(spec)
            for spec in self.legal_actions(d, seat)
            if spec["type"] == kind
        ):
            error = {"accuso": NoAccuso, "chiama_fuori": NoChiamataFuori}.get(str(kind), NoDeclaration)
            raise error()
        if kind == "accuso":
            return [self.accuse(d, seat, str(action["combo"]))]
        if kind == "chiama_fuori":
            d["called"] = self.line_of(d, seat)  # the match engine ends the match (vinco subito)
            return [{"type": "chiama_fuori", "seat": seat}]
        if kind == "dichiara":
            d["pending"][key(seat)] = {k: bool(action[k]) for k in ("ho", "busso", "per_te")}
        else:
            d["pending"][key(seat)] = {"ho": False, "busso": False, "per_te": False}
        return [{"type": kind, "seat": seat, "to": [seat]}]

    def accuse(self, d: State, seat: int, combo: str) -> dict[str, Any]:
        """Record an accuso; the event is public (it shows the cards)."""
        hand = d["hands"][key(seat)]
        cards = combo_cards(combo, hand)
        d["accusi"][key(seat)].append(combo)
        d["accuso_cards"][key(seat)].extend(c for c in cards if c not in d["accuso_cards"][key(seat)])
        return {"type": "accuso", "seat": seat, "combo": combo, "cards": cards, "points": combo_points(combo)}

    def before_play(self, d: State, seat: int, card: str) -> list[dict[str, Any]]:
        """Automatic accuso (first trick) and the leader's declaration, just before the card."""
        events: list[dict[str, Any]] = []
        if self.pref(d, seat, "accuso_automatico"):
            events += [self.accuse(d, seat, c) for c in self.open_combos(d, seat)]
        if self.declarations_on(d) and not d["trick"]:
            decl = d["pending"].pop(key(seat), None)
            if decl is None and self.pref(d, seat, "dichiarazione_automatica"):
                decl = {"ho": True, "busso": False, "per_te": False}
            if decl is not None and any(decl.values()):
                events.append(self.declare(d, seat, card, decl))
        return events

    def declare(self, d: State, seat: int, card: str, decl: Mapping[str, bool]) -> dict[str, Any]:
        """Make a declaration about the suit of the card being led."""
        s = suit(card)
        held = [c for c in d["hands"][key(seat)] if suit(c) == s]
        honours = [r for r in HONOURS if r + s in held] if decl["ho"] else []
        count = len(held) if decl["ho"] else 0
        record = {
            "seat": seat,
            "suit": s,
            "trick": len(d["history"]),
            **{k: bool(decl[k]) for k in ("ho", "busso", "per_te")},
            "honours": [r + s for r in honours],
            "count": count,
            "text": declaration_text(decl["ho"], decl["busso"], decl["per_te"], honours, count),
        }
        d["declarations"].append(record)
        return {"type": "dichiarazione", **record}

    def draw_seen_by(self, d: State, seat: int) -> list[int] | None:
        """Spizzichino draws are shown to both players (RULINGS I7)."""
        return None

    def draw_events(self, d: State, draws: Sequence[Sequence[Any]]) -> list[dict[str, Any]]:
        """Record the shown draws; every one is public."""
        for s, c in draws:
            d["drawn"][key(s)].append(c)
        return super().draw_events(d, draws)

    def taker_calling(self, d: State) -> int | None:
        """The line that calls out now: the seat that has just taken, automatically unless its pref
        is off, or the line that used the manual ``chiama_fuori`` (RULINGS I7)."""
        if not self.chiamata_on(d):
            return None
        if d["called"] is not None:
            return int(d["called"])
        if d["trick"] or not d["history"]:
            return None
        winner = int(d["history"][-1]["winner"])
        if not self.pref(d, winner, "chiamata_fuori_automatica"):
            return None
        return self.line_of(d, winner)

    # -- points ---------------------------------------------------------------------------------
    def card_points(self, d: State) -> list[int]:
        """Floored thirds per line, plus 1 to the last trick's line when the deal has been played out."""
        pts = [thirds(self.line_cards(d, i)) // 3 for i in (0, 1)]
        if d["over"]:
            pts[self.line_of(d, int(d["history"][-1]["winner"]))] += 1
        return pts

    def accuso_points(self, d: State) -> list[int]:
        """Points of each line's accusi."""
        return [sum(combo_points(c) for s in d["lines"][i] for c in d["accusi"][key(s)]) for i in (0, 1)]

    def cappotto(self, d: State) -> int | None:
        """The line that made all 11 points, when the table plays the cappotto."""
        if not self.opt(d, "cappotto") or not d["over"]:
            return None
        pts = self.card_points(d)
        return 0 if pts[0] == TOTAL_POINTS else 1 if pts[1] == TOTAL_POINTS else None

    def running_points(self, d: State) -> list[int]:
        """Each line's points so far: floored thirds (and the last trick at the end) plus accusi."""
        card, acc = self.card_points(d), self.accuso_points(d)
        cap = self.cappotto(d)
        if cap is not None:
            acc[1 - cap] = 0  # the cappotto voids the other line's accuso (rules 004)
        return [card[0] + acc[0], card[1] + acc[1]]

    def unassigned_points(self, d: State) -> int:
        """Card points of this deal not yet assigned (the last trick included)."""
        return TOTAL_POINTS - sum(self.card_points(d))

    def result(self, d: State) -> dict[str, Any]:
        """Points per line (cards + accusi), their parts, the cappotto and the last trick's line."""
        last = self.last_taker(d)
        card, acc = self.card_points(d), self.accuso_points(d)
        cap = self.cappotto(d)
        if cap is not None:
            acc[1 - cap] = 0
        return {
            "points": [card[0] + acc[0], card[1] + acc[1]],
            "card_points": card,
            "accusi": acc,
            "cappotto": cap,
            "last_trick": None if last is None else self.line_of(d, last),
            "ended_by": d["ended_by"],
        }

    # -- views ----------------------------------------------------------------------------------
    def shown_cards(self, d: State, carte_viste: bool) -> dict[str, list[str]]:
        """Cards known to be in a hand: spizzichino draws; with carte viste, declared honours and accusi."""
        out: dict[str, list[str]] = {}
        viste = carte_viste
        for k, hand in d["hands"].items():
            known = list(d["drawn"][k])
            if viste:
                known += d["accuso_cards"][k]
                known += [c for rec in d["declarations"] if key(rec["seat"]) == k for c in rec["honours"]]
            cards = [c for c in hand if c in known]
            if cards:
                out[k] = cards
        return out

    def known_holdings(
        self, d: State, visible: frozenset[int]
    ) -> tuple[dict[str, list[str]], dict[str, dict[str, int]]]:
        """What a viewer who sees the ``visible`` hands can be certain of in the other hands.

        Carte viste (rules 004: "le carte in mano agli altri giocatori in base alle dichiarazioni
        effettuate"; spizzichino: "in base alle pescate e alle giocate precedenti"). Inputs are only
        what this viewer knows: the visible hands, every trick played, the shown cards (draws,
        accusi, declared honours still in hand), the declared counts, the hand and stock sizes.
        The unknown cards of each suit lie in the hidden part of the other hands or in the stock;
        per holder and suit we keep bounds on how many it holds: 0 when the seat once failed to
        follow that suit (its hidden cards cannot gain that suit: draws are shown), exact when a
        declared count ("Ho il 3 quinto") less the cards of the suit it has played since says so;
        then row (holder size) and column (unknown cards of the suit) sums are propagated to a
        fixpoint. Sound (everything returned is certain), not complete (a deeper case analysis
        could occasionally find more).

        Returns the cards certainly in each other hand, beyond the shown ones, and the number of
        cards of a suit each other hand holds whenever it is known exactly (shown ones included).
        """
        hands = d["hands"]
        shown = self.shown_cards(d, True)
        seats = [s for s in d["order"] if s not in visible]
        played = [c for t in d["history"] for _, c in t["plays"]] + [c for _, c in d["trick"]]
        known = set(played)
        for s in d["order"]:
            known.update(hands[key(s)] if s in visible else shown.get(key(s), []))
        unknown = {x: [c for c in italian_deck() if suit(c) == x and c not in known] for x in SUITS}
        holders = [key(s) for s in seats] + ["stock"]
        total = {key(s): len(hands[key(s)]) - len(shown.get(key(s), [])) for s in seats}
        total["stock"] = len(d["stock"])
        lo = {h: dict.fromkeys(SUITS, 0) for h in holders}
        hi = {h: {x: min(total[h], len(unknown[x])) for x in SUITS} for h in holders}
        tricks = [t["plays"] for t in d["history"]] + ([d["trick"]] if d["trick"] else [])
        for plays in tricks:
            led = suit(plays[0][1])
            for s, c in plays[1:]:
                if suit(c) != led and key(s) in hi:
                    hi[key(s)][led] = 0  # did not follow suit: void then, and draws are shown
        for rec in d["declarations"]:
            k, x = key(rec["seat"]), rec["suit"]
            if not rec["ho"] or k not in hi:
                continue
            since = tricks[rec["trick"] :]
            left = rec["count"] - sum(1 for plays in since for s, c in plays if key(s) == k and suit(c) == x)
            exact = left - sum(1 for c in shown.get(k, []) if suit(c) == x)
            lo[k][x] = hi[k][x] = exact
        changed = True
        while changed:
            changed = False
            for h in holders:
                for x in SUITS:
                    row_hi = sum(hi[h][y] for y in SUITS if y != x)
                    row_lo = sum(lo[h][y] for y in SUITS if y != x)
                    col_hi = sum(hi[g][x] for g in holders if g != h)
                    col_lo = sum(lo[g][x] for g in holders if g != h)
                    new_lo = max(lo[h][x], total[h] - row_hi, len(unknown[x]) - col_hi)
                    new_hi = min(hi[h][x], total[h] - row_lo, len(unknown[x]) - col_lo)
                    if (new_lo, new_hi) != (lo[h][x], hi[h][x]):
                        lo[h][x], hi[h][x], changed = new_lo, new_hi, True
        certain: dict[str, list[str]] = {}
        counts: dict[str, dict[str, int]] = {}
        for s in seats:
            k = key(s)
            cards = [c for x in SUITS if unknown[x] and lo[k][x] == len(unknown[x]) for c in unknown[x]]
            if cards:
                certain[k] = cards
            exact = {
                x: lo[k][x] + sum(1 for c in shown.get(k, []) if suit(c) == x)
                for x in SUITS
                if lo[k][x] == hi[k][x]
            }
            if exact:
                counts[k] = exact
        return certain, counts

    def view(self, d: State, visible: frozenset[int], carte_viste: bool) -> dict[str, Any]:
        """The common trick view plus accusi, declarations and the viewer's pending declaration.

        With carte viste also ``inferred`` (cards certainly in another hand, to be highlighted)
        and ``suit_counts`` (cards of a suit another hand certainly holds), see ``known_holdings``.
        """
        v = super().view(d, visible, carte_viste)
        if carte_viste and not d["over"]:
            certain, counts = self.known_holdings(d, visible)
            if certain:
                v["inferred"] = certain
            if counts:
                v["suit_counts"] = counts
        v["accusi"] = {k: list(c) for k, c in d["accusi"].items() if c}
        v["declarations"] = [dict(r) for r in d["declarations"]]
        pending = {key(p): dict(d["pending"][key(p)]) for p in sorted(visible) if key(p) in d["pending"]}
        if pending:
            v["pending_declarations"] = pending
        return v


DEAL = TresetteDeal()
