"""Every command's --help reads as prose: no stray run of spaces inside a sentence (a
docstring's indent kept by click once something is appended to it)."""

from __future__ import annotations

import re

import click
from click.testing import CliRunner

from mobadj.cli import main


def _commands(group: click.Group, path: tuple[str, ...] = ()):
    ctx = click.Context(group)
    for name in group.list_commands(ctx):  # (mobadj loads a command when it is asked for)
        yield (*path, name)
        command = group.get_command(ctx, name)
        if isinstance(command, click.Group):
            yield from _commands(command, (*path, name))


def test_no_help_text_has_a_gap_inside_a_sentence() -> None:
    commands = list(_commands(main))
    assert ("play",) in commands and ("game", "add-player") in commands
    for path in [(), *commands]:
        result = CliRunner().invoke(main, [*path, "--help"], terminal_width=80)
        assert result.exit_code == 0, (path, result.output)
        prose = result.output.split("\nOptions:")[0].split("\nCommands:")[0]
        gaps = [line for line in prose.splitlines()[1:] if re.search(r"\S {3,}\S", line)]
        assert gaps == [], path
