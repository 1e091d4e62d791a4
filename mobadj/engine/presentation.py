"""How a game's rules present it: names, reports, pictures, batch lines and game pages.

One of the three concerns of :class:`mobadj.engine.rules.Rules` (the rules of play, the phase
calendar in :mod:`mobadj.engine.phase_rules`, and this one); a variant overrides here what it
words or draws its own way, and never what it adjudicates.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, ClassVar, Generic

from mobadj.engine.position import PositionT
from mobadj.engine.results import Reason

if TYPE_CHECKING:
    from mobadj.board import GameMap
    from mobadj.engine.pipeline import PhaseResult
    from mobadj.engine.position import PhaseLike
    from mobadj.engine.rules import Rules
    from mobadj.orders.errors import OrderError


@dataclass(frozen=True)
class PageTable:
    """A table a variant shows under a phase on the game pages: a heading, the column
    headings, rows of text cells, and a line after it."""

    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    note: str = ""


class Presentation(Generic[PositionT]):
    """The standard game's words, reports and pictures."""

    #: other names players use for the game (``mobadj game create --kind ...``)
    aliases: ClassVar[tuple[str, ...]] = ()
    #: how messages name this game's options ("unknown rule option ...")
    options_title: ClassVar[str] = "rule"
    #: how messages name a power ("unknown power ...")
    power_noun: ClassVar[str] = "power"
    #: keys a ``mobadj batch`` line carries beyond the standard ones (``batch_value``)
    batch_keys: ClassVar[tuple[str, ...]] = ()
    #: the heading of the picture's legend
    power_word: ClassVar[str] = "Powers"
    #: the picture's footnote ("" for the map's title)
    picture_note: ClassVar[str] = ""
    #: failures that make an order void whatever the others do (the judge's preview)
    void_reasons: ClassVar[frozenset[StrEnum]] = frozenset(
        {Reason.VOID_SUPPORT, Reason.VOID_CONVOY, Reason.NO_CONVOY})
    #: why a removal due was not made (the adjustments summary); the standard game always
    #: makes them all (civil disorder), a variant may have units that cannot be removed
    unremoved_note: ClassVar[str] = "no unit left to remove"
    #: why the rules removed a unit (the adjustments summary: "A RUH removed by the rules
    #: (civil disorder: no removal ordered)"); a variant whose civil disorder is something
    #: else says it its own way
    rules_removal_note: ClassVar[str] = "civil disorder: no removal ordered"
    #: what the judge calls a power whose player missed too many deadlines in a row or left
    #: (the judge no longer waits for it; its units hold), as "X is now ..." says it; a
    #: variant whose rules use "civil disorder" for something else names it its own way
    unplayed: ClassVar[str] = "in civil disorder"
    #: True: results subjects and headings, the GM's answers and SUMMARY name a phase by its
    #: long name with the code in brackets ("Week 3, July 1919: movement (1919-07-W3-M)");
    #: False: by the code alone, a name in its own right (S1901M)
    phase_in_words: ClassVar[bool] = False
    #: headings of the game pages a variant words its own way: "news" (a phase's events),
    #: "calendar" (the list of phases), "legend" (the key to the picture); else the pages' own
    page_words: ClassVar[Mapping[str, str]] = {}
    #: the game pages' key to the picture: (symbol, what it means); none when empty
    page_legend: ClassVar[tuple[tuple[str, str], ...]] = ()

    def as_rules(self) -> Rules[PositionT]:
        """The whole rules these words belong to (the standard report reads who has won and
        who must adjust from them); :class:`~mobadj.engine.rules.Rules` answers itself."""
        raise NotImplementedError("a Presentation is a part of a Rules class")

    def status_notes(self, position: PositionT, game_map: GameMap) -> list[str]:
        """Lines a variant adds to the board's public status (the judge's STATUS), naming
        powers as the map does."""
        return []

    def phase_error(self, error: OrderError, phase: PhaseLike) -> OrderError:
        """An order error in the words of the phase being played (the judge knows it, the
        parser does not; Mobtown: what may follow a Gang named alone); itself by default."""
        return error

    def idle_words(self, position: PositionT, power: str, game_map: GameMap) -> str:
        """Why ``power`` owes no orders in the phase of ``position`` although it has units, in
        the variant's words, for a player who sends some all the same ("": the phase's own
        reason, nothing to decide, is enough; Mobtown: civil disorder)."""
        return ""

    # ---- reports and pictures ----------------------------------------------------------------

    def report_body(self, result: PhaseResult[PositionT], game_map: GameMap) -> list[str]:
        """The lines of a published report between the orders and the next phase."""
        from mobadj.engine.report import standard_body

        return standard_body(result, game_map, self.as_rules())

    def mail_report(self, result: PhaseResult[PositionT], game_map: GameMap) -> str:
        """The report the email judge mails after a phase: the one every map shares (the
        orders with their results, then ``report_body``, the adjustments in words, each
        with an example of its order)."""
        from mobadj.engine.report import format_report

        return format_report(result, game_map, rules=self.as_rules(), examples=True).rstrip()

    def adjustment_words(self, position: PositionT, power: str, game_map: GameMap
                         ) -> str | None:
        """What ``power`` has to do in the adjustment phase of ``position``, in a variant's
        own words ("" for nothing due); None: the standard words (:func:`adjustments_due`)."""
        return None

    def default_note(self, order: str) -> str:
        """The note beside ``order`` (as published, ``A PAR H``) when the rules gave it to a
        unit that got none (the report, the game pages): "no order given" marks a missed
        order; a variant words its own units that need no order."""
        return "no order given"

    def json_extras(self, result: PhaseResult[PositionT]) -> dict[str, object]:
        """Keys a variant adds to a result's JSON (``mobadj adjudicate --json``, the judge)."""
        return {}

    def batch_value(self, key: str, result: PhaseResult[PositionT], spell: Callable[[str], str]
                    ) -> object:
        """The value of one of ``batch_keys`` in a batch output line (``spell``: a power id
        as the input line wrote it)."""
        if key == "defaults":
            return [r.as_dict() for r in result.defaults]
        if key == "events":
            return list(result.events)
        return result.position.to_data().get(key)

    def picture_data(self, result: PhaseResult[PositionT]) -> Mapping[str, object] | None:
        """What a picture of ``result`` shows, as the renderer reads a mapping; None: the new
        position with the arrows of the orders as published."""
        return None

    # ---- game pages --------------------------------------------------------------------------

    def page_tables(self, data: Mapping[str, object], names: Mapping[str, str]) -> list[PageTable]:
        """Tables the game pages show under a phase, read from its position as stored
        (``Position.to_data()``; ``names``: power id -> name); none in the standard game."""
        return []
