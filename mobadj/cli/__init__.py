"""The ``mobadj`` command line: one root group; each command lives in its own module."""

from __future__ import annotations

import importlib
import io
import sys
from collections.abc import Iterable

import click

from mobadj import __version__

__all__ = ["COMMAND_MODULES", "PROGRAM", "game_options", "main", "option_pairs", "run",
           "whole_process"]


def option_pairs(pairs: Iterable[str], shape: str = "NAME=VALUE",
                 hint: str = "--option") -> dict[str, str]:
    """``NAME=VALUE`` texts of a repeated option -> {name: value} (both stripped); a usage
    error for a text without ``=`` (``shape``: how the command's help writes the option).
    Each command then reads the values its own way."""
    out: dict[str, str] = {}
    for text in pairs:
        name, sep, value = text.partition("=")
        if not sep:
            raise click.BadParameter(f"{text!r}: expected {shape}", param_hint=hint)
        out[name.strip()] = value.strip()
    return out


def game_options(pairs: Iterable[str]) -> dict[str, object]:
    """``--option key=value`` pairs of a card game, each value read as a YAML scalar
    (``modules=4`` is a number, ``deck=my.yaml`` a text).  A value YAML cannot read, or
    reads as something a saved game could not hold as JSON (a date, an integer of
    thousands of digits, a nesting too deep, not-a-number), stays the text as written, for
    the game to accept or refuse by name."""
    import json

    import yaml

    out: dict[str, object] = {}
    for key, value in option_pairs(pairs, "key=value").items():
        if not key:
            raise click.BadParameter(f"{key}={value}: the option has no name",
                                     param_hint="--option")
        try:
            read = yaml.safe_load(value)
            json.dumps(read, allow_nan=False)
        except (yaml.YAMLError, ValueError, TypeError, RecursionError):
            read = value
        out[key] = read
    return out


#: Each command and the modules that define it: a module registers its commands on ``main``
#: when imported, and is imported only when one of its commands is used (or listed), so a
#: command starts without loading the others (``mobadj batch`` answers in a blink).
COMMANDS: dict[str, tuple[str, ...]] = {
    "adjudicate": ("mobadj.cli.adjudicate_cmd",),
    "batch": ("mobadj.cli.batch_cmd",),
    "cards": ("mobadj.cli.cards_cmd",),
    "game": ("mobadj.cli.judge_cmd",),
    "map": ("mobadj.cli.map_cmd", "mobadj.cli.render_cmd"),
    "play": ("mobadj.cli.play_cmd",),
    "serve": ("mobadj.cli.judge_cmd",),
    "store": ("mobadj.cli.store_cmd",),
    "web": ("mobadj.cli.web_cmd",),
}
COMMAND_MODULES = tuple(dict.fromkeys(m for mods in COMMANDS.values() for m in mods))


class LazyGroup(click.Group):
    """A group whose commands are imported when asked for (click's lazy-loading pattern)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(COMMANDS) | set(self.commands))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        for module in COMMANDS.get(cmd_name, ()):
            importlib.import_module(module)
        return super().get_command(ctx, cmd_name)


def _show_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    from mobadj import build

    click.echo(f"mobadj, version {__version__} ({build()} build)")
    ctx.exit()


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True,
              callback=_show_version,
              help="Show the version and the build (pure or compiled), then exit.")
def main() -> None:
    """mobadj: adjudicate Diplomacy and Mobtown II, run an email judge, play card games."""


PROGRAM = object()
"""``main``'s context object when it runs as the ``mobadj`` program itself (:func:`run`)."""


def run() -> None:
    """The ``mobadj`` program (its console script and ``python -m mobadj``): :func:`main` as
    the whole process.  A command may then end the process without tearing the interpreter
    down (:func:`whole_process`); called from other code, ``main`` never does."""
    tolerant_output()
    main(obj=PROGRAM)


def tolerant_output() -> None:
    """Standard output in an encoding that cannot hold every character (Windows writes
    ``> results.txt`` in its ANSI code page, cp1252) gets ``?`` for each character it
    lacks (an emoji, a Cyrillic file name): the report is written, not lost to a
    traceback.  Standard error already writes such a character as ``\\U0001f600``."""
    out = sys.stdout
    if isinstance(out, io.TextIOWrapper) and out.errors == "strict":
        out.reconfigure(errors="replace")


def whole_process() -> bool:
    """Is the running command the whole process (:func:`run`), not a call from other code?"""
    ctx = click.get_current_context(silent=True)
    return ctx is not None and ctx.find_root().obj is PROGRAM
