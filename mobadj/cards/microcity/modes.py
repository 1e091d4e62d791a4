"""Game options: mode, difficulty, Building, expansions; checked once at set-up.

Options (``--option key=value``):

- ``mode``: basic (default), extended, challenge, competitive.  With 2 players the first
  three are played as the cooperative variant; competitive needs 2 players.
- ``difficulty``: easy, medium, hard (defaults: easy, or medium for basic side B).
- ``side``: A or B, the basic Building card's side (basic mode only).
- ``building``: a challenge Building id (challenge mode; default the first, ``random`` draws).
- ``expansions``: comma list of logistics, seaport, garden (any combination).
- ``xcard``: true adds the cooperative X Project card.
- ``stage_markers``: fixed (default: a completed stage keeps its marker, rulebook "GOAL
  CARDS": "Unlike in the case of Building cards, Investment marker on Goal cards can be
  placed and removed repeatedly"), or removable (rulings 2: "any area", rulebook "PROJECT
  CARDS", includes Building stages, which are then built again).
- ``seaport_upgrade``: keep (default: in the competitive mode the markers of an upgraded
  Seaport are "placed back on the same Contract spot", rulebook "SEAPORT EXPANSION", so
  they stay), or return (rulings 2: they go back to their owners' pools and the Contracts
  may be completed again).
- ``unused_options``: refuse (default: an option the mode does not use, such as ``side``
  outside the basic mode, is refused), or ignore (rulings 1 and 2 dropped it silently).
- ``goals``: residential (default: in the competitive mode a Goal is completed only by a
  residential Quarter's advanced action, rulebook "GOAL CARDS"), or architect (rulings 1
  and 2: the Architect's advanced action completes a Goal from any Quarter as well).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Any

from mobadj.cards.microcity.cards import BuildingSide, Deck
from mobadj.cards.protocol import IllegalAction

MODES = ("basic", "extended", "challenge", "competitive")
DIFFICULTIES = ("easy", "medium", "hard")
EXPANSIONS = ("logistics", "seaport", "garden")
KNOWN_OPTIONS = ("mode", "difficulty", "side", "building", "expansions", "xcard",
                 "stage_markers", "seaport_upgrade", "goals", "unused_options")
STAGE_MARKERS = ("fixed", "removable")
SEAPORT_UPGRADES = ("keep", "return")
GOALS = ("residential", "architect")
UNUSED_OPTIONS = ("refuse", "ignore")


@dataclass(frozen=True, slots=True)
class Config:
    """The checked options of one game."""

    mode: str
    coop: bool
    competitive: bool
    difficulty: str
    side: str  # basic Building side ("A" for extended: it starts on A)
    building: str  # "basic" or a challenge id
    expansions: frozenset[str]
    xcard: bool
    rounds: int  # the Time marker's starting spot
    stage_markers: str = "fixed"  # may "remove ... from any area" take a stage's marker
    seaport_upgrade: str = "keep"  # competitive: "return" empties an upgraded Seaport
    goals: str = "residential"  # competitive: "architect" also completes Goals anywhere


def _choice(key: str, value: Any, allowed: tuple[str, ...]) -> str:
    text = str(value).strip().lower()
    if text not in allowed:
        close = difflib.get_close_matches(text, allowed, n=1)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        raise IllegalAction(
            f"option {key}={value} is not known; expected one of {', '.join(allowed)}{hint}"
        )
    return text


def _flag(key: str, value: Any) -> bool:
    """A yes/no option given as a boolean or as text (mail options are text)."""
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("true", "yes", "on", "1"):
        return True
    if text in ("false", "no", "off", "0", ""):
        return False
    raise IllegalAction(f"option {key}={value} must be true or false")


def expansion_set(value: Any) -> frozenset[str]:
    if value in (None, "", "none", False):
        return frozenset()
    items = value if isinstance(value, list | tuple) else str(value).split(",")
    return frozenset(_choice("expansions", v, EXPANSIONS) for v in items if str(v).strip())


def parse_options(options: dict[str, Any], players: int, deck: Deck, pick: Any) -> Config:
    """Check ``options`` against the rulebook's tables; ``pick`` chooses a random Building."""
    for key in options:
        if key not in KNOWN_OPTIONS:
            close = difflib.get_close_matches(key, KNOWN_OPTIONS, n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            raise IllegalAction(f"unknown option '{key}'{hint}")
    mode = _choice("mode", options.get("mode", "basic"), MODES)
    competitive = mode == "competitive"
    side = _choice("side", options.get("side", "A"), ("a", "b")).upper()
    default_diff = "medium" if (mode == "basic" and side == "B") else "easy"
    difficulty = _choice("difficulty", options.get("difficulty", default_diff), DIFFICULTIES)
    expansions = expansion_set(options.get("expansions"))
    xcard = _flag("xcard", options.get("xcard", False))
    if _choice("unused_options", options.get("unused_options", "refuse"),
               UNUSED_OPTIONS) == "refuse":
        refuse_unused(mode, options)  # before the player count: a judge's GM sets no count
        refuse_unused_readings(mode, expansions, options)
    if competitive and players != 2:
        raise IllegalAction("the competitive mode is for 2 players")
    if xcard and not (players == 2 and not competitive):
        raise IllegalAction("the X card is an option of the 2-player cooperative variant")
    building = "basic"
    if mode == "basic":
        table = deck.basic_building[side].rounds
        if difficulty not in table:
            raise IllegalAction(
                f"the basic Building's side {side} is played at "
                f"{' or '.join(table)} (rulebook difficulty table)"
            )
        rounds = table[difficulty]
    elif mode == "extended":
        side = "A"  # "you always have to start with the A side up"
        rounds = deck.extended_rounds[difficulty]
    elif mode == "challenge":
        ids = tuple(deck.challenge)
        wanted = options.get("building", ids[0])
        if str(wanted).strip().lower() == "random":
            building = pick(ids)
        else:  # "random" is named among the values a player may give
            building = _choice("building", wanted, (*ids, "random"))
        rounds = deck.challenge[building].rounds[difficulty]
    else:
        rounds = deck.competitive["rounds"]
    if "seaport" in expansions and not competitive:
        rounds += deck.seaport_extra_rounds  # "add 10 rounds to the time track"
    stage_markers = _choice("stage_markers", options.get("stage_markers", "fixed"),
                            STAGE_MARKERS)
    seaport_upgrade = _choice("seaport_upgrade", options.get("seaport_upgrade", "keep"),
                              SEAPORT_UPGRADES)
    goals = _choice("goals", options.get("goals", "residential"), GOALS)
    return Config(
        mode, players == 2 and not competitive, competitive, difficulty, side, building,
        expansions, xcard, rounds, stage_markers, seaport_upgrade, goals,
    )


def refuse_unused(mode: str, options: dict[str, Any]) -> None:
    """Refuse an option that ``mode`` would not use, so nobody plays another game than the
    one asked for (rulebook "EXTENDED MODE": "you always have to start with the A side
    up"; a challenge Building is one of its own cards; the competitive mode builds
    nothing and always lasts 20 rounds)."""
    given = {k: str(v).strip() for k, v in options.items()
             if k in ("side", "difficulty", "building")}
    if mode == "extended" and given.get("side", "A").upper() != "A":
        raise IllegalAction(f"option side={given['side']}: the extended mode always starts "
                            "with the Building's A side up (rulebook, EXTENDED MODE)")
    if mode != "challenge" and "building" in given:
        raise IllegalAction(f"option building={given['building']}: a landmark Building is "
                            "played only in the challenge mode (-o mode=challenge)")
    if mode == "challenge" and "side" in given:
        raise IllegalAction(f"option side={given['side']}: in the challenge mode the "
                            "landmark's side is chosen by building= (each card's two sides "
                            "are two landmarks, e.g. eiffel/louvre)")
    if mode == "competitive":
        for key in ("side", "difficulty"):
            if key in given:
                why = ("builds no Building (Goal cards instead)" if key == "side"
                       else "always lasts 20 rounds, 10 per player")
                raise IllegalAction(f"option {key}={given[key]}: the competitive mode {why}")


def refuse_unused_readings(mode: str, expansions: frozenset[str],
                           options: dict[str, Any]) -> None:
    """Refuse a rule-reading option the mode never applies, so that a GM does not believe a
    rule in force that the game ignores: ``goals=architect`` outside the competitive mode
    (only it completes Goals), ``stage_markers=removable`` in it (it builds no Building),
    ``seaport_upgrade=return`` without a competitive Seaport.  (Games started with one
    before it was checked replay with ``unused_options=ignore``: see the engine's
    ``options_for_rules``.)"""
    why = unused_readings(mode, expansions, options)
    if why:
        raise IllegalAction(why)


def unused_readings(mode: str, expansions: frozenset[str], options: dict[str, Any]) -> str:
    """Why a rule-reading option given is one ``mode`` does not use ("" when none is).  The
    default reading named is no error: it is the reading the game plays anyway."""
    defaults = {"goals": GOALS[0], "stage_markers": STAGE_MARKERS[0],
                "seaport_upgrade": SEAPORT_UPGRADES[0]}
    given = {k: str(v).strip() for k, v in options.items()
             if k in defaults and str(v).strip().lower() != defaults[k]}
    competitive = mode == "competitive"
    if "goals" in given and not competitive:
        return (f"option goals={given['goals']}: only the competitive mode completes Goals "
                "(-o mode=competitive)")
    if "stage_markers" in given and competitive:
        return (f"option stage_markers={given['stage_markers']}: the competitive mode builds "
                "no Building (Goal cards instead)")
    if "seaport_upgrade" in given and not (competitive and "seaport" in expansions):
        return (f"option seaport_upgrade={given['seaport_upgrade']}: it reads the competitive "
                "mode's upgraded Seaport (-o mode=competitive -o expansions=seaport)")
    return ""


def first_building(cfg: Config, deck: Deck) -> BuildingSide | None:
    """The Building side built first (None in the competitive mode: Goals instead)."""
    if cfg.competitive:
        return None
    if cfg.mode == "challenge":
        return deck.challenge[cfg.building]
    return deck.basic_building[cfg.side]
