"""Reading Mice Heist commands (``commands.lark``) into actions, with friendly errors.

Syntax errors name the column, what was expected and a did-you-mean; skill names are
matched forgivingly (case, spaces or hyphens, a unique prefix) against the skills the
command may name, which are all public, so no error can reveal a secret.
"""

from __future__ import annotations

import difflib
import functools
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lark import Lark, Token, Transformer, UnexpectedCharacters, UnexpectedInput, v_args

from mobadj.cards.miceheist.actions import Action, Bet, Learn, Select, Test, Use
from mobadj.cards.miceheist.data import slug
from mobadj.cards.miceheist.engine import ACTIVATE, BET, LEARN
from mobadj.cards.protocol import CommandError

if TYPE_CHECKING:
    from mobadj.cards.miceheist.engine import MiceHeistState

COMMANDS = ("select", "bet", "pass", "use", "test", "learn", "skip")
EXAMPLES = "select A | bet 2 | pass | use scurry | use second-glance on 1 | test | learn sprint"
_HUMAN = {
    "JOB": "a job letter",
    "INT": "a number",
    "WORD": "a skill name",
    "COMMA": "','",
    "$END": "end of command",
}


@lru_cache(maxsize=1)
def _parser() -> Lark:
    return Lark(
        (Path(__file__).parent / "commands.lark").read_text(encoding="utf-8"),
        parser="lalr",
        maybe_placeholders=False,
    )


@v_args(inline=True)
class _ToRaw(Transformer):
    """Tree -> (kind, args) with names as plain words, resolved against the state later."""

    def name(self, *words: Token) -> str:
        return " ".join(str(w) for w in words)

    def uncover(self, *names: str) -> list[str]:
        return list(names)

    def select(self, job: Token) -> tuple:
        return ("select", str(job).upper())

    def bet(self, amount: Token, uncover: list[str] | None = None) -> tuple:
        return ("bet", int(amount), uncover or [])

    def abstain(self, uncover: list[str] | None = None) -> tuple:
        return ("bet", 0, uncover or [])

    def use(self, skill: str, chip: Token | None = None) -> tuple:
        return ("use", skill, int(chip) if chip is not None else None)

    def test(self) -> tuple:
        return ("test",)

    def learn(self, skill: str, discard: str | None = None) -> tuple:
        return ("learn", skill, discard)

    def skip(self) -> tuple:
        return ("learn", None, None)


def _expected(names: set[str] | frozenset[str]) -> list[str]:
    out = []
    for n in sorted(names):
        if "END" in n.upper():
            out.append("end of command")
        elif n in _HUMAN:
            out.append(_HUMAN[n])
        elif n.startswith("__ANON") or n.startswith("_"):
            continue
        else:
            out.append(f"'{n.lower()}'")
    return sorted(set(out))


def _syntax_error(text: str, err: UnexpectedInput, example: dict[str, str]) -> CommandError:
    column = getattr(err, "column", None)
    token = getattr(err, "token", None)
    if token is not None and token.type == "$END":
        column = len(text) + 1
    first = text.split()[0].lower() if text.split() else ""
    if not first:
        return CommandError("empty command", text=text, expected=[EXAMPLES])
    if first not in COMMANDS + ("attempt", "abstain", "activate", "done", "go", "resolve"):
        close = [c for c in COMMANDS if c.startswith(first)] or difflib.get_close_matches(
            first, COMMANDS, n=1, cutoff=0.5
        )
        return CommandError(
            f"unknown command '{first}'",
            text=text,
            column=1,
            expected=COMMANDS,
            suggestion=close[0] if close else None,
        )
    if isinstance(err, UnexpectedCharacters):
        pos = err.pos_in_stream if err.pos_in_stream is not None else len(text)
        found = text[pos] if pos < len(text) else ""
        what = f"unexpected '{found}'"
    else:
        what = f"unexpected '{token}'" if token and str(token) else "the command ends too soon"
    expected = _expected(getattr(err, "expected", None) or getattr(err, "allowed", None) or set())
    return CommandError(
        f"cannot read '{text}': {what}",
        text=text,
        column=column,
        expected=expected,
        suggestion=example.get(first),
    )


