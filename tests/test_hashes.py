"""The immutable values the engine hashes and compares on every line: the records
(mobadj.records: orders, units, phases), which write their methods out, and the standard
calendar (a frozen dataclass with its ``__hash__`` written out).  Each hashes as the tuple of
its fields, equals a copy made from its fields and nothing else, refuses a new value for a
field, and survives pickling and copying whole."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from dataclasses import FrozenInstanceError

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
from mobadj.records import Record

UNIT = Unit("A", "PAR")
RECORDS = [UNIT, Hold(UNIT), Move(UNIT, "BUR", True, "subway", "D"),
           SupportHold(UNIT, Unit("F", "BRE")),
           SupportMove(UNIT, Unit("A", "MAR"), "BUR", "subway"),
           Convoy(Unit("F", "NTH"), UNIT, "NWY"),
           Retreat(UNIT, "GAS", "subway"), Disband(UNIT), Build(UNIT), Remove(UNIT), Waive(),
           UnitState("FRANCE", "A", "PAR"),
           Dislodged(UnitState("FRANCE", "A", "PAR"), "BUR", True, ("GAS", "PIC"), "subway"),
           Phase(1901, "S", "M")]


def _fields(value: Record) -> tuple[object, ...]:
    return tuple(getattr(value, name) for name in value._fields)


def _changed(field: object) -> object:
    """Another value of the field's type (the compiled build checks the types)."""
    if isinstance(field, bool):
        return not field
    if isinstance(field, int):
        return field + 1
    if isinstance(field, str | tuple):
        return field + (("X",) if isinstance(field, tuple) else "X")
    if isinstance(field, Record):
        first, *rest = _fields(field)
        return type(field)(_changed(first), *rest)
    return "subway"  # None, where a text may stand


@pytest.mark.parametrize("value", RECORDS, ids=lambda v: type(v).__name__)
def test_a_record_hashes_and_compares_by_its_fields(value) -> None:
    cls = type(value)
    # every field takes part, in the order of __init__'s arguments (the compiled build's
    # native classes keep no __slots__)
    assert set(cls._fields) | set(cls._derived) == set(
        getattr(cls, "__slots__", cls._fields + cls._derived))
    assert hash(value) == hash(_fields(value))
    assert cls(**dict(zip(cls._fields, _fields(value), strict=True))) == value
    twin = cls(*_fields(value))
    assert twin == value and hash(twin) == hash(value) and twin is not value
    assert "__hash__" in cls.__dict__ and "__eq__" in cls.__dict__
    assert value != _fields(value) and value is not None
    for i, name in enumerate(cls._fields):  # any one field changed: another value
        other = list(_fields(value))
        other[i] = _changed(other[i])
        assert cls(*other) != value, name


@pytest.mark.parametrize("value", RECORDS, ids=lambda v: type(v).__name__)
def test_a_record_is_immutable_and_survives_pickle_and_copy(value) -> None:
    for name in value._fields or ("anything",):
        with pytest.raises(FrozenInstanceError, match=f"cannot assign to field '{name}'"):
            setattr(value, name, None)
        with pytest.raises(AttributeError):
            delattr(value, name)
    with pytest.raises(AttributeError):
        value.__dict__  # noqa: B018 (slots: no instance dictionary to write into)
    for again in (pickle.loads(pickle.dumps(value)), copy.copy(value), copy.deepcopy(value)):
        assert again == value and hash(again) == hash(value) and type(again) is type(value)
        for name in value._derived:  # made again from the fields
            assert getattr(again, name) == getattr(value, name)
            with pytest.raises(FrozenInstanceError):
                setattr(again, name, None)


def test_a_unit_is_written_as_its_kind_and_location() -> None:
    unit = UnitState("RUSSIA", "F", "STP/SC")
    assert unit.text == str(unit) == "F STP/SC"
    assert pickle.loads(pickle.dumps(unit)).text == "F STP/SC"


def test_a_record_reads_back_from_its_repr() -> None:
    namespace = {cls.__name__: cls for cls in map(type, RECORDS)}
    for value in RECORDS:
        assert eval(repr(value), namespace) == value  # noqa: S307 (our own values)
    assert repr(Move(UNIT, "BUR")) == (
        "Move(unit=Unit(kind='A', location='PAR'), destination='BUR', via_convoy=False, "
        "route='', escort='')")


def test_phases_sort_by_year_season_and_kind() -> None:
    phases = [Phase(1902, "S", "M"), Phase(1901, "W", "A"), Phase(1901, "F", "R"),
              Phase(1901, "F", "M"), Phase(1901, "S", "M")]
    assert sorted(phases) == sorted(phases, key=lambda p: (p.year, p.season, p.kind))
    assert Phase(1901, "S", "M") <= Phase(1901, "S", "M") < Phase(1901, "S", "R")
    assert Phase(1902, "F", "M") > Phase(1901, "W", "A") >= Phase(1901, "W", "A")
    with pytest.raises(TypeError):
        Phase(1901, "S", "M") < (1901, "S", "M")  # noqa: B015 (it raises)


def test_the_calendar_hash_written_out_is_the_dataclass_hash() -> None:
    fields = dataclasses.fields(STANDARD)
    assert all(f.hash is None and f.compare for f in fields)  # every field takes part
    assert hash(STANDARD) == hash(tuple(getattr(STANDARD, f.name) for f in fields))
    twin = dataclasses.replace(STANDARD)
    assert twin == STANDARD and hash(twin) == hash(STANDARD)
    assert "__hash__" in type(STANDARD).__dict__
