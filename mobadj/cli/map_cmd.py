"""``mobadj map ...``: map-file commands.  ``map_group`` is the click group; other modules
add commands to it (``from mobadj.cli.map_cmd import map_group``)."""

from __future__ import annotations

import os
from pathlib import Path

import click

from mobadj.board import map_path
from mobadj.board.balance import balance_lines
from mobadj.board.check import inspect_map
from mobadj.cli import main


@main.group("map")
def map_group() -> None:
    """Work with map files (YAML): check them, render them, start a game on them."""


@map_group.command("check")
@click.argument("file")
@click.option("--quiet", "-q", is_flag=True, help="Print only the findings, not the summary.")
@click.option("--balance/--no-balance", default=True,
              help="Also print balance figures (distances from each power to neutral centres).")
def check_cmd(file: str, quiet: bool, balance: bool) -> None:
    """Check a map FILE (a path, or the name of a map in MOBADJ_MAPS or mobadj's maps/) and
    print a summary.

    Reports asymmetric or dangling adjacencies, unknown names, duplicate ids, unreachable
    provinces, home centres that are not supply centres and impossible starting units,
    each with its line.  The exit status is 1 when there is any error.
    """
    path = map_path(file)
    if not path.exists():
        named = os.fspath(path) != file and os.sep not in file
        where = (f" (a name alone is looked up in MOBADJ_MAPS, then in mobadj's maps/; for "
                 f"a map of your own give its path, e.g. maps/{file}.yaml)" if named else "")
        raise click.BadParameter(f"no such map file: {path}{where}", param_hint="FILE")
    try:
        report = inspect_map(path)
    except OSError as exc:
        raise click.ClickException(f"cannot read {path}: {exc.strerror or exc}") from None
    for finding in report.findings:
        click.echo(f"{path}:{finding.line}: {finding.severity}: {finding.message} "
                   f"[{finding.kind}]")
    if not quiet:
        for line in report.summary_lines():
            click.echo(line)
        if balance and report.game_map is not None and not report.errors:
            for line in balance_lines(report.game_map):
                click.echo(line)
    if report.errors:
        raise SystemExit(1)


@map_group.command("start")
@click.argument("map_name", metavar="MAP", default="standard")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the position file to OUTPUT instead of standard output.")
@click.option("--year", type=click.IntRange(1, 9999), default=None,
              help="The first year (default: the map's own).")
def start_cmd(map_name: str, output: Path | None, year: int | None) -> None:
    """Print MAP's starting position (a name, or a map file's path; default standard) as
    the position file `mobadj adjudicate` reads: the first phase of a game adjudicated from
    the command line, phase after phase with `adjudicate --next`."""
    from mobadj.board import MapFileError, load_map
    from mobadj.cli.position_file import position_yaml, write_position
    from mobadj.engine import VariantError, rules_for

    try:
        game_map = load_map(map_name)
        rules = rules_for(game_map)
        position = rules.initial_position(game_map, year)
    except (MapFileError, OSError, VariantError, ValueError) as exc:
        raise click.ClickException(str(exc)) from None
    if year is not None and getattr(position.phase, "year", year) != year:
        raise click.BadParameter(f"the {game_map.name} map's games start in "
                                 f"{position.phase.long_name()}, by its rules", param_hint="--year")
    header = [f"{position.phase.long_name()} ({position.phase}) on the {game_map.name} map:",
              "the starting position, written by `mobadj map start`."]
    if output is None:
        click.echo(position_yaml(position.to_data(), header), nl=False)
        return
    try:
        write_position(output, position.to_data(), header)
    except OSError as exc:
        raise click.ClickException(f"cannot write {output}: {exc.strerror or exc}") from None