def _examples(state: MiceHeistState, player: int) -> dict[str, str]:
    """Example commands built from what the player can see, for did-you-mean hints."""
    jobs = [j for j in state.data.jobs if state.stacks[j]] or ["A"]
    mine = state.skills[player] or ["scurry"]
    market = state.market or ["sprint"]
    full = len(state.skills[player]) >= state.data.max_skills  # a learn must discard one
    return {
        "select": f"select {jobs[0]}",
        "attempt": f"select {jobs[0]}",
        "bet": "bet 1",
        "use": f"use {mine[0]}",
        "activate": f"use {mine[0]}",
        "learn": f"learn {market[0]}" + (f" discard {mine[0]}" if full else ""),
    }


def resolve_name(
    text: str, choices: list[str], what: str, state: MiceHeistState, full: str = "",
    start: int = 0,
) -> str:
    """The skill key among ``choices`` that ``text`` names (exact, loose or unique prefix);
    an error points at it in ``full`` from ``start`` on (the discarded skill after the
    word ``discard``, not the same name learnt before it)."""
    key = slug(text)
    if key in choices:
        return key
    loose = [c for c in choices if c.replace("-", "") == key.replace("-", "")]
    if len(loose) == 1:
        return loose[0]
    prefixed = [c for c in choices if c.startswith(key)]
    if len(prefixed) == 1:
        return prefixed[0]
    names = [state.data.skills[c].name for c in choices]
    close = difflib.get_close_matches(key, choices, n=1, cutoff=0.5)
    if len(prefixed) > 1:
        message = f"'{text}' could be " + " or ".join(state.data.skills[c].name for c in prefixed)
    elif choices:
        message = f"no skill '{text}' {what}"
    else:
        message = f"no skill '{text}' {what}: there are none"
    at = full.lower().find(text.lower(), start)
    raise CommandError(
        message,
        text=full,
        column=at + 1 if at >= 0 else None,
        expected=names,
        suggestion=close[0] if close else None,
    )


@functools.lru_cache(maxsize=4096)
def _read(text: str) -> Any:
    """The words of a command, before any skill is looked up (the same for any state: kept,
    as a game is replayed from its texts for every resumed save and every mail)."""
    return _ToRaw().transform(_parser().parse(text))


def parse_command(state: MiceHeistState, player: int, text: str) -> Action:
    """Parse ``text`` from ``player`` into an action; raises CommandError."""
    text = text.strip()
    try:
        raw = _read(text)
    except UnexpectedInput as err:
        raise _syntax_error(text, err, _examples(state, player)) from None
    kind = raw[0]
    if kind == "select":
        job = raw[1]
        jobs = list(state.data.jobs)
        if job not in jobs:
            raise CommandError(
                f"there is no job '{job}'", text=text, column=text.rfind(" ") + 2, expected=jobs
            )
        return Select(job)
    if kind == "test":
        return Test()
    try:
        return _with_names(state, player, text, raw)
    except CommandError:
        # a skill named at the wrong time is refused for the time, not for where it was
        # looked up ('learn sprint' while activating, Sprint being a skill of one's own)
        phase, what = _PHASE_OF[kind]
        state.need(phase, what, player)
        raise


_PHASE_OF = {"use": (ACTIVATE, "activate a skill"), "learn": (LEARN, "learn a skill"),
             "bet": (BET, "bet")}


def _with_names(state: MiceHeistState, player: int, text: str, raw: tuple) -> Action:
    """A bet, use or learn: the skills it names resolved among those it may name."""
    kind = raw[0]
    mine = list(state.skills[player])
    if kind == "bet":
        amount, names = raw[1], raw[2]
        covered = [k for k in mine if k in state.covered[player]]
        keys = tuple(
            resolve_name(n, covered, "among your covered skills", state, text) for n in names
        )
        if not keys and amount == 0 and covered:
            keys = (covered[0],)  # an abstainer uncovers a skill (ruling R5)
        return Bet(amount, keys)
    if kind == "use":
        return Use(resolve_name(raw[1], mine, "among your skills", state, text), raw[2])
    # learn
    if raw[1] is None:
        return Learn()
    skill = resolve_name(raw[1], list(state.market), "in the market", state, text)
    discard = (resolve_name(raw[2], mine, "among your skills", state, text,
                            text.lower().rfind("discard")) if raw[2] else None)
    return Learn(skill, discard)
