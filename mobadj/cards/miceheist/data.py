"""The Mice Heist components, read once from ``mobadj/cards/data/mice_heist.yaml``.

Cards are data, not code: a GM may transcribe a printed deck into the YAML file and the
engine, bot and simulations use it unchanged.  The loader checks the shape the rulebook
prescribes (3 starting skills per colour, 37 upgrades, 5 obstacles per job A-D).

The option ``deck`` names a built-in deck (:data:`BUILTIN_DECKS`) or, at the terminal, the
path of another deck file; a judge accepts only the built-in names (it must never read a
file a GM names on its machine).
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from mobadj.cards.protocol import DeckError, IllegalAction

DATA_FILE = Path(__file__).resolve().parent.parent / "data" / "mice_heist.yaml"
MAX_DECK_BYTES = 1024 * 1024  # a deck is a few KiB; more is no deck (or /dev/zero)
BUILTIN_DECKS: dict[str, Path] = {"standard": DATA_FILE}  # deck name -> bundled file

EFFECT_KINDS = (
    "bonus",
    "per_icon",
    "per_assist",
    "flip",
    "cancel",
    "draw",
    "gain",
    "advance",
    "retreat",
    "bounty",
)
TARGETED = ("flip", "cancel")  # effects that name one chip of this test
NO_VALUE = TARGETED  # effects written without a number
SPECIAL_CONDITIONS = ("finale", "plain")


def slug(name: str) -> str:
    """The command-line key of a name: ``Pick the Lock`` -> ``pick-the-lock``."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


@dataclass(frozen=True, slots=True)
class Effect:
    """One phrase of a skill: ``bonus 3 if hand`` is Effect("bonus", 3, "hand")."""

    kind: str
    value: int
    condition: str | None = None

    def __str__(self) -> str:
        """The deck file's notation: ``bonus 2 if hand``."""
        text = self.kind if self.kind in NO_VALUE else f"{self.kind} {self.value}"
        return f"{text} if {self.condition}" if self.condition else text

    def words(self) -> str:
        """The effect in plain words, as players read it: ``+2 against a hand obstacle``."""
        n = self.value
        what = {
            "bonus": f"{n:+d} to the rating",
            "per_icon": f"{n:+d} to the rating for each icon of the obstacle",
            "per_assist": f"{n:+d} to the rating for each player helping",
            "flip": "turn a chip of this test over",
            "cancel": "set a chip of this test aside (it counts 0)",
            "draw": f"draw {n} more chip{'s' if n != 1 else ''}",
            "gain": f"take {n} cheese from the supply",
            "advance": f"move up {n} on the job's track",
            "retreat": f"move down {n} on the job's track",
            "bounty": f"put {n} cheese from the supply on the obstacle, for whoever beats it",
        }[self.kind]
        when = {None: "", "finale": " against a finale", "plain": " against an obstacle "
                "without icons"}.get(self.condition, f" against an obstacle with a "
                                                    f"{self.condition} icon")
        return what + when

    def short(self) -> str:
        """The effect in a few words, for the terminal's short screen: ``+2 if hand``."""
        n = self.value
        what = {
            "bonus": f"{n:+d}", "per_icon": f"{n:+d} per icon", "per_assist": f"{n:+d} per helper",
            "flip": "flip a chip", "cancel": "set a chip aside", "draw": f"draw {n}",
            "gain": f"{n:+d} cheese", "advance": f"up {n}", "retreat": f"down {n}",
            "bounty": f"{n} cheese bounty",
        }[self.kind]
        when = {None: "", "finale": " if finale", "plain": " if no icons"}.get(
            self.condition, f" if {self.condition}")
        return what + when


@dataclass(frozen=True, slots=True)
class Skill:
    """A skill card: starting (has a colour) or upgrade (colour None)."""

    key: str
    name: str
    colour: str | None
    icon: str | None
    effects: tuple[Effect, ...]
    text: str = ""  # the effects in plain words, filled in on creation

    def __post_init__(self) -> None:
        if not self.text:
            object.__setattr__(self, "text", "; ".join(e.words() for e in self.effects))


@dataclass(frozen=True, slots=True)
class Obstacle:
    """An obstacle card of a job's stack."""

    id: str
    job: str
    name: str
    target: int
    icons: tuple[str, ...]
    payout: int
    finale: bool
    text: str = field(default="", compare=False)  # card text, filled in on creation

    def __post_init__(self) -> None:
        icons = "+".join(self.icons) if self.icons else "no icons"
        fin = ", FINALE" if self.finale else ""
        text = f"{self.id} {self.name} (target {self.target}, {icons}, payout {self.payout}{fin})"
        object.__setattr__(self, "text", text)

    def meets(self, condition: str | None) -> bool:
        """Whether an effect's ``if`` condition holds for this obstacle."""
        if condition is None:
            return True
        if condition == "finale":
            return self.finale
        if condition == "plain":
            return not self.icons
        return condition in self.icons


