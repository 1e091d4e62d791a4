"""``mobadj adjudicate`` (one phase, printed for a GM) and ``mobadj batch`` (JSON lines)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click
import yaml

from mobadj.cli import main

#: mobadj.engine.rules.PARADOX_RULES (spelt out: the CLI starts without importing the engine)
PARADOX_RULES = ("szykman", "all_hold", "1982", "2000", "1971")


def _pair(text: str) -> tuple[str, str]:
    """``NAME=VALUE`` -> (name, value), a usage error otherwise."""
    name, sep, value = text.partition("=")
    if not sep:
        raise click.BadParameter(f"{text!r}: expected NAME=VALUE", param_hint="--option")
    return name.strip(), value.strip()


class InputError(click.ClickException):
    """Nothing could be adjudicated (a bad map, option, position or unreadable file): exit 2,
    like click's usage errors.  Exit 1 is kept for results printed with unreadable lines."""

    exit_code = 2


@main.command()
@click.option("--map", "map_name", default="standard", show_default=True,
              help="Map name (standard, ...) or a map YAML file.")
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON for tools.")
@click.option("--paradox", type=click.Choice(list(PARADOX_RULES)), default=None,
              help="Convoy paradox rule (DATC 4.A.2; default szykman); see docs/rulings.md.")
@click.option("--picture", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also draw the new position with the move arrows (.svg or .png).")
@click.option("--option", "options", multiple=True, metavar="NAME=VALUE",
              help="Rule option: a DATC option (docs/rulings.md, e.g. missing_coast=fail), "
                   "duplicate_orders=first (the first order for a unit counts, not the last) "
                   "or a Mobtown II game option (docs/mobtown-rulings.md); may be repeated.")
@click.argument("position", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.argument("orders", nargs=-1, type=click.Path(exists=True, dir_okay=False, path_type=Path))
def adjudicate(map_name: str, as_json: bool, paradox: str | None, position: Path,
               orders: tuple[Path, ...], picture: Path | None = None,
               options: tuple[str, ...] = ()) -> None:
    """Adjudicate one phase: POSITION (YAML, see docs/adjudication.md) and ORDERS files.

    Prints every power's orders with their results, the dislodged units with their
    retreats, centre changes and the next phase, as a GM would publish them.  Files may be
    in any encoding and shaped like mails (quotes and signatures are skipped); notes and
    warnings go to standard error.  Exit status: 0, or 1 when some order lines could not
    be read (the results are still printed), 2 when nothing could be adjudicated.
    """
    from mobadj.board.loader import load_map
    from mobadj.engine import adjudicate, position_from_data, rules_for
    from mobadj.engine.report import format_report, result_to_json
    from mobadj.engine.rules import coerce_options
    from mobadj.orders.duplicates import check_rule
    from mobadj.orders.files import read_order_files
    from mobadj.orders.textfile import read_text_file

    try:
        game_map = load_map(map_name)
    except Exception as exc:  # unknown map or a broken map file
        raise InputError(str(exc)) from None
    raw = dict(_pair(text) for text in options)
    try:
        duplicates = check_rule(raw.pop("duplicate_orders", "last"))
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--option") from None
    variant_cli = getattr(rules_for(game_map.name), "cli_adjudicate", None)
    if variant_cli is not None:  # a variant with its own phases and report (Mobtown II)
        from mobadj.mobtown.cli import parse_options

        chosen = parse_options(options)
        chosen["duplicate_orders"] = duplicates
        if paradox is not None:
            chosen["paradox"] = paradox
        try:
            text, files = variant_cli(game_map, position, orders, as_json, picture, chosen)
        except click.ClickException as exc:
            raise InputError(exc.message) from None
        _finish(text, files)
        return
    if paradox is not None:
        raw["paradox"] = paradox
    try:
        rules = rules_for(game_map.name, **coerce_options(raw))
    except ValueError as exc:
        raise InputError(str(exc)) from None
    try:
        text, notice = read_text_file(position)
        pos = position_from_data(yaml.safe_load(text), game_map)
    except OSError as exc:
        raise InputError(f"cannot read {position}: {exc.strerror or exc}") from None
    except Exception as exc:  # a YAML or position error, or anything odd in the file
        why = str(exc) if isinstance(exc, ValueError) else f"{type(exc).__name__}: {exc}"
        raise InputError(f"{position}: {why}") from None
    try:
        files = read_order_files(orders, game_map, duplicates=duplicates)
    except OSError as exc:
        raise InputError(f"cannot read {exc.filename}: {exc.strerror or exc}") from None
    if notice:
        files.notices.insert(0, notice)
    result = adjudicate(pos, files.orders, game_map, rules)
    as_data = result_to_json(result, files.errors)
    as_data["warnings"] = files.notices + files.warnings
    if as_json:
        report = json.dumps(as_data, indent=2) + "\n"
    else:
        report = format_report(result, game_map, files.errors)

    def draw() -> None:
        if picture is not None:
            _write_picture(picture, game_map, result.position, as_data["orders"])

    _finish(report, files, draw)


def _finish(report: str, files, then=None) -> None:  # noqa: ANN001 - an OrderFiles, a callback
    """Print the notes and warnings (standard error) and the report, do ``then()`` (draw the
    picture); exit 1 when some order lines could not be read."""
    for line in files.messages():
        click.echo(line, err=True)
    click.echo(report, nl=False)
    if then is not None:
        then()
    if files.errors:
        sys.exit(1)


def _write_picture(path: Path, game_map, position, results: list[dict]) -> None:  # noqa: ANN001
    """Draw ``position`` with the phase's moves and supports to ``path`` (.svg or .png)."""
    from mobadj.render import load_layout, render_png, render_svg
    from mobadj.render.position import as_view, moves_from_results, supports_from_results

    try:
        layout = load_layout(game_map.name)
    except Exception as exc:  # no layout file: the map cannot be drawn
        raise click.ClickException(f"cannot draw the {game_map.name} map: {exc}") from None
    view = as_view(game_map, position)
    view.moves.extend(moves_from_results(game_map, results))
    view.supports.extend(supports_from_results(game_map, results))
    try:
        if path.suffix.lower() == ".png":
            path.write_bytes(render_png(game_map, layout, view))
        else:
            path.write_text(render_svg(game_map, layout, view), encoding="utf-8")
    except OSError as exc:
        raise click.ClickException(f"cannot write {path}: {exc}") from None


@main.command()
@click.argument("cases", type=click.File("rb"))
def batch(cases) -> None:  # noqa: ANN001 - click file object
    """Adjudicate many phases: one JSON object per line of CASES ("-" for stdin), one result
    per line on standard output, in the same order (contract in docs/adjudication.md).
    A line that cannot be read or adjudicated is answered with its errors; the rest run."""
    import os

    from mobadj.batch import run_batch

    try:
        run_batch(cases, sys.stdout)
        sys.stdout.flush()
    except BrokenPipeError:  # the reader stopped early (e.g. `| head`): not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
