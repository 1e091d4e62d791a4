"""micro mob's hot paths: the deck as plain int tables, and the listing of legal takes.

Random playouts (``--simulate``) spend most of their time listing legal actions, so the
deck's numbers are read once from the YAML into dicts of ints and tuples, and the listing
works on those.  Actions are immutable values, so each distinct one-goon take is built
once and shared (like ``PAYROLL``); the others are built without the frozen-dataclass
``__init__``.

The order of every list here is part of the game's behaviour (random playouts pick by
index), and the golden test (tests/cards/micromob/test_mm_golden.py) holds it fixed.
"""

from __future__ import annotations

from bisect import bisect_left

from mobadj.cards.micromob.actions import KINDS, Done, Pass, Payroll, Take, Use
from mobadj.cards.micromob.cards import POWER_NAME, SPECIAL_ABILITIES, load_deck

KIND_INDEX = {"hit": 0, "hire": 1, "ally": 2}

_DECK = load_deck()
_CARDS = _DECK.cards.values()
GOON_VALUES = {c.id: (c.goon_hit, c.goon_money, c.goon_ally) for c in _CARDS}
BOSS_VALUES = {c.id: (c.boss_hit, c.boss_hire, c.boss_ally) for c in _CARDS}
GOON_TEXT = {c.id: f"{c.id} ({c.goon_hit}/{c.goon_money}/{c.goon_ally})" for c in _CARDS}
BOSS_TEXT = {c.id: f"{c.id} ({c.boss_hit}/{c.boss_hire}/{c.boss_ally} {c.colour})" for c in _CARDS}
POWER = {c.id: c.power for c in _CARDS}
POWER_WORDS = {c.id: POWER_NAME[c.power] for c in _CARDS}
PAYROLL, DONE, PASS = Payroll(), Done(), Pass()  # immutable: one of each is enough
# cards by power group, for quick "has none of these" checks
_BY_GROUP = {
    group: frozenset(c.id for c in _CARDS if c.power in powers)
    for group, powers in (
        ("stat", ("hit_plus", "hire_plus", "ally_plus", "action_plus")),
        ("special", SPECIAL_ABILITIES),
        ("bonus", ("extra_hit", "extra_hire", "extra_ally", "extra_action")),
    )
}
STAT_CARDS, SPECIAL_CARDS = _BY_GROUP["stat"], _BY_GROUP["special"]
BONUS_CARDS = _BY_GROUP["bonus"]
GOON_BY_KIND = [{cid: v[k] for cid, v in GOON_VALUES.items()} for k in range(3)]
BOSS_BY_KIND = [{cid: v[k] for cid, v in BOSS_VALUES.items()} for k in range(3)]
# per kind, an int that orders bosses like (threshold, id): cheapest first, ties by id
_ID_RANK = {cid: i for i, cid in enumerate(sorted(BOSS_VALUES))}
BOSS_ORDER = [
    {cid: v[k] * len(_ID_RANK) + _ID_RANK[cid] for cid, v in BOSS_VALUES.items()} for k in range(3)
]
# stat bonus an ally card gives to (hit, hire, ally)
STAT_BONUS = {
    c.id: tuple(int(c.power in (kind + "_plus", "action_plus")) for kind in KINDS)
    for c in _CARDS
}
NO_BONUS = (0, 0, 0)
# Take.fast without its call, for the hot loop of ``takes``
_new = object.__new__
_set_kind = Take.__dict__["kind"].__set__  # the slot's own setter
_set_target = Take.__dict__["target"].__set__  # the slot's own setter
_set_goons = Take.__dict__["goons"].__set__  # the slot's own setter
# each one-goon Take, built once: [kind][target][goon] (payments of several goons are too
# many to keep)
_TAKES: list[dict[str, dict[str, Take]]] = [{cid: {} for cid in BOSS_VALUES} for _ in KINDS]


