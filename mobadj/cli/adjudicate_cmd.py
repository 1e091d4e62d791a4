"""``mobadj adjudicate``: one phase, printed for a GM (or as JSON for tools)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import click

from mobadj.cli import main, option_pairs
from mobadj.errors import CommandLineError

#: mobadj.engine.rules.PARADOX_RULES (spelt out: the CLI starts without importing the engine)
PARADOX_RULES = ("szykman", "all_hold", "1982", "2000", "1971")


class InputError(CommandLineError, click.ClickException):
    """Nothing could be adjudicated (a bad map, option, position or unreadable file): exit 2,
    like click's usage errors.  Exit 1 is kept for results printed with unreadable lines."""

    exit_code = 2


class GivenFile(click.Path):
    """A POSITION or ORDERS file: a folder or a missing file is refused as the GM typed it
    (``C:\\Users\\Bob\\orders.txt``, not with its backslashes doubled), a folder with
    how to give the files in it."""

    def __init__(self) -> None:
        super().__init__(exists=True, dir_okay=False, path_type=Path)

    def convert(self, value, param, ctx):  # noqa: ANN001, ANN201 - click's signature
        if isinstance(value, str):
            if os.path.isdir(value) and param is not None and param.name == "position":
                self.fail(f"{value} is a folder, not a position file", param, ctx)
            if os.path.isdir(value):
                self.fail(f"{value} is a folder: give the files in it, e.g. "
                          f"{os.path.join(value, '*')}", param, ctx)
            if not os.path.exists(value):
                self.fail(f"{value}: no such file", param, ctx)
        return super().convert(value, param, ctx)


@main.command()
@click.option("--map", "map_name", default=None,
              help="Map name (standard, ...) or a map YAML file; default: the map POSITION's "
                   "first line names (as `map start` and `--next` write it), else standard.")
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON for tools.")
@click.option("--paradox", type=click.Choice(list(PARADOX_RULES)), default=None,
              help="Convoy paradox rule (DATC 4.A.2; default szykman); see docs/rulings.md.")
@click.option("--picture", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also draw the new position with the orders: arrows, supports, convoy "
                   "routes, units built and removed (.svg or .png).")
@click.option("--option", "options", multiple=True, metavar="NAME=VALUE",
              help="Rule option: a DATC option (docs/rulings.md, e.g. missing_coast=fail), "
                   "duplicate_orders=first (the first order for a unit counts, not the last) "
                   "or a game option of the map's variant (its rulings page, docs/maps.md); "
                   "may be repeated.")
@click.option("--next", "next_file", type=click.Path(dir_okay=False, path_type=Path),
              default=None, metavar="FILE",
              help="Also write the position after this phase to FILE (YAML, the next "
                   "phase's POSITION); not written when some order line could not be read "
                   "or a file gave no order at all (exit status 1). "
                   "FILE may be POSITION itself: the game moves on in place.")
