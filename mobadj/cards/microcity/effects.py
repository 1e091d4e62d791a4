"""Card effects: every way to carry one out now, as (argument words, operations).

An effect (a YAML mapping, vocabulary in the data file) is expanded into its *options*:
the words a player writes after ``basic``/``advanced`` (e.g. ``coal for steel wood``) and
the primitive operations that option performs.  Legal commands are exactly these options,
so a listed action always applies, and applying one is running its operations.

Costs are checked against the resources held *before* the effect ("You cannot perform an
action if you are unable to cover its cost even if that action would have given you the
necessary Resources").
"""

from __future__ import annotations

from itertools import combinations, combinations_with_replacement, product
from typing import TYPE_CHECKING, Any

from mobadj.cards.microcity.board import CELL_NAMES, POSITIONS
from mobadj.cards.microcity.cards import MATERIALS, RES_INDEX, Effect

if TYPE_CHECKING:
    from mobadj.cards.microcity.engine import MicroCityState

Op = tuple[Any, ...]
Option = tuple[tuple[str, ...], list[Op]]

ALL_BUILDS = ("stage", "goal", "contract")


def _gain_ops(player: int, gains: dict[str, int]) -> list[Op]:
    return [("gain", player, RES_INDEX[r], n) for r, n in gains.items() if n]


def _material_combos(n: int) -> list[tuple[str, ...]]:
    return list(combinations_with_replacement(MATERIALS, n))


def options(
    st: MicroCityState,
    player: int,
    eff: Effect,
    *,
    used_die: int | None = None,
    builds: tuple[str, ...] = ALL_BUILDS,
) -> list[Option]:
    """Every way ``player`` can carry out ``eff`` now ([] when it cannot be done at all).

    ``used_die`` is the die spent on this advanced action (it cannot also be changed).
    """
    ((kind, arg),) = eff.items()
    res = st.res[player]
    if kind == "gain":
        return [((), _gain_ops(player, arg))]
    if kind == "gain_material":
        return [(c, [("gain", player, RES_INDEX[m], 1) for m in c]) for c in _material_combos(arg)]
    if kind == "exchange":  # give 1 Material, get `get` Materials of other types
        out: list[Option] = []
        for m in MATERIALS:
            if res[RES_INDEX[m]] < arg["give"]:
                continue
            others = tuple(x for x in MATERIALS if x != m)
            for c in combinations_with_replacement(others, arg["get"]):
                ops = [("pay", player, RES_INDEX[m], arg["give"])]
                ops += [("gain", player, RES_INDEX[x], 1) for x in c]
                out.append(((m, "for", *c), ops))
        return out
    if kind == "buy":  # pay money, get Materials of the player's choice
        if res[3] < arg["money"]:
            return []
        return [
            (c, [("pay", player, 3, arg["money"])] + [("gain", player, RES_INDEX[x], 1) for x in c])
            for c in _material_combos(arg["get"])
        ]
    if kind == "sell":
        return [
            ((m,), [("pay", player, RES_INDEX[m], arg["material"]),
                    ("gain", player, 3, arg["money"])])
            for m in MATERIALS
            if res[RES_INDEX[m]] >= arg["material"]
        ]
    if kind == "remove_investment":
        areas = st.removable_areas(player)
        k = min(arg, len(areas))
        if k == 0:
            return []
        return [
            (tuple(a for a, _ in combo), [("unmark", op) for _, op in combo])
            for combo in combinations(areas, k)
        ]
    if kind == "change_die":
        return [
            ((f"die{i + 1}", word), [("die", i, (st.dice[i] + delta - 1) % 6 + 1)])
            for i in st.changeable_dice(player)
            if i != used_die
            for word, delta in (("up", 1), ("down", -1))
        ]
    if kind == "set_die":
        return [
            ((f"die{i + 1}", str(v)), [("die", i, v)])
            for i in st.changeable_dice(player)
            if i != used_die
            for v in range(1, 7)
            if v != st.dice[i]
        ]
    if kind == "upgrade_here":
        pos = st.position_of_engineer(player)
        if pos is None or st.sides[pos] != "A":
            return []
        return [((), [("upgrade", pos)])]
    if kind == "upgrade_any":
        return [
            ((st.position_name(p),), [("upgrade", p)])
            for p in range(len(st.sides))
            if st.sides[p] == "A" and st.position_exists(p)
        ]
    if kind == "build":
        return st.build_options(player, builds)
    if kind == "retrieve_projects":
        return [((), [("retrieve_all", st.hand_owner(player))])]
    if kind == "retrieve_project":
        pile = st.discards[st.hand_owner(player)]
        if not pile:
            return [((), [])]
        return [((c,), [("retrieve", st.hand_owner(player), c)]) for c in sorted(set(pile))]
    if kind == "give_material":
        partner = 1 - player
        return [
            (c, [("pay", player, RES_INDEX[m], 1) for m in c] + [
                ("gain", partner, RES_INDEX[m], 1) for m in c])
            for c in _material_combos(arg)
            if all(res[RES_INDEX[m]] >= c.count(m) for m in set(c))
        ]
    if kind == "all":  # a removal finds fewer markers than it names: it removes those (ruling 5)
        parts = [options(st, player, e, used_die=used_die, builds=builds)
                 or ([((), [])] if "remove_investment" in e else []) for e in arg]
        done = combine(parts)
        return done if any(ops for _, ops in done) else []
    if kind == "each":  # every part that can be done (the competitive die-2 rule)
        parts = [options(st, player, e, used_die=used_die, builds=builds) for e in arg]
        return combine([p or [((), [])] for p in parts])
    if kind == "either":
        out = []
        for e in arg:
            out.extend(options(st, player, e, used_die=used_die, builds=builds))
        return out
    raise ValueError(f"unknown effect '{kind}' in card data")


def combine(parts: list[list[Option]]) -> list[Option]:
    """Options of doing every part in order (each part must be possible)."""
    if any(not p for p in parts):
        return []
    out: list[Option] = []
    for combo in product(*parts):
        words: tuple[str, ...] = ()
        ops: list[Op] = []
        for w, o in combo:
            words += w
            ops += o
        out.append((words, ops))
    return out  # authored "all" effects pay in at most one part, so each part's check holds


def area_name(area: Op) -> str:
    """The word for an Investment area: a Quarter (b2), a Goal area (g1.2), a Contract (s1.1)."""
    if area[0] == "cell":
        return CELL_NAMES[area[1]]
    if area[0] == "goal":
        return f"g{area[1] + 1}.{area[2] + 1}"
    if area[0] == "contract":
        return f"s{area[1] // 2 + 1}.{area[1] % 2 + 1}"
    return f"stage{area[1] + 1}"  # a Building stage


def position_word(pos: int) -> str:
    return POSITIONS[pos] if pos < 4 else f"s{pos - 3}"