def thrifty(vals: list[int], ids: list[str], total: int, need: int) -> tuple[str, ...] | None:
    """Goons (``vals`` ascending, same order as ``ids``) reaching ``need``, or None.

    Greedy: the smallest goon that covers what is left, else the largest, again; at least
    one goon (the weakest) even when bonuses already cover the need.
    """
    if not ids:
        return None
    if need <= 0:
        return (ids[0],)
    if total < need:
        return None
    hi = len(vals)
    i = bisect_left(vals, need)
    if i < hi:
        return (ids[i],)
    chosen: list[str] = []
    while True:
        hi -= 1
        chosen.append(ids[hi])
        need -= vals[hi]
        if need <= 0:
            return tuple(chosen)
        i = bisect_left(vals, need, 0, hi)
        if i < hi:
            chosen.append(ids[i])
            return tuple(chosen)


def stat_bonuses(allies: list[str]) -> tuple[int, ...]:
    """(hit, hire, ally) stat bonuses of an ally area (rulebook, "stat bonuses")."""
    if STAT_CARDS.isdisjoint(allies):
        return NO_BONUS
    h = m = a = 0
    for cid in allies:
        bh, bm, ba = STAT_BONUS[cid]
        h += bh
        m += bm
        a += ba
    return (h, m, a)


def city_by_cost(city: list[str]) -> list[list[str]]:
    """The city's ids per kind, cheapest first (ties: by id)."""
    return [sorted(city, key=order.__getitem__) for order in BOSS_ORDER]


def takes(
    hand: list[str], bonuses: tuple[int, ...], by_cost: list[list[str]],
    kinds: tuple[int, ...],
) -> list[Take]:
    """One Take per affordable (kind, city boss), in kind order then cheapest boss first,
    each paid by the :func:`thrifty` payment from ``hand`` (inlined here: a hot loop)."""
    out: list[Take] = []
    n = len(hand)
    if not n:
        return out
    append = out.append
    for k in kinds:
        costs = by_cost[k]
        if not costs:
            continue
        bonus = bonuses[k]
        value = GOON_BY_KIND[k]
        cost = BOSS_BY_KIND[k]
        cache = _TAKES[k]
        kind = KINDS[k]
        if n == 1:
            goon = hand[0]
            top = value[goon] + bonus
            for target in costs:
                if cost[target] > top:
                    break
                t = cache[target].get(goon)
                if t is None:
                    t = cache[target][goon] = Take.fast(kind, target, (goon,))
                append(t)
            continue
        if n == 2:  # a stable sort of two, by hand
            a, b = hand
            va, vb = value[a], value[b]
            if vb < va:
                ids, vals = [b, a], [vb, va]
            else:
                ids, vals = [a, b], [va, vb]
            total = va + vb
        else:
            vals = list(map(value.__getitem__, hand))
            total = sum(vals)
            if cost[costs[0]] - bonus > total:
                continue  # not even the cheapest boss is affordable
            ids = sorted(hand, key=value.__getitem__)
            vals.sort()
        top = vals[-1]
        last = n - 1
        for target in costs:
            need = cost[target] - bonus
            if need > total:
                break
            if need <= top:
                goon = ids[bisect_left(vals, need)] if need > 0 else ids[0]
                t = cache[target].get(goon)
                if t is None:
                    t = cache[target][goon] = Take.fast(kind, target, (goon,))
                append(t)
                continue
            # mostly the strongest goon and the smallest one that covers the rest
            i = bisect_left(vals, need - top, 0, last)
            pay = (ids[last], ids[i]) if i < last else thrifty(vals, ids, total, need)
            t = _new(Take)
            _set_kind(t, kind)
            _set_target(t, target)
            _set_goons(t, pay)
            append(t)
    return out


def abilities(
    allies: list[str], used: set[str], fatigue: list[str], hand: list[str], city: list[str],
    pile: list[str], city_most: int | None,
) -> list[Use]:
    """Every use of an unused special ability, each with each target (ally area order);
    ``expand`` only while the pile has a card and the city holds fewer than ``city_most``
    (None: no limit)."""
    out: list[Use] = []
    use = Use.fast
    for a in allies:
        if a not in SPECIAL_CARDS or a in used:
            continue
        power = POWER[a]
        if power in ("fatigue_to_hit", "rest"):
            out.extend(use(a, g, None) for g in fatigue)
        elif power in ("ally_to_hit", "ally_to_hand"):
            out.extend(use(a, t, None) for t in allies)
        elif power == "expand":
            if pile and (city_most is None or len(city) < city_most):
                out.append(use(a, None, None))
        else:  # swap
            out.extend(use(a, c, g) for c in city for g in hand)
    return out
