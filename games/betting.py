"""Pots, side pots, bet limits and settlement shared by the giochi a puntate (Poker 5 carte, Telesina).

The betting state ``b`` is plain JSON data kept inside a game's state (string seat keys, ints):

* ``order``: the seats dealt in, clockwise from the dealer's left (RULINGS G2) — the order used
  for odd chips (G1);
* ``stack``: chips behind per seat; ``total``: chips put in this hand; ``round``: chips put in the
  current betting round; ``dead``: chips in the pot that belong to no seat of this hand (a pot
  carried from an earlier hand);
* ``folded``: seats out of the hand; ``acted``: seats that acted since the last bet or raise;
  ``current``: the highest ``round`` contribution; ``closed``: raising is closed for the rest of
  the round (RULINGS P6); ``aggressor``: last seat that bet or raised this round.

Amounts in actions are the chips a seat puts in with that action (the number in the table's box,
rules "NB.2"), never the level reached. A seat with ``stack == 0`` that has not folded is all-in.

Limits (RULINGS P6): minimum bet = ``min_bet`` (the invito, or the pot in a parol hand); a raise
must reach at least the current bet + ``increment`` (the invito) unless it is all-in ("RESTO");
pot limit: at most pot + bets of this round + the amount to call (the rules' 100+20+20+20 = 160);
fixed limit: exactly ``min_bet`` for a bet and call + ``increment`` for a raise. A raise that
leaves the level below double the current bet closes raising: the others may only call or fold.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

Betting = dict[str, Any]
Pot = dict[str, Any]

NL, PL, FL = "NL", "PL", "FL"
LIMITS = (NL, PL, FL)


# The seat numbers a hand may use (``games.poker_common.check_seats`` refuses any other): a table
# has at most ten seats, numbered from 0 or 1.
SEATS = range(100)

# ``str(seat)`` made once per seat number, for loops over a hand's seats (``order``, ints):
# ``SEAT_KEY[s]`` finds the same string object again where ``str(s)`` would build a new one and
# hash it for the dict lookup, a sizeable share of a betting action (the engines' hot loops). A
# plain dict, filled once: lookups in an exact dict are the interpreter's fast path (a subclass
# with ``__missing__`` cost 3.7 % of a Poker 5 carte hand). A seat number outside ``SEATS`` is
# not in it: KeyError, as its missing stack would raise. Seats from outside (an action's) are
# type-checked first where they arrive, since ``SEAT_KEY[True]`` is "1" where str() gives "True".
SEAT_KEY: dict[int, str] = {s: str(s) for s in SEATS}


class BettingError(ValueError):
    """An operation the betting state does not allow (engines validate before calling)."""


def new_betting(order: list[int], stacks: dict[int, int], dead: int = 0) -> Betting:
    """Start the betting of a hand for these seats (clockwise from the dealer's left, in ``SEATS``)."""
    keys = [SEAT_KEY[s] for s in order]
    stack = {}
    for k, s in zip(keys, order, strict=True):  # int() only where it changes something (hot)
        v = stacks[s]
        stack[k] = v if type(v) is int else int(v)
    return {
        "order": list(order),
        "stack": stack,
        "total": dict.fromkeys(keys, 0),
        "round": dict.fromkeys(keys, 0),
        "dead": dead,
        "folded": [],
        "acted": [],
        "current": 0,
        "closed": False,
        "aggressor": None,
    }


def pot_total(b: Betting) -> int:
    """Every chip in the middle: all contributions of this hand plus the dead money."""
    total: int = sum(b["total"].values()) + b["dead"]
    return total


def in_hand(b: Betting) -> list[int]:
    """Seats that have not folded, in order."""
    folded = b["folded"]
    return [s for s in b["order"] if s not in folded]


def is_allin(b: Betting, seat: int) -> bool:
    """Tell whether a seat still in the hand has no chips behind."""
    return seat not in b["folded"] and b["stack"][str(seat)] == 0


def can_bet(b: Betting) -> list[int]:
    """Seats still in the hand with chips behind (the ones who may still put chips in)."""
    folded, stack = b["folded"], b["stack"]
    return [s for s in b["order"] if s not in folded and stack[SEAT_KEY[s]] > 0]


def post(b: Betting, seat: int, amount: int, *, live: bool = False) -> int:
    """Move up to ``amount`` from a seat's stack to the pot; ``live`` counts it as a bet of the round."""
    k = SEAT_KEY[seat]  # a seat of the hand (an int: the engines check an action's seat)
    if live:
        return _post_live(b, k, amount)
    stack = b["stack"][k]
    paid: int = amount if amount < stack else stack
    b["stack"][k] -= paid
    b["total"][k] += paid
    return paid


def options(
    b: Betting, seat: int, *, limit: str, min_bet: int, increment: int, reopen: bool = False
) -> dict[str, Any]:
    """Return what a seat may do: ``check``/``call`` (amount or None), ``bet``/``raise`` ([lo, hi] or None).

    A range ``[stack, stack]`` below the normal minimum is the all-in ("RESTO") allowed by P6.
    ``reopen`` ignores a closed round (the blind raiser's right to raise, RULINGS P7).
    """
    check, call, kind, lo, hi = ranges(b, seat, limit, min_bet, increment, reopen)
    out: dict[str, Any] = {"check": check, "call": call, "bet": None, "raise": None}
    if kind is not None:
        out[kind] = [lo, hi]
    return out


# What ``ranges`` returns: (check, call, kind, lo, hi); kind "bet", "raise" or None (lo = hi = 0).
Ranges = tuple[bool, int | None, str | None, int, int]


def ranges(b: Betting, seat: int, limit: str, min_bet: int, increment: int, reopen: bool = False) -> Ranges:
    """``options`` as a tuple: whether the seat may check, the call, and its bet or raise range.

    The engines' hot paths read this (asked twice per betting action, for the list and the check)
    without the dict and lists of ``options``; ``kind`` says which of bet and raise the range is.
    """
    # the made-once key of an int seat (the engines pass their checked seats); str() otherwise,
    # so that a non-int seat (True == 1) still finds no key, as before
    k = SEAT_KEY[seat] if type(seat) is int else str(seat)
    stacks = b["stack"]
    stack = stacks[k]
    current = b["current"]
    owed = current - b["round"][k]
    # conditional expressions rather than min()/max() calls and no helper calls (hot path)
    check = owed <= 0
    call = (owed if owed < stack else stack) if owed > 0 else None
    if stack <= (owed if owed > 0 else 0):
        return check, call, None, 0, 0
    folded = b["folded"]
    for s in b["order"]:
        if s != seat and s not in folded and stacks[SEAT_KEY[s]] > 0:
            break
    else:
        return check, call, None, 0, 0  # nobody else could answer a bet
    if current == 0:
        lo = min_bet
        hi = (
            stack
            if limit == NL
            else pot_total(b)
            if limit == PL
            else lo
            if limit == FL
            else _bad_limit(limit)
        )
        kind = "bet"
    elif reopen or not b["closed"]:
        lo = owed + increment
        hi = (
            stack
            if limit == NL
            else pot_total(b) + owed
            if limit == PL
            else lo
            if limit == FL
            else _bad_limit(limit)
        )
        kind = "raise"
    else:
        return check, call, None, 0, 0
    # the range [lo, max(hi, lo)] within the stack; all-in for less (RESTO) below the minimum
    if stack < lo:
        return check, call, kind, stack, stack
    return check, call, kind, lo, (hi if hi < stack else stack) if hi > lo else lo


def _bad_limit(limit: str) -> int:
    raise KeyError(limit)  # what the former {NL: ..., PL: ..., FL: ...}[limit] raised


def act(b: Betting, seat: int, kind: str, amount: int = 0) -> None:
    """Apply a validated ``fold``, ``check``, ``call``, ``bet`` or ``raise`` (amount = chips put in)."""
    k = SEAT_KEY[seat]  # a seat of the hand (an int: the engines check an action's seat)
    if kind == "fold":
        b["folded"].append(seat)
    elif kind == "check":
        if b["round"][k] < b["current"]:
            raise BettingError("check facing a bet")
    elif kind == "call":
        _post_live(b, k, b["current"] - b["round"][k])
    elif kind in ("bet", "raise"):
        if amount > b["stack"][k] or amount <= b["current"] - b["round"][k]:
            raise BettingError("bet out of range")
        before = b["current"]
        _post_live(b, k, amount)
        if kind == "raise" and b["current"] < 2 * before:
            b["closed"] = True  # RULINGS P6: a raise below double the bet closes raising
        b["acted"] = []
        b["aggressor"] = seat
    else:
        raise BettingError(f"unknown betting action {kind!r}")
    acted = b["acted"]
    if seat not in acted:
        acted.append(seat)


def _post_live(b: Betting, k: str, amount: int) -> int:
    """Move up to ``amount`` from seat key ``k``'s stack to the pot as a bet of the round; return it."""
    stack, rnd = b["stack"], b["round"]
    have = stack[k]
    paid = amount if amount < have else have
    stack[k] = have - paid
    b["total"][k] += paid
    put = rnd[k] + paid
    rnd[k] = put
    if put > b["current"]:
        b["current"] = put
    return paid


def needs_action(b: Betting, seat: int, bettors: int | None = None) -> bool:
    """Tell whether this seat must still speak in the current round (``bettors``: len(can_bet(b)))."""
    if seat in b["folded"]:
        return False
    k = str(seat)
    if b["stack"][k] == 0:
        return False
    behind = b["round"][k] < b["current"]
    if bettors is None:
        bettors = len(can_bet(b))
    if bettors <= 1 and not behind:
        return False  # nobody left to bet against
    return behind or seat not in b["acted"]


def next_to_act_from(b: Betting, start: int, inclusive: bool = False) -> int | None:
    """The first seat that must still speak (``needs_action``) going round ``order`` from ``start``
    (a seat of ``order``, itself first when ``inclusive``, else not at all); None if one seat is left.

    The same as ``next((s for s in ring if needs_action(b, s)), None)`` over that ring when two or
    more seats are in the hand, in one pass and without building the ring (the engines' hot path).

    The engines pass the word with it after every betting action: the seats are read from
    ``order`` by index (``order[j - n]`` for j in [0, 2n) is ``order[j % n]``), so no list is made.
    """
    order: list[int] = b["order"]
    folded, stack = b["folded"], b["stack"]
    n = len(order)
    # two seats or more in the hand: sure when fewer than n - 1 entries are folded (``folded`` can
    # only hold fewer distinct seats of ``order`` than entries); else counted
    if len(folded) > n - 2:
        live = 0
        for s in order:
            if s not in folded:
                live += 1
        if live <= 1:
            return None
    rnd, current, acted = b["round"], b["current"], b["acted"]
    bettors = 0  # seats in the hand with chips, counted up to 2 when first needed
    i = order.index(start)
    for j in range(i, i + n) if inclusive else range(i + 1, i + n):
        s = order[j - n]
        if s in folded:
            continue
        k = SEAT_KEY[s]  # seats of the hand
        if stack[k] == 0:
            continue
        if rnd[k] < current:
            return s
        if s not in acted:
            if not bettors:
                for t in order:
                    if t not in folded and stack[SEAT_KEY[t]] > 0:
                        bettors += 1
                        if bettors == 2:
                            break  # enough to know: more than one bettor
            if bettors > 1:
                return s
    return None


def round_complete(b: Betting) -> bool:
    """Tell whether the round is over (one seat left, or everyone able to act has acted and matched)."""
    if len(in_hand(b)) <= 1:
        return True
    bettors = len(can_bet(b))
    return not any(needs_action(b, s, bettors) for s in b["order"])


def new_round(b: Betting) -> None:
    """Start a new betting round."""
    for k in b["round"]:
        b["round"][k] = 0
    b["acted"] = []
    b["current"] = 0
    b["closed"] = False
    b["aggressor"] = None


def return_uncalled(b: Betting) -> tuple[int, int] | None:
    """Give back the part of the top contribution nobody matched; return (seat, amount) or None."""
    totals = sorted([(v, int(k)) for k, v in b["total"].items()], reverse=True)
    if len(totals) < 2 or totals[0][0] == totals[1][0]:
        return None
    (top, seat), second = totals[0], totals[1][0]
    back = top - second
    k = str(seat)
    b["total"][k] -= back
    b["round"][k] = max(0, b["round"][k] - back)
    b["stack"][k] += back
    b["current"] = max(b["round"].values())
    return seat, back


def pots(b: Betting) -> list[Pot]:
    """Build the main pot and the side pots from the all-in levels: [{"amount", "eligible"}], main first.

    Folded seats' chips stay in the pots they reached but give no right to them; the dead money
    goes to the main pot.
    """
    total, stack, folded = b["total"], b["stack"], b["folded"]
    live = [(s, total[SEAT_KEY[s]]) for s in b["order"] if s not in folded]  # (seat, put in), in order
    levels = sorted({t for s, t in live if stack[SEAT_KEY[s]] == 0})
    top = max([t for _, t in live], default=0)  # lists, not generators, here: faster
    if not levels or levels[-1] < top:
        levels.append(top)
    put_in = list(total.values())
    out: list[Pot] = []
    prev = 0
    last = len(levels) - 1
    for i, cap in enumerate(levels):
        # each contribution's slice between the previous level and this one (all of it above
        # the previous level for the last pot); levels grow, so min(v, cap) > prev when v > prev
        if i == last:
            amount = sum([v - prev for v in put_in if v > prev])
        else:
            amount = sum([min(v, cap) - prev for v in put_in if v > prev])
        eligible = [s for s, t in live if t >= cap]
        if i == 0:
            amount += b["dead"]
        prev = cap
        if amount == 0:
            continue
        if not eligible and out:
            out[-1]["amount"] += amount
            continue
        out.append({"amount": amount, "eligible": eligible})
    return out


def split(amount: int, winners: Iterable[int], order: list[int]) -> dict[str, int]:
    """Share a pot: floor share each, the odd chips one at a time from the dealer's left (RULINGS G1)."""
    winning = set(winners)
    ws = [s for s in order if s in winning]
    if not ws:
        raise BettingError("a pot needs at least one winner")
    share, rest = divmod(amount, len(ws))
    # str(): the banking games share with it too, and their seat numbers need not be in SEATS
    out = {str(s): share for s in ws}
    for s in ws[:rest]:
        out[str(s)] += 1
    return out


def rake_per_pot(amounts: list[int], percent_bp: int, cap: int | None) -> list[int]:
    """Rake each awarded pot: floor(pot × %), the hand's cap used up from the main pot first (P12)."""
    out = []
    left = cap
    for amount in amounts:
        r = amount * percent_bp // 10_000
        if left is not None:
            r = min(r, left)
            left -= r
        out.append(r)
    return out


def settle(
    b: Betting,
    winners_of: Callable[[list[int]], list[int]],
    *,
    rake_bp: int = 0,
    rake_cap: int | None = None,
    built: list[Pot] | None = None,
) -> list[Pot]:
    """Return uncalled chips, then award every pot to ``winners_of(eligible)`` less rake; chips go to stacks.

    Returns the pots with ``amount``, ``eligible``, ``rake``, ``winners`` and ``shares``; afterwards
    the hand's contributions and dead money are zero (everything is back in the stacks or raked).
    ``built``: what ``pots(b)`` gave once the uncalled chips went back, nothing moved since (a
    showdown's preview); used as the pots (and completed in place) instead of building them again.
    """
    if built is None:
        return_uncalled(b)
        result = pots(b)
    else:
        result = built
    rakes = rake_per_pot([p["amount"] for p in result], rake_bp, rake_cap)
    for pot, r in zip(result, rakes, strict=True):
        winners = winners_of(list(pot["eligible"]))
        pot["rake"] = r
        pot["winners"] = [s for s in b["order"] if s in winners]
        pot["shares"] = split(pot["amount"] - r, winners, b["order"])
        for k, v in pot["shares"].items():
            b["stack"][k] += v
    for k in b["total"]:
        b["total"][k] = 0
        b["round"][k] = 0
    b["dead"] = 0
    b["current"] = 0
    return result