@dataclass(frozen=True, slots=True)
class Chip:
    """A double-sided modifier chip; ``faces[0]`` and ``faces[1]``."""

    id: int
    colour: str
    faces: tuple[int, int]
    labels: tuple[str, ...] = field(default=(), compare=False)  # "blue +4", per face

    def __post_init__(self) -> None:
        labels = tuple(f"{self.colour} {f:+d}" for f in self.faces)
        object.__setattr__(self, "labels", labels)

    def label(self, face: int) -> str:
        return self.labels[face]


@dataclass(frozen=True)
class HeistData:
    """Every component of one deck version."""

    version: str
    track_length: int
    start_cheese: int
    cheese_total: int
    market_size: int
    max_skills: int
    chips_per_test: int
    icons: tuple[str, ...]
    colours: tuple[str, ...]
    chips: tuple[Chip, ...]
    food: dict[int, tuple[str, ...]]
    starting: dict[str, tuple[str, ...]]  # colour -> skill keys
    upgrades: tuple[str, ...]
    skills: dict[str, Skill]
    jobs: tuple[str, ...]
    job_names: dict[str, str]
    stacks: dict[str, tuple[str, ...]]  # job -> obstacle ids, top first
    obstacles: dict[str, Obstacle]
    targeting: dict[str, frozenset[str]]  # obstacle id -> skills that must name a chip there
    sha256: str = ""  # of the file it was read from, which a game played with it pins

    def __deepcopy__(self, memo: dict[int, Any]) -> HeistData:
        return self  # immutable and shared: copies of a game share their deck


def _effect(text: str, icons: tuple[str, ...], where: str) -> Effect:
    words = str(text).split()
    condition = None
    if len(words) >= 2 and words[-2] == "if":
        condition = words[-1]
        words = words[:-2]
        if condition not in icons and condition not in SPECIAL_CONDITIONS:
            raise DeckError(f"{where}: unknown condition '{condition}' in '{text}'")
    if not words or words[0] not in EFFECT_KINDS:
        raise DeckError(f"{where}: unknown effect '{text}' (known: {', '.join(EFFECT_KINDS)})")
    kind = words[0]
    if kind in NO_VALUE:
        if len(words) != 1:
            raise DeckError(f"{where}: '{kind}' takes no number in '{text}'")
        return Effect(kind, 1, condition)
    if len(words) != 2 or not re.fullmatch(r"\d+", words[1]):
        raise DeckError(f"{where}: '{kind}' needs one whole number in '{text}'")
    return Effect(kind, int(words[1]), condition)


def _skill(raw: dict[str, Any], colour: str | None, icons: tuple[str, ...]) -> Skill:
    name = str(raw["name"])
    icon = raw.get("icon")
    if icon is not None and icon not in icons:
        raise DeckError(f"skill {name}: unknown icon '{icon}'")
    effects = tuple(_effect(e, icons, f"skill {name}") for e in raw.get("effects", ()))
    if not effects:
        raise DeckError(f"skill {name}: no effects")
    return Skill(slug(name), name, colour, icon, effects)