@click.argument("position", type=GivenFile())
@click.argument("orders", nargs=-1, type=GivenFile())
def adjudicate(map_name: str | None, as_json: bool, paradox: str | None, position: Path,
               orders: tuple[Path, ...], picture: Path | None = None,
               options: tuple[str, ...] = (), next_file: Path | None = None) -> None:
    """Adjudicate one phase: POSITION (YAML, see docs/adjudication.md) and ORDERS files.

    Prints every power's orders with their results, the dislodged units with their
    retreats, centre changes and the next phase, as a GM would publish them.  Files may be
    in any encoding and shaped like mails (quotes and signatures are skipped; a mail saved
    whole as .eml is decoded as the judge reads it); notes and warnings go to standard
    error.  Exit status: 0, or 1 when some order lines could not be read or --next was not
    written (the results are still printed), 2 when nothing could be adjudicated.
    """
    if next_file is not None and not next_file.resolve().parent.is_dir():
        raise click.BadParameter(f"{next_file}: no such folder", param_hint="--next")
    if picture is not None and picture.suffix.lower() not in (".svg", ".png"):
        raise click.BadParameter(f"{picture.name!r}: the picture file must end in .svg or .png",
                                 param_hint="--picture")
    from mobadj.board import MapFileError, load_map
    from mobadj.cli.position_file import map_hint, named_map, plain_yaml
    from mobadj.engine import (
        VariantError,
        adjudicate,
        format_report,
        rules_for,
        with_options,
    )
    from mobadj.orders.duplicates import check_rule
    from mobadj.orders.files import read_order_files
    from mobadj.orders.textfile import read_text_file

    try:
        text, notice = read_text_file(position)
    except OSError as exc:
        raise InputError(f"cannot read {position}: {exc.strerror or exc}") from None
    text, typed = plain_yaml(text, position.name)
    named = named_map(text)
    try:
        game_map = load_map(map_name or named or "standard")
        rules = rules_for(game_map)
    except (MapFileError, OSError, VariantError) as exc:  # unknown map, broken map file
        if map_name is None and named is not None:
            raise InputError(f"{position} names the {named} map, which is not here ({exc}): "
                             "give --map NAME or FILE") from None
        raise InputError(str(exc)) from None
    mismatch = ""  # the map --map chose, when the file names another
    if map_name is not None and named is not None and named != game_map.name:
        mismatch = f"written on the {named} map, read on the {game_map.name} map (--map)"
    raw = option_pairs(options)
    try:  # how order files are read, not a rule of the adjudicator
        duplicates = check_rule(raw.pop("duplicate_orders", "last"))
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--option") from None
    if paradox is not None:
        raw["paradox"] = paradox
    try:
        rules = with_options(rules, raw)
    except ValueError as exc:
        raise InputError(str(exc)) from None
    from mobadj.board import load_data

    data = None
    try:
        data = load_data(text)
        pos = rules.position_from_data(data, game_map)
    except VariantError as exc:  # a hook's answer the engine cannot use
        raise InputError(str(exc)) from None
    except (ValueError, RecursionError) as exc:  # not YAML (with its line), no position
        why = str(exc) if isinstance(exc, ValueError) else f"{type(exc).__name__}: {exc}"
        swapped = _orders_given_first(text, game_map, rules.parse_orders, position)
        if swapped:
            raise InputError(f"{position}: {why}; {swapped}") from None
        if map_name is None and named is None:  # the map was not chosen: say which it was
            why += f" ({map_hint(data, game_map.name)})"
        elif mismatch:
            why += f" ({mismatch}; give --map {named})"
        raise InputError(f"{position}: {why}") from None
    try:
        files = read_order_files(orders, game_map, rules.parse_orders, duplicates,
                                 saved_mail=_saved_mail)
    except OSError as exc:
        raise InputError(f"cannot read {exc.filename}: {exc.strerror or exc}") from None
    if typed:
        files.notices.insert(0, typed)
    if notice:
        files.notices.insert(0, notice)
    files.warnings[:0] = ([f"{position.name}: {mismatch}"] if mismatch else []) + unknown_keys(
        data, rules.position_keys, position)
    try:
        result = adjudicate(pos, files.orders, game_map, rules)
    except VariantError as exc:  # a hook's answer the engine cannot use (mobadj.engine.hooks)
        raise InputError(str(exc)) from None
    from mobadj.batch import phase_result

    as_data = phase_result(result, files.errors, rules, game_map)
    as_data["warnings"] = files.notices + files.warnings
    for line in files.messages():  # notes and warnings: standard error
        click.echo(line, err=True)
    if as_json:
        click.echo(json.dumps(as_data, indent=2))
    else:
        click.echo(format_report(result, game_map, files.errors, rules=rules), nl=False)
    if picture is not None:
        drawn = rules.picture_data(result)
        _write_picture(picture, game_map, drawn or result.position,
                       [*as_data["orders"], *as_data["defaults"]],
                       f"{result.phase.long_name()} ({result.phase})")
    written = next_file is None or _write_next(next_file, result, game_map, files.errors,
                                               files.empty, position)
    if files.errors or not written:  # the results are printed, but some lines were not read
        sys.exit(1)


