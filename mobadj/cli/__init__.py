"""The ``mobadj`` command line: one root group; each command lives in its own module."""

from __future__ import annotations

import importlib
from collections.abc import Iterable

import click

from mobadj import __version__


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


# Each module registers its commands on ``main`` when imported.
COMMAND_MODULES = (
    "mobadj.cli.map_cmd",
    "mobadj.cli.render_cmd",
    "mobadj.cli.adjudicate_cmd",
    "mobadj.cli.play_cmd",
    "mobadj.cli.judge_cmd",
    "mobadj.cli.web_cmd",
)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="mobadj")
def main() -> None:
    """mobadj: adjudicate Diplomacy and Mobtown II, run an email judge, play card games."""


for _name in COMMAND_MODULES:
    importlib.import_module(_name)
