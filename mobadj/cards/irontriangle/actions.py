"""Iron Triangle actions: small frozen values whose ``str()`` is the canonical command text.

The parser (:mod:`.parser`) reads every canonical text back to an equal action, so a game's
log of texts replays exactly.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class PlayJob:
    """The Mob Boss plays a Job card from hand and names the one feature wanted."""

    card: str
    feature: str  # fast | cheap | good

    def __str__(self) -> str:
        return f"job {self.card} {self.feature}"


@dataclass(frozen=True, slots=True)
class Offer:
    """A Gangster offers a card face down (only its "pick two" back shows)."""

    card: str

    def __str__(self) -> str:
        return f"offer {self.card}"


@dataclass(frozen=True, slots=True)
class Say:
    """Table talk in the negotiation window, from any player; bluffing is allowed."""

    text: str

    def __str__(self) -> str:
        return f"say {self.text}".rstrip()


@dataclass(frozen=True, slots=True)
class Pick:
    """The Mob Boss accepts the offer of ``player`` (0-based; printed 1-based as P<n>)."""

    player: int

    def __str__(self) -> str:
        return f"pick P{self.player + 1}"


@dataclass(frozen=True, slots=True)
class Reveal:
    """A Gangster whose offer was not picked shows it (any time until the next job)."""

    def __str__(self) -> str:
        return "reveal"


Action = PlayJob | Offer | Say | Pick | Reveal

REVEAL = Reveal()