def _orders_given_first(text: str, game_map: Any, parse: Any, position: Path) -> str:
    """For a POSITION that is no position but reads as orders (the arguments swapped): a
    hint that the position comes first, quoting an order it holds; else ""."""
    try:
        read = parse(text, game_map)
    except Exception:  # noqa: BLE001 - only a hint: whatever the reader makes of it
        return ""
    if len(read.orders) < max(1, len(read.errors)):  # not mostly orders
        return ""
    return (f"{position.name} looks like an order file (it holds orders such as "
            f"{read.orders[0].text.strip()!r}): the position comes first: "
            "mobadj adjudicate POSITION ORDERS...")


def _saved_mail(raw: bytes) -> str:
    """The text of an order file that is a MIME mail saved whole, read as the judge reads
    a mail (mobadj.judge, imported only for such a file)."""
    from mobadj.judge import saved_mail_text

    return saved_mail_text(raw)


def _write_next(path: Path, result: Any, game_map: Any, errors: list[Any], empty: list[str],
                read: Path) -> bool:
    """Write the position after the phase to ``path`` (``--next``), unless some order line
    could not be read or some file gave no order at all: its author's orders would be lost
    from a game that moved on (perhaps over the very file read), so the GM fixes the file
    and runs the phase again.  Whether it was written."""
    if errors:
        click.echo(f"{path}: not written: some order lines could not be read; fix them and "
                   "run the phase again", err=True)
        return False
    if empty:
        click.echo(f"{path}: not written: no order was read from {', '.join(empty)}; check "
                   "the file (a player's orders would be lost) and run the phase again",
                   err=True)
        return False
    from mobadj.cli.position_file import write_position

    after = result.position
    header = [f"{after.phase.long_name()} ({after.phase}) on the {game_map.name} map:",
              f"the position after {result.phase.long_name()} ({result.phase}),",
              f"written by `mobadj adjudicate --next` from {read.name}."]
    try:
        write_position(path, after.to_data(), header)
    except OSError as exc:
        raise click.ClickException(f"cannot write {path}: {exc.strerror or exc}") from None
    click.echo(f"The next position: {path}", err=True)
    return True


def unknown_keys(data: Any, known: tuple[str, ...], path: Path) -> list[str]:
    """A warning for each key of a position file that its map's positions do not have (the
    key is ignored), with the known key it most resembles."""
    from mobadj.engine import unknown_keys as unknown

    return [f"{path.name}: {warning}"
            for warning in unknown(data if isinstance(data, dict) else (), known)]


def _write_picture(path: Path, game_map, position, results: list[dict],  # noqa: ANN001
                   caption: str) -> None:
    """Draw ``position`` (any shape render.as_view reads) with what ``results`` (the
    published orders) draw on it (arrows, supports, convoy routes, units built and removed)
    to ``path`` (.svg or .png), titled with ``caption``: the phase adjudicated, whose orders
    the arrows are (the units stand where that phase left them)."""
    import yaml

    from mobadj.render import (
        PngUnavailableError,
        load_layout,
        render_png,
        render_svg,
        results_view,
    )

    try:
        layout = load_layout(game_map.name)
    except (OSError, ValueError, yaml.YAMLError) as exc:  # no layout file, or a broken one
        raise click.ClickException(f"cannot draw the {game_map.name} map: {exc}") from None
    view = results_view(game_map, position, results)
    view.caption = caption
    try:
        if path.suffix.lower() == ".png":
            path.write_bytes(render_png(game_map, layout, view))
        else:
            path.write_text(render_svg(game_map, layout, view), encoding="utf-8")
    except (OSError, ImportError, PngUnavailableError) as exc:  # an unwritable path, no
        raise click.ClickException(f"cannot write {path}: {exc}") from None  # PNG converter
