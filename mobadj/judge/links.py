"""Addresses of the game pages (``web.base_url``), shared by the judge's results mails (which
link to the page of the phase they report) and the pages themselves (mobadj.web).  No web
library is imported here."""

from __future__ import annotations

import re
from urllib.parse import quote

_SAFE = re.compile(r"[^A-Za-z0-9._-]")


def step_id(phase: str) -> str:
    """The page name of a phase: the phase as the judge writes it (``S1901M``,
    ``1919-07-W1-M``, ``M12``), any other character made a hyphen (it is a file name)."""
    return _SAFE.sub("-", phase.strip()) or "phase"


def game_path(game: str) -> str:
    """The game's folder, relative to the site's root: ``g/<game>/``."""
    return f"g/{quote(game, safe='')}/"


def phase_url(base_url: str, game: str, phase: str, key: str | None = None) -> str:
    """The full address of a phase's page; a private game's key rides along once (the
    server swaps it for a cookie and drops it from the address at once)."""
    url = f"{base_url.rstrip('/')}/{game_path(game)}{step_id(phase)}.html"
    return url + (f"?key={quote(key, safe='')}" if key else "")


def game_url(base_url: str, game: str, key: str | None = None) -> str:
    """The full address of a game's page (its latest phase)."""
    url = f"{base_url.rstrip('/')}/{game_path(game)}"
    return url + (f"?key={quote(key, safe='')}" if key else "")
