"""``mobadj map render``: draw a board and a position as SVG or PNG."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import click

from mobadj.board import MAX_DIGITS
from mobadj.cli.map_cmd import map_group

if TYPE_CHECKING:
    from mobadj.board import GameMap
    from mobadj.render import Layout


def default_map() -> str | None:
    """The board drawn when none is named: the one map played by a variant of its own (the
    registry's), None when there is no such single map."""
    from mobadj.engine import Rules, VariantError, known_maps, rules_class

    variants = []
    for name in known_maps():
        try:
            if rules_class(name) is not Rules:
                variants.append(name)
        except VariantError as exc:  # a map whose variant cannot be loaded is no default
            click.echo(f"warning: {exc}", err=True)
            continue
    return variants[0] if len(variants) == 1 else None


def _read_text(path: str) -> str:
    """A file's text in whatever encoding it is (a notice on standard error if not UTF-8)."""
    from mobadj.orders.textfile import read_text_file

    try:
        text, notice = read_text_file(path)
    except OSError as exc:
        raise click.ClickException(f"cannot read {path}: {exc.strerror or exc}") from None
    if notice:
        click.echo(f"note: {notice}", err=True)
    return text


def _read_yaml(path: str, text: str | None = None) -> object:
    """The data of a YAML file (``text``: its text, when read already)."""
    from mobadj.board import YamlError, load_data

    try:
        return load_data(_read_text(path) if text is None else text)
    except YamlError as exc:
        raise click.ClickException(f"{path}: not valid YAML (line {exc.line}, column "
                                   f"{exc.column}): {exc.message}") from None


def _whole_number(text: str) -> int:
    if len(text) > MAX_DIGITS:
        raise ValueError(f"a number of {len(text):,} digits (at most {MAX_DIGITS:,})")
    return int(text)


def _read_results(path: str) -> dict:
    try:
        data = json.loads(_read_text(path), parse_int=_whole_number)
    except json.JSONDecodeError as exc:
        raise click.ClickException(f"{path}: not valid JSON (line {exc.lineno}, column "
                                   f"{exc.colno}): {exc.msg}") from None
    except ValueError as exc:
        raise click.ClickException(f"{path}: not valid JSON: {exc}") from None
    except RecursionError:
        raise click.ClickException(f"{path}: nested too deeply") from None
    if isinstance(data, list):  # a bare list of order results
        return {"orders": data}
    if not isinstance(data, dict):
        raise click.ClickException(f"{path}: expected adjudication results (a JSON object "
                                   f"with 'orders', as `mobadj adjudicate --json` prints)")
    return data


def _phase_caption(game_map: GameMap, phase: object) -> str:
    """The title of a picture of adjudicated results: their phase, in words and as written
    ("Spring 1901 Movement (S1901M)"), as ``mobadj adjudicate --picture`` titles it; the
    text as it is when the map's calendar does not read it."""
    from mobadj.engine import VariantError, rules_for

    try:
        read = rules_for(game_map).calendar.parse(phase)
    except (ValueError, VariantError):
        return str(phase or "")
    return f"{read.long_name()} ({read})"


def _scale(_ctx: click.Context, _param: click.Parameter, value: float) -> float:
    if not 0 < value <= MAX_SCALE:  # also refuses nan
        raise click.BadParameter(f"{value}: the size factor must be above 0 and at most "
                                 f"{MAX_SCALE:g}")
    return value


MAX_SCALE = 10.0
"""The largest size factor of a PNG picture (already some 10,000 pixels wide)."""


@map_group.command("render")
@click.argument("position", required=False, type=click.Path(exists=True, dir_okay=False))
@click.option("--map", "map_name", default=None,
              help="Map name (maps/<name>.yaml) or path; default: the map POSITION's first "
                   "line names (as `map start` and `adjudicate --next` write it), else the "
                   "one map with a variant of its own, else standard.")
@click.option("--layout", "layout_name", default=None,
              help="Layout file; default maps/<map>.layout.yaml.")
@click.option("--orders", "results", type=click.Path(exists=True, dir_okay=False),
              help="Adjudication results (JSON, as `mobadj adjudicate --json` prints): "
                   "draws its moves, supports and convoy routes and the units built and "
                   "removed; without POSITION, also its units and centres.")
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False),
              help="Output file: .svg or .png.")
@click.option("--scale", default=1.0, show_default=True, callback=_scale,
              help=f"Size factor for PNG output (above 0, at most {MAX_SCALE:g}).")
