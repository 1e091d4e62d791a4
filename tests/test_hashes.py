"""The frozen values whose ``__hash__`` is written out (the compiled build then hashes them
without a Python call) hash as the dataclass would: the hash of their fields, in order."""

from __future__ import annotations

import dataclasses

import pytest

from mobadj.engine.phases import STANDARD, Phase
from mobadj.engine.units import Dislodged, UnitState
from mobadj.orders.model import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    Unit,
    Waive,
)

UNIT = Unit("A", "PAR")
VALUES = [UNIT, Hold(UNIT), Move(UNIT, "BUR", True, "subway", "D"),
          SupportHold(UNIT, Unit("F", "BRE")),
          SupportMove(UNIT, Unit("A", "MAR"), "BUR", "subway"),
          Convoy(Unit("F", "NTH"), UNIT, "NWY"),
          Retreat(UNIT, "GAS", "subway"), Disband(UNIT), Build(UNIT), Remove(UNIT), Waive(),
          UnitState("FRANCE", "A", "PAR"),
          Dislodged(UnitState("FRANCE", "A", "PAR"), "BUR", True, ("GAS", "PIC"), "subway"),
          Phase(1901, "S", "M"), STANDARD]


@pytest.mark.parametrize("value", VALUES, ids=lambda v: type(v).__name__)
def test_a_written_out_hash_is_the_dataclass_hash(value) -> None:
    fields = dataclasses.fields(value)
    assert all(f.hash is None and f.compare for f in fields)  # every field takes part
    assert hash(value) == hash(tuple(getattr(value, f.name) for f in fields))
    twin = dataclasses.replace(value)
    assert twin == value and hash(twin) == hash(value)
    assert "__hash__" in type(value).__dict__
