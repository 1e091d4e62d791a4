"""One declaration per judge command: a command declared here, in a test module, with no
other edit, is read, done, listed in HELP and explained when misused, by real mails."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mobadj.judge import registry
from mobadj.judge.commands import BadCommandLine, Command, help_text, parse_body, parse_line
from mobadj.judge.habits import OTHER_JUDGES
from mobadj.judge.hosts import host_for
from mobadj.judge.names import Names
from mobadj.judge.registry import CommandSpec, Context, Words
from mobadj.judge.store import Mail

from .helpers import mail


def _nudge(ctx: Context, cmd: Command) -> str:
    """A player reminds another power's player of the deadline."""
    game = ctx.in_game
    seat = Names(host_for(game.kind), game.options).find(cmd.args["power"])
    player = ctx.judge.store.player(game.name, seat) if seat else None
    if player is None:
        return f"NUDGE: no player for {cmd.args['power']} in {game.name}."
    ctx.out.append(Mail(player.email, f"{game.name}: a nudge from {ctx.seat}",
                        f"{ctx.seat} reminds you of the deadline. {cmd.args['note']}".strip(),
                        game=game.name))
    return f"{player.power} was nudged."


NUDGE = CommandSpec(
    "nudge", "NUDGE <power> [note]", "ARG ARG*",
    lambda w: {"power": w.given[0], "note": " ".join(w.given[1:])},
    aliases=("poke",), spellings=(r"give[\s_-]+a[\s_-]+nudge[\s_-]+to",),
    help=(("NUDGE <power> [note]", "remind a power's player of the deadline"),),
    player=_nudge)


@pytest.fixture
def nudge():
    with registry.declared(NUDGE):
        yield


def send(judge, sender, body):
    return judge.handle_mail(mail(sender, body))


def test_a_declared_command_is_read_with_its_aliases_and_spellings(nudge):
    assert parse_line("NUDGE east hurry up", 4) == Command(
        "nudge", {"power": "east", "note": "hurry up"}, 4, "NUDGE east hurry up")
    assert parse_line("poke east").name == "nudge"
    assert parse_line("Give a nudge to east").args["power"] == "east"


def test_a_declared_command_misused_gets_its_usage_and_a_did_you_mean(nudge):
    bad = parse_line("nudge", 3)
    assert isinstance(bad, BadCommandLine)
    assert str(bad) == ("line 3, column 6: cannot read the NUDGE command; expected: "
                        "NUDGE <power> [note]")
    assert parse_body("NUGDE east").near_commands == {1: "nudge"}


def test_a_declared_command_is_in_help(nudge):
    assert "  NUDGE <power> [note]               remind a power's player of the deadline" in \
        help_text(None)
    assert help_text("poke") == "Usage: NUDGE <power> [note]"


def test_a_declared_command_is_done_by_mail(judge, table, nudge):
    reply = send(judge, "north@test.org", table.signon("NORTH") + "NUDGE east see you soon")
    assert "EAST was nudged." in reply[0].body
    told = [m for m in reply if m.to == "east@test.org"]
    assert told and "NORTH reminds you of the deadline. see you soon" in told[0].body
    # misused in a mail: the usage, at its line
    reply = send(judge, "north@test.org", table.signon("NORTH") + "NUDGE")
    assert ("Error: line 2, column 6: cannot read the NUDGE command; expected: "
            "NUDGE <power> [note]") in reply[0].body
    # a player's command: the GM is told so, and a mail without a sign-on is asked for one
    reply = send(judge, "gm@test.org", "GM g1 gm-secret\nNUDGE east")
    assert "NUDGE is a player command." in reply[0].body
    reply = send(judge, "stranger@test.org", "NUDGE east")
    assert "NUDGE: please sign on first: SIGNON <game> <power> <password>" in reply[0].body


def test_without_its_declaration_the_word_is_an_order_line_again(judge, table):
    with registry.declared(NUDGE):
        assert parse_line("nudge east") is not None
    assert parse_line("nudge east") is None
    assert "NUDGE" not in help_text(None)


def test_a_keyword_or_alias_is_declared_once():
    with pytest.raises(ValueError, match="already has a command 'status'"):
        registry.declare(CommandSpec("inquire", "INQUIRE", aliases=("status",)))
    with pytest.raises(ValueError, match="one lower-case word"):
        CommandSpec("two words", "TWO WORDS")


def test_every_judge_command_has_a_usage_and_a_place_in_help():
    text = help_text(None)
    for spec in registry.declarations().values():
        assert spec.usage
        named = [form for form, _ in spec.help] + [spec.open_help, spec.gm_help]
        assert any(n and n in text for n in named) or spec.keyword in (
            "gm", "create", "endpress", "notready", "nodraw", "noconcede", "password",
            "unwatch", *OTHER_JUDGES), spec.keyword  # in another's line, or in the guides
    assert registry.Words(["a", None, "b"], "x a b").given == ["a", "b"]
    assert Words([], "x").at == []


def test_the_judge_holds_its_parts_and_inherits_from_none_of_them():
    from mobadj.judge.base import JudgeBase
    from mobadj.judge.core import Judge

    assert Judge.__mro__ == (Judge, JudgeBase, object)
    assert set(JudgeBase.__annotations__) == {
        "notices", "endings", "accounts", "turns", "seats", "forming", "players", "gm",
        "limits", "unsigned", "habits"}


def _doc_example() -> list[CommandSpec]:
    """The declarations of docs/judge-commands.md's "Adding a command", as the page shows
    them (collected, not declared: the test declares them for its own time)."""
    doc = Path(__file__).resolve().parents[2] / "docs" / "judge-commands.md"
    section = doc.read_text(encoding="utf-8").split("## Adding a command", 1)[1]
    block = re.search(r"```python\n(.*?)```", section, re.S)
    assert block, "docs/judge-commands.md lost its example"
    found: list[CommandSpec] = []
    code = block.group(1).replace("from mobadj.judge.registry import CommandSpec, Context, "
                                  "declare", "from mobadj.judge.registry import CommandSpec, "
                                  "Context")
    exec(compile(code, "judge-commands.md", "exec"), {"declare": found.append})
    return found


def test_the_documented_example_adds_a_command_with_one_declaration(judge, table):
    specs = _doc_example()
    assert [s.keyword for s in specs] == ["when"]
    with registry.declared(*specs):
        deadline = send(judge, "north@test.org", table.signon("NORTH") + "WHEN")[0].body
        assert "Deadline of g1: " in deadline.split("Signed on as North in g1.")[1]
        assert "Deadline of g1: " in send(judge, "gm@test.org", "GM g1 gm-secret\nDUE")[0].body
        assert "WHEN: please sign on first" in send(judge, "x@test.org", "WHEN")[0].body
        assert parse_line("When is the deadline?") is None  # a sentence
        assert "  WHEN                               the deadline, in your time zone" in \
            help_text(None)
        assert help_text("when") == "Usage: WHEN"
        assert "WHEN" in help_text(None).split("GM commands")[1]
