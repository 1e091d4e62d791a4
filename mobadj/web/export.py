"""``mobadj web --export DIR``: the same pages as static files, for any web host.

The layout is the server's (``index.html``, ``g/<game>/<phase>.html``, ``g/<game>/index.html``
for the latest phase, ``g/<game>/map/<phase>.svg``, ``static/``), and every link is
relative, so the folder works under any address.  Private games are left out: a static host
cannot ask for a key.  Countdowns count from the export's time (the script keeps them live).

The export owns ``g/<game>/`` of every game in the store: a page or map written there by an
earlier export and not written now (a phase rolled back) is removed, and so is the whole
folder of a game that has become private since, lest its copy stay public.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import Path

from mobadj.web.pages import STATIC, Site, UnreadableGame


@dataclass
class ExportReport:
    """What an export wrote: the games, the ones kept private, and the pages and maps written."""

    games: list[str] = field(default_factory=list)
    private: list[str] = field(default_factory=list)
    unreadable: list[str] = field(default_factory=list)  # records this installation cannot read
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
        folder = out / "g" / game.name
        if site.is_private(game.name):
            report.private.append(game.name)
            shutil.rmtree(folder, ignore_errors=True)
            continue
        try:
            files = _game_files(site, game.name)
        except UnreadableGame:  # logged; its old pages stay as they were
            report.unreadable.append(game.name)
            continue
        report.games.append(game.name)
        for old in _pages_in(folder):
            if old.relative_to(folder).as_posix() not in files:
                old.unlink()
        for name, text in files.items():
            _write(folder / name, text)
            report.pages += name.endswith(".html")
            report.maps += name.endswith(".svg")
    return report


def _game_files(site: Site, game: str) -> dict[str, str]:
    """Every file of a game's folder: its name there and its text."""
    files: dict[str, str] = {}
    latest = site.game_html(game)
    if latest is not None:
        files["index.html"] = latest
    for sid in site.steps(game):
        html = site.game_html(game, sid)
        if html is not None:
            files[f"{sid}.html"] = html
        svg = site.map_svg(game, sid)
        if svg is not None:
            files[f"map/{sid}.svg"] = svg
    return files


def _pages_in(folder: Path) -> list[Path]:
    """The pages and maps an earlier export wrote in a game's folder."""
    return [*folder.glob("*.html"), *folder.glob("map/*.svg")]


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
