"""The base of the small immutable values every batch line makes and reads: orders, units
on the board, phases.

They were frozen dataclasses.  ``dataclasses`` writes each class's methods as source text
and compiles it at every start of the program: about half a millisecond a class, a fifth of
a batch's start for the records alone (docs/performance.md, "What a batch's start is made
of").  A record writes its ``__init__``, ``__eq__`` and ``__hash__`` itself; this base adds
what they share: fields that cannot be assigned once made, ``repr`` and pickling by the
fields in ``_fields`` (the order of ``__init__``'s arguments).
"""

from __future__ import annotations

from dataclasses import FrozenInstanceError
from typing import ClassVar

__all__ = ["Record"]


class Record:
    """An immutable value compared by its fields (a subclass lists them in ``_fields`` and
    sets them in ``__init__`` with ``object.__setattr__``).  Assigning to a field raises
    FrozenInstanceError, as it did when the records were frozen dataclasses: they are keys
    of the caches that every batch line reads."""

    __slots__ = ()
    _fields: ClassVar[tuple[str, ...]] = ()
    #: slots made from the fields by ``__init__`` (a unit's text): not compared, not pickled
    _derived: ClassVar[tuple[str, ...]] = ()

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:
        return (type(self), tuple([getattr(self, name) for name in self._fields]))

    def __repr__(self) -> str:
        inner = ", ".join([f"{name}={getattr(self, name)!r}" for name in self._fields])
        return f"{type(self).__name__}({inner})"