def parse_data(raw: dict[str, Any]) -> HeistData:
    """Build and check a deck from the parsed YAML mapping."""
    icons = tuple(raw["icons"])
    colours = tuple(raw["colours"])
    skills: dict[str, Skill] = {}

    def add(skill: Skill) -> str:
        if skill.key in skills:
            raise DeckError(f"two skills are called '{skill.name}'")
        skills[skill.key] = skill
        return skill.key

    starting: dict[str, tuple[str, ...]] = {}
    for colour in colours:
        cards = raw["starting_skills"].get(colour) or []
        if len(cards) != 3:
            raise DeckError(f"colour {colour} needs 3 starting skills, has {len(cards)}")
        starting[colour] = tuple(add(_skill(c, colour, icons)) for c in cards)
    upgrades = tuple(add(_skill(c, None, icons)) for c in raw["upgrade_skills"])
    if len(upgrades) != 37:
        raise DeckError(f"the upgrade deck needs 37 skills, has {len(upgrades)}")
    chips: list[Chip] = []
    for c in raw["chips"]:
        for _ in range(int(c["count"])):
            a, b = (int(x) for x in c["faces"])
            chips.append(Chip(len(chips), str(c["colour"]), (a, b)))
    obstacles: dict[str, Obstacle] = {}
    stacks: dict[str, tuple[str, ...]] = {}
    job_names: dict[str, str] = {}
    for job, spec in raw["jobs"].items():
        job = str(job)
        job_names[job] = str(spec["name"])
        ids = []
        for o in spec["obstacles"]:
            bad = [i for i in o.get("icons", []) if i not in icons]
            if bad:
                raise DeckError(f"obstacle {o['id']}: unknown icons {bad}")
            ob = Obstacle(
                str(o["id"]),
                job,
                str(o["name"]),
                int(o["target"]),
                tuple(o.get("icons", [])),
                int(o["payout"]),
                bool(o.get("finale", False)),
            )
            obstacles[ob.id] = ob
            ids.append(ob.id)
        if len(ids) != 5:
            raise DeckError(f"job {job} needs 5 obstacles, has {len(ids)}")
        stacks[job] = tuple(ids)
    if len(stacks) != 4:
        raise DeckError(f"the game needs 4 jobs, has {len(stacks)}")
    track_length = int(raw["track_length"])
    if track_length < len(colours):
        raise DeckError("track_length must be at least the number of players (6)")
    food = {int(v): tuple(names) for v, names in raw["food"].items()}
    targeting = {
        ob.id: frozenset(
            k
            for k, sk in skills.items()
            if any(e.kind in TARGETED and ob.meets(e.condition) for e in sk.effects)
        )
        for ob in obstacles.values()
    }
    return HeistData(
        version=str(raw["version"]),
        track_length=track_length,
        start_cheese=int(raw["start_cheese"]),
        cheese_total=int(raw["cheese_total"]),
        market_size=int(raw["market_size"]),
        max_skills=int(raw["max_skills"]),
        chips_per_test=int(raw["chips_per_test"]),
        icons=icons,
        colours=colours,
        chips=tuple(chips),
        food=food,
        starting=starting,
        upgrades=upgrades,
        skills=skills,
        jobs=tuple(sorted(stacks)),
        job_names=job_names,
        stacks=stacks,
        obstacles=obstacles,
        targeting=targeting,
    )


def deck_file(deck: Any) -> str | None:
    """The file of the option ``deck``: a built-in deck's name, else a path (None: the
    bundled deck)."""
    if deck is None or str(deck).strip() == "":
        return None
    name = str(deck).strip()
    path = BUILTIN_DECKS.get(name.lower())
    if path is None:
        return name
    return None if path == DATA_FILE else str(path)


@lru_cache(maxsize=4)
def load_data(path: str | None = None) -> HeistData:
    """The deck in ``path`` (default: the bundled YAML), parsed once per process.  A deck
    file that cannot be read or is not a Mice Heist deck raises :class:`DeckFileError`
    with one line saying why (a player's error, never a traceback)."""
    try:
        # not blocking on a pipe (a record to verify may name any path), refused below
        fd = os.open(path or DATA_FILE, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as fh:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise DeckFileError(f"cannot read the deck file {path}: it is no file (a "
                                    "folder, a device or a pipe)")
            content = fh.read(MAX_DECK_BYTES + 1)
        if len(content) > MAX_DECK_BYTES:
            raise DeckFileError(f"the deck file {path} is not a Mice Heist deck: it is larger "
                                f"than {MAX_DECK_BYTES // 1024} KiB")
        raw = yaml.safe_load(content)
    except OSError as exc:
        raise DeckFileError(f"cannot read the deck file {path}: {exc.strerror or exc}") from None
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise DeckFileError(f"the deck file {path} is not valid YAML: {first}") from None
    if not isinstance(raw, dict):
        raise DeckFileError(f"the deck file {path} is not a Mice Heist deck: it holds "
                            f"{'nothing' if raw is None else 'no mapping'}, where a deck "
                            "maps icons, colours, skills, chips and jobs")
    try:
        return replace(parse_data(raw), sha256=hashlib.sha256(content).hexdigest())
    except DeckError as exc:
        raise DeckFileError(f"the deck file {path or DATA_FILE}: {exc}") from None
    except (KeyError, TypeError, AttributeError, IndexError, ValueError) as exc:
        what = f"missing {exc}" if isinstance(exc, KeyError) else str(exc)
        raise DeckFileError(f"the deck file {path} is not a Mice Heist deck ({what})") from None


class DeckFileError(IllegalAction):
    """A deck file (option ``deck``) that cannot be used."""
