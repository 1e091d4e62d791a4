"""Set-up of a Micro City game (rulebook "SETTING UP THE GAME" and each variant's set-up)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mobadj.cards.microcity.board import build_city
from mobadj.cards.microcity.modes import first_building, parse_options

if TYPE_CHECKING:
    from mobadj.cards.microcity.engine import MicroCityState

_CITIES: dict[tuple[Any, ...], Any] = {}


def setup(st: MicroCityState) -> None:
    """Rulebook "SETTING UP THE GAME" (and the variants' set-ups)."""
    from mobadj.cards.microcity.engine import _DECK

    deck = st.deck = _DECK
    rng = st.rng
    cfg = st.cfg = parse_options(st.options, st.players, deck, rng.choice)
    # 1. four random District cards, A side up; expansions replace random basic ones
    chosen = rng.sample(list(deck.districts), 4)
    replace = rng.sample(range(4), 2)
    if "logistics" in cfg.expansions:
        chosen[replace[0]] = rng.choice(deck.logistics_districts)
    if "garden" in cfg.expansions:
        chosen[replace[1]] = deck.garden_district
    rng.shuffle(chosen)
    garden_at = chosen.index(deck.garden_district) if "garden" in cfg.expansions else None
    seaports = deck.seaports if "seaport" in cfg.expansions else ()
    key = (tuple(d.id for d in chosen), garden_at, bool(seaports))
    if key not in _CITIES:  # the layout is immutable: games with the same one share it
        _CITIES[key] = build_city(tuple(chosen), garden_at, seaports)
    st.city = _CITIES[key]
    st.sides = ["A"] * 6
    st.inv = [-1] * 18
    n = st.players
    if cfg.competitive:
        # competitive set-up 5: the second player starts without money
        st.res = [[0, 0, 0, 2], [0, 0, 0, 0]]
        st.pools = [deck.competitive["markers"]] * 2
    else:
        st.res = [[0, 0, 0, 2] for _ in range(n)]  # "starting values 0, 0, 0 and 2"
        st.pools = [8]  # "8 red Investment markers"
    st.engineer = [-1] * n
    st.dice, st.used, st.die_owner = [], [], []
    cards = [p.id for p in deck.projects]
    if cfg.xcard:
        cards.append(deck.x_project.id)
    st.hands = [list(cards) for _ in range(2 if cfg.competitive else 1)]
    st.discards = [[] for _ in st.hands]
    st.building = first_building(cfg, deck)
    st.building_side = cfg.side
    st.stage_marks = [-1] * (len(st.building.stages) if st.building else 0)
    st.contract_marks = [-1] * (2 * len(seaports))
    st.contract_pool = deck.seaport_markers if seaports and not cfg.competitive else 0
    st.goals, st.goal_marks, st.adv_row, st.adv_deck = [], [], [], []
    st.adv_taken = [[] for _ in range(n)]
    st.claimed = False
    st.vp = [0] * n
    if cfg.competitive:
        st.goals = sorted(rng.sample(range(len(deck.goals)), deck.competitive["goals_in_play"]))
        st.goal_marks = [[-1] * len(deck.goals[g]) for g in st.goals]
        ids = [a.id for a in deck.advantages]
        rng.shuffle(ids)
        k = deck.competitive["advantages_in_play"]
        st.adv_row, st.adv_deck = ids[:k], ids[k:]
    st.time = cfg.rounds
    st.turn = 0
    st.result = None
    st.pending = None
    st.in_play = None
    st.step = "start"
    st.current = 1 if cfg.competitive else 0  # competitive: the second player places first
    st.__dict__["_cache"] = None
    names = ", ".join(d.name for d in chosen)
    st.log(f"Micro City, {describe(st)}; the city: {names}; Time marker on {st.time}")


def describe(st: MicroCityState) -> str:
    cfg = st.cfg
    who = "competitive" if cfg.competitive else ("cooperative" if cfg.coop else "solo")
    parts = [f"{who} {cfg.mode if not cfg.competitive else ''}".strip()]
    if not cfg.competitive:
        parts.append(cfg.difficulty)
        parts.append(
            f"building {st.building.name}" if st.building else ""
        )
    if cfg.expansions:
        parts.append("with " + ", ".join(sorted(cfg.expansions)))
    return ", ".join(p for p in parts if p)
