"""``mobadj web --export DIR``: the same pages as static files, for any web host.

The layout is the server's (``index.html``, ``g/<game>/<phase>.html``, ``g/<game>/index.html``
for the latest phase, ``g/<game>/map/<phase>.svg``, ``static/``), and every link is
relative, so the folder works under any address.  Private games are left out: a static host
cannot ask for a key.  Countdowns count from the export's time (the script keeps them live).
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import Path

from mobadj.web.pages import STATIC, Site


@dataclass
class ExportReport:
    """What an export wrote: the games, the ones kept private, and the pages and maps written."""

    games: list[str] = field(default_factory=list)
    private: list[str] = field(default_factory=list)
    pages: int = 0
    maps: int = 0


def export_site(site: Site, out: Path) -> ExportReport:
    """Write every public page of ``site`` under ``out`` (created; files replaced)."""
    report = ExportReport()
    out.mkdir(parents=True, exist_ok=True)
    shutil.copytree(STATIC, out / "static", dirs_exist_ok=True)
    _write(out / "index.html", site.index_html())
    report.pages += 1
    for game in site.store.games():
        if site.is_private(game.name):
            report.private.append(game.name)
            continue
        report.games.append(game.name)
        folder = out / "g" / game.name
        steps = site.steps(game.name)
        latest = site.game_html(game.name)
        if latest is not None:
            _write(folder / "index.html", latest)
            report.pages += 1
        for sid in steps:
            html = site.game_html(game.name, sid)
            if html is not None:
                _write(folder / f"{sid}.html", html)
                report.pages += 1
            svg = site.map_svg(game.name, sid)
            if svg is not None:
                _write(folder / "map" / f"{sid}.svg", svg)
                report.maps += 1
    return report


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
