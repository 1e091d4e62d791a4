"""Per-order outcomes: succeeds | fails | invalid, each with a typed reason.

A failure is never a bare boolean: the reason says *why*, in words a GM would mail out.  The
engine's reasons are :class:`Reason`; a variant publishes its own as another ``StrEnum``
(any ``StrEnum`` is a reason: its value is the published wording).
"""

from __future__ import annotations

from enum import StrEnum

from mobadj.orders.model import AnyOrder


class Outcome(StrEnum):
    """What happened to an order."""

    SUCCEEDS = "succeeds"
    FAILS = "fails"
    INVALID = "invalid"


class Reason(StrEnum):
    """Why an order failed or was invalid (the value is the published wording)."""

    # movement: moves
    BOUNCED = "bounced"
    HELD = "destination held"
    LOST_HEAD_TO_HEAD = "lost head-to-head battle"
    OWN_UNIT = "cannot dislodge own unit"
    NO_CONVOY = "no convoy route"
    CONVOY_DISRUPTED = "convoy disrupted"
    # movement: supports, convoys, holds
    CUT = "support cut"
    DISLODGED = "dislodged"
    VOID_SUPPORT = "supported unit did not make that order"
    VOID_CONVOY = "convoyed army did not order that move"
    PARADOX = "convoy paradox: convoy fails (Szykman rule)"
    PARADOX_ALL_HOLD = "convoy paradox: all hold"
    # invalid orders (the unit holds)
    NO_UNIT = "no such unit"
    NOT_OWNER = "unit belongs to another power"
    NOT_ADJACENT = "destination not adjacent"
    OWN_PROVINCE = "cannot move to its own province"
    WRONG_TERRAIN = "unit cannot enter that terrain"
    BAD_COAST = "coast cannot be reached"
    AMBIGUOUS_COAST = "coast must be specified"
    WRONG_UNIT_COAST = "unit is not on that coast"  # option, DATC 4.B.5 a
    ARMY_COAST = "an army move cannot name a coast"  # option, DATC 4.B.6 a
    SUPPORT_SELF = "a unit cannot support itself"
    SUPPORT_UNREACHABLE = "supporting unit cannot reach the destination"
    NO_SUPPORTED_UNIT = "no unit to support"
    NO_CONVOYED_UNIT = "no army to convoy"
    NOT_CONVOYABLE = "only armies can be convoyed"
    CANNOT_CONVOY = "only fleets at sea can convoy"
    NO_ROUTE = "fleet is on no possible convoy route"
    DUPLICATE = "unit already ordered"
    WRONG_PHASE = "order not allowed in this phase"
    # retreats
    RETREAT_BLOCKED = "cannot retreat there (disbanded)"
    RETREAT_CLASH = "two units retreated to the same place (both disbanded)"
    NOT_DISLODGED = "unit is not dislodged"
    NO_ORDER_DISBANDED = "no order: disbanded"
    # adjustments
    NO_BUILDS = "no builds allowed"
    TOO_MANY = "too many orders"
    NOT_HOME = "not a home supply centre"
    NO_BUILD_SITE = "not a centre where this power may build"
    NOT_OWNED = "supply centre not owned"
    OCCUPIED = "province occupied"
    CIVIL_DISORDER = "civil disorder removal"


class OrderResult:
    """The outcome of one order as published: power, order text, result, reason.

    ``order`` may be given as an Order value; its canonical text is only made when asked
    for, which keeps adjudication fast.  Treat instances as immutable.
    """

    __slots__ = ("power", "_order", "outcome", "reason")

    def __init__(
        self, power: str, order: AnyOrder | str, outcome: Outcome, reason: StrEnum | None = None
    ) -> None:
        self.power = power
        self._order = order
        self.outcome = outcome
        self.reason = reason

    @property
    def order(self) -> str:
        """The canonical order text."""
        text = self._order
        if not isinstance(text, str):
            text = self._order = str(text)
        return text

    @property
    def given(self) -> AnyOrder | str:
        """The order as it was given (an Order value, or its text)."""
        return self._order

    @property
    def succeeded(self) -> bool:
        return self.outcome is Outcome.SUCCEEDS

    def as_dict(self) -> dict[str, str | None]:
        """The batch/JSON shape ``{power, order, result, reason}``."""
        return {
            "power": self.power,
            "order": self.order,
            "result": self.outcome.value,
            "reason": self.reason.value if self.reason is not None else None,
        }

    def _key(self) -> tuple[str, str, Outcome, StrEnum | None]:
        return (self.power, self.order, self.outcome, self.reason)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, OrderResult) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (
            f"OrderResult({self.power!r}, {self.order!r}, {self.outcome.value!r}, "
            f"{self.reason.value if self.reason else None!r})"
        )