@click.option("--title", default=None, help="Title above the board.")
def render_cmd(position: str | None, map_name: str | None, layout_name: str | None,
               results: str | None, output: str, scale: float, title: str | None) -> None:
    """Draw the board with the units of POSITION (YAML; default: the starting position).

    Writes SVG, or PNG when OUTPUT ends in .png.  A POSITION file (docs/mobtown-map.md):

    \b
      caption: August 1919, week 2
      units: {capone: [G DAN, D DAN], lepke: [G Que]}
      centers: {capone: [DAN, DAS, Bnx]}
      dislodged: {lepke: [{unit: G Pie, from: Doc, via: subway}]}
      moves: [{power: capone, from: DAN, to: Lex, via: ground, result: succeeds}]
      supports: [{power: capone, from: DAS, unit: DAN, to: Lex, result: succeeds}]
    """
    from mobadj.board import MapFileError, load_map
    from mobadj.cli.position_file import map_hint, named_map
    from mobadj.render import LayoutError, ViewError, load_layout, render_svg
    from mobadj.render.png import PngUnavailableError, svg_to_png
    from mobadj.render.position import (
        as_view,
        marks_from_results,
        moves_from_results,
        supports_from_results,
    )

    suffix = Path(output).suffix.lower()
    if suffix not in (".svg", ".png"):
        raise click.BadParameter("the output file must end in .svg or .png", param_hint="-o")
    text = _read_text(position) if position else None
    named = named_map(text) if text is not None else None
    data = None
    reading: str | None = None
    try:
        game_map = load_map(map_name or named or default_map() or "standard")
        layout = load_layout(layout_name or game_map.name)
        data = _read_yaml(position, text) if position else None
        if data is not None and not isinstance(data, dict):
            raise click.ClickException(f"{position}: a position is a mapping with 'units'")
        extra = _read_results(results) if results else {}
        if data is None and "units" in extra:
            data = {k: extra[k] for k in ("units", "centers", "dislodged") if k in extra}
            data["caption"] = _phase_caption(game_map, extra.get("phase", ""))
        reading = position or results  # the file being read, which an error names
        view = as_view(game_map, data)
        reading = results
        # results that list their moves (and supports) as such (Mobtown's, with the route of
        # each) are drawn from those lists; the orders give the rest, each drawn once
        listed = as_view(game_map, {k: extra[k] for k in ("moves", "supports") if k in extra})
        orders = extra.get("orders") or []
        view.moves.extend(listed.moves if "moves" in extra
                          else moves_from_results(game_map, orders))
        view.supports.extend(listed.supports if "supports" in extra
                             else supports_from_results(game_map, orders))
        view.adjustments, view.convoys = marks_from_results(game_map, orders)
        if "defaults" in extra:  # the removals and disbands the rules made (civil disorder)
            view.adjustments += marks_from_results(game_map, extra["defaults"])[0]
        reading = None
        svg = render_svg(game_map, layout, view, title=title)
        if suffix == ".png":
            Path(output).write_bytes(svg_to_png(svg, scale=scale))
        else:
            Path(output).write_text(svg, encoding="utf-8")
    except ViewError as exc:
        hint = ""
        if map_name is None and named is None:  # the map was not chosen: say which it was
            hint = f" ({map_hint(data, game_map.name, 'drawn')})"
        raise click.ClickException(f"{reading + ': ' if reading else ''}{exc}{hint}") from None
    except (MapFileError, FileNotFoundError, LayoutError, PngUnavailableError) as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"wrote {output}")


def _no_city_plan(game_map: GameMap, layout: Layout | None) -> str:
    """Why a map has no city plan that defines its adjacency ("" when it has one): a plan
    is a grid layout from which the Gangs' moves (G) are derived, as on Mobtown II."""
    if layout is None:
        return "it has no layout file"
    if not layout.is_grid:
        return f"{layout.source} draws polygons, not a grid plan"
    if "G" not in game_map.unit_kinds:
        return (f"{layout.source} is a drawing only; the adjacency is the map file's "
                "(a plan defines Gang moves, and this map has no Gangs)")
    return ""


@map_group.command("plan")
@click.argument("map_name", required=False)
@click.option("--layout", "layout_name", default=None,
              help="Layout file; default maps/<map>.layout.yaml.")
@click.option("--emit", is_flag=True,
              help="Print the adjacency the plan derives, in the map file's format.")
def plan_cmd(map_name: str | None, layout_name: str | None, emit: bool) -> None:
    """Check that a map's adjacency is exactly what its city plan (grid layout) shows
    (MAP_NAME defaults to the one map with a variant of its own).

    Lists every edge the plan and the map disagree on; exit status 1 if any.  With --emit,
    prints each space's derived ``adj`` block instead, for a GM who redraws the city.  A map
    without a city plan (the standard map) is said to have none, with exit status 0.
    """
    from mobadj.board import MapFileError, load_map
    from mobadj.render import LayoutError, load_layout
    from mobadj.render.plan import adjacency_yaml, plan_differences

    map_name = map_name or default_map()
    if map_name is None:
        raise click.UsageError("name the map whose plan to check")
    try:
        game_map = load_map(map_name)
        try:
            layout = load_layout(layout_name or game_map.name)
        except LayoutError:
            if layout_name:  # a layout file named on the command line must exist
                raise
            layout = None
        why = _no_city_plan(game_map, layout)
        if why or layout is None:
            click.echo(f"{game_map.name} has no city plan to check: {why}")
            return
        if emit:
            click.echo(adjacency_yaml(game_map, layout), nl=False)
            return
        problems = plan_differences(game_map, layout)
    except (MapFileError, FileNotFoundError, LayoutError) as exc:
        raise click.ClickException(str(exc)) from None
    for problem in problems:
        click.echo(f"{layout.source}: {problem}")
    click.echo(f"{len(problems)} difference(s) between {game_map.name} and its plan")
    if problems:
        raise SystemExit(1)
