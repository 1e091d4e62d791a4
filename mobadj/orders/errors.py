"""Order errors: a small family of ValueErrors, each with line, column and friendly words.

- :class:`OrderSyntaxError` - the words do not form an order (what was expected is listed).
- :class:`UnknownProvinceError` - a name the map does not know (with a did-you-mean).
- :class:`UnknownPowerError` - a power prefix or section the map does not know.

A reply mail prints ``str(error)``; :meth:`OrderError.pretty` adds the line and a caret.
"""

from __future__ import annotations

from mobadj.errors import OrdersError


class OrderError(OrdersError, ValueError):
    """A bad order.  ``line``/``column`` are 1-based; ``expected`` holds friendly words."""

    def __init__(
        self,
        message: str,
        *,
        line: int = 1,
        column: int = 1,
        text: str = "",
        expected: tuple[str, ...] = (),
        suggestion: str | None = None,
        note: str = "",
    ) -> None:
        self.message = message
        self.note = note
        self.line = line
        self.column = column
        self.text = text
        self.expected = expected
        self.suggestion = suggestion
        super().__init__(str(self))

    def __str__(self) -> str:
        out = f"line {self.line}, column {self.column}: {self.message}"
        if self.suggestion:
            out += f"; did you mean {self.suggestion}?"
        if self.note:
            out += f" ({self.note})"
        return out

    def pretty(self) -> str:
        """The message, the offending line and a caret under the column."""
        caret = " " * (self.column - 1) + "^"
        return f"{self}\n  {self.text}\n  {caret}"

    def moved(self, line: int, column_offset: int, text: str) -> OrderError:
        """A copy placed in a file: its line, its column shifted, the whole line as text."""
        return type(self)(self.message, line=line, column=self.column + column_offset, text=text,
                          expected=self.expected, suggestion=self.suggestion, note=self.note)

    def noted(self, note: str) -> OrderError:
        """A copy with ``note`` (what the error means for the rest of the file), shown last."""
        return type(self)(self.message, line=self.line, column=self.column, text=self.text,
                          expected=self.expected, suggestion=self.suggestion, note=note)

    def __eq__(self, other: object) -> bool:
        return (type(self) is type(other) and isinstance(other, OrderError)
                and (self.message, self.line, self.column, self.text)
                == (other.message, other.line, other.column, other.text))

    __hash__ = ValueError.__hash__


class OrderSyntaxError(OrderError):
    """The words do not form an order; ``expected`` says what could have come next."""


class UnknownProvinceError(OrderError):
    """A province, location or coast the map does not know."""


class UnknownPowerError(OrderError):
    """A power name (section header or prefix) the map does not know."""


def or_list(words: tuple[str, ...] | list[str]) -> str:
    """``["a", "b", "c"]`` -> ``"a, b or c"``."""
    words = list(words)
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " or " + words[-1]
