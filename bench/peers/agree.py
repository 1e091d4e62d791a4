"""Where godip and dipcc disagree with mobadj on the bench's phases, and why.

``python -m bench.peers.agree --godip CMD --dipcc CMD [PHASES_FILE]`` runs ``mobadj batch``
and each peer given on the same lines (the bench's 3,000 phases, :mod:`bench.games` seed 1,
when no file is given), compares what stands after every phase (the units, the dislodged
units, and each move's or retreat's success where the peer reports it: godip does, dipcc
does not) and names the cause of every disagreement (:data:`CLASSES`), so that a change in
a peer, a driver or mobadj shows up as a new or grown class, never as a count that merely
moved.  bench/peers/README.md, "How far they agree with mobadj", says who is right in each.
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.games import write as write_games
from bench.versus import PHASES, ROOT, SEED, _mobadj, _whole
from mobadj.board import load_map
from mobadj.engine.topology import Topology, topology_for

GODIP_SEAS = {"GOL": "LYO", "MID": "MAO", "NAT": "NAO", "NRG": "NWG"}
"""godip's names of the four seas whose abbreviations differ from mobadj's."""

CLASSES: dict[str, str] = {
    "convoyed-dislodger-dropped":
        "mobadj rejects a retreat line: the attacker came by convoy from a province not next "
        "to the dislodged unit, and the line lacks the `\"convoyed\": true` mobadj needs",
    "via-convoy-over-land":
        "an army ordered `VIA CONVOY` to a neighbour that no convoy takes there: mobadj "
        "holds it (no land route, docs/rulings.md 4.A.3), the peer moves it over land, as "
        "mobadj does with the option `adjacent_convoy=fallback` (and then agrees)",
    "head-to-head-own-support":
        "a head-to-head battle in which a power supports the move against its own unit: "
        "that support counts in the defence but not in the attack on its unit (DATC 5), so "
        "both moves fail; godip moves one unit",
    "convoyed-attack-cuts-support":
        "an army ordered `VIA CONVOY` to a neighbour and carried by a convoy attacks a "
        "supporting unit: the support is cut (DATC 5) though the army bounces; godip does "
        "not cut it",
    "convoy-target-supports-attack-on-fleet":
        "the convoy's target supports an attack on a convoying fleet (DATC 6.F.14 and its "
        "kin): the convoyed army does not cut that support, so the fleet is dislodged when "
        "the attack is strong enough with it (6.F.14), and the convoy and its attack go on "
        "when the attack fails anyway; dipcc moves none of these units",
    "coast-implied":
        "a fleet ordered to STP, SPA or BUL without a coast where only one coast is in "
        "reach: mobadj moves it to that coast (DATC 6.B.2), dipcc refuses the order (our "
        "driver writes the coast: a driver that does not)",
    "peer-error": "the peer wrote no board for the line, only its errors",
    "unexplained": "none of the above: look at the line",
}
"""Every class of disagreement, the first that fits a phase (in this order)."""

OPTIONS: dict[str, dict[str, str]] = {"via-convoy-over-land": {"adjacent_convoy": "fallback"}}
"""Classes that are a reading mobadj has as an option (docs/rulings.md): a phase is in one
when mobadj, given the option, answers as the peer does."""


@dataclass(frozen=True)
class Board:
    """What stands after a phase, as one adjudicator wrote it."""

    units: frozenset[tuple[str, str]]
    """(POWER, "F STP/SC") of each unit standing."""
    dislodged: frozenset[tuple[str, str]]
    """The same for each dislodged unit with a retreat open.  One without is disbanded at
    once by mobadj (its ``destroyed``) and godip, and kept with no retreat by dipcc: the
    same board either way."""
    moved: Mapping[str, bool] | None
    """Each move or retreat order's text -> whether the unit moved; None: not reported."""


def _unit(text: str, seas: Mapping[str, str]) -> str:
    kind, _, where = text.lstrip("*").partition(" ")
    province, slash, coast = where.upper().partition("/")
    return f"{kind} {seas.get(province, province)}{slash}{coast}"


def _pairs(by_power: Mapping[str, list[str]], seas: Mapping[str, str] = {}
           ) -> frozenset[tuple[str, str]]:
    return frozenset((power.upper(), _unit(u, seas)) for power, us in by_power.items()
                     for u in us)


def _is_move(text: str) -> bool:
    words = text.split()
    return len(words) >= 4 and words[2] in ("-", "R") and words[0] in ("A", "F")


def mobadj_board(answer: Mapping[str, Any]) -> Board:
    dislodged = {p: [d["unit"] for d in ds] for p, ds in answer["dislodged"].items()}
    return Board(_pairs(answer["units"]), _pairs(dislodged),
                 {o["order"]: o["result"] == "succeeds" for o in answer["orders"]
                  if _is_move(o["order"])})


def godip_board(answer: Mapping[str, Any]) -> Board:
    return Board(_pairs(answer["units"], GODIP_SEAS), _pairs(answer["dislodged"], GODIP_SEAS),
                 {text: result == "succeeds" for text, result in answer["orders"].items()
                  if _is_move(text)})


def dipcc_board(answer: Mapping[str, Any]) -> Board:
    units = {p: [u for u in us if not u.startswith("*")] for p, us in answer["units"].items()}
    dislodged = {p: [u for u, retreats in us.items() if retreats]
                 for p, us in answer["retreats"].items()}
    return Board(_pairs(units), _pairs(dislodged), None)


READERS: dict[str, Callable[[Mapping[str, Any]], Board]] = {
    "godip": godip_board, "dipcc": dipcc_board}


def disagreement(ours: Board, theirs: Board) -> set[str]:
    """The provinces where the two boards differ (empty: they agree)."""
    provinces = {u.split()[1][:3] for _, u in
                 (ours.units ^ theirs.units) | (ours.dislodged ^ theirs.dislodged)}
    if theirs.moved is not None and ours.moved is not None:
        provinces |= {text.split()[1][:3] for text, moved in ours.moved.items()
                      if text in theirs.moved and theirs.moved[text] != moved}
    return provinces


MOVE = re.compile(r"^A (\w{3}) - (\w{3})(?: VIA CONVOY)?$")
ANY_MOVE = re.compile(r"^[AF] (\w{3})\S* - (\w{3})")
CONVOY = re.compile(r"^F (\w{3}) C A (\w{3}) - (\w{3})$")
FLEET_MOVE = re.compile(r"^F \S+ - (STP|SPA|BUL)$")


@dataclass(frozen=True)
class Phase:
    """A line and mobadj's answer to it, as the checks of :func:`classify` read them."""

    line: Mapping[str, Any]
    results: Mapping[str, Mapping[str, Any]]
    topo: Topology

    def texts(self) -> list[str]:
        return [text for texts in self.line.get("orders", {}).values() for text in texts]

    def owner(self, province: str) -> str | None:
        return next((power for power, units in self.line["units"].items() for u in units
                     if u.split()[1][:3] == province), None)

    def order_of(self, province: str) -> str:
        return next((t for t in self.texts() if t.split()[1:2] == [province] or
                     t.split()[1:2] and t.split()[1].startswith(province + "/")), "")

    def reason(self, text: str) -> str:
        return self.results[text]["reason"] or ""


def _own_support_in_head_to_head(phase: Phase, texts: list[str]) -> bool:
    """Two units that swap places, both fail in mobadj, one lost the head-to-head battle,
    and a power supports the move against its own unit."""
    failed = {(m[1], m[2]): t for t in phase.texts()
              if (m := ANY_MOVE.match(t)) and phase.results[t]["result"] == "fails"}
    return any((dst, src) in failed and "lost head-to-head battle" in (
        phase.reason(t), phase.reason(failed[dst, src])) and any(
        re.search(rf" S [AF] {src}\S* - {dst}", u)
        and phase.owner(u.split()[1][:3]) == phase.owner(dst) for u in phase.texts())
        for (src, dst), t in failed.items() if t in texts)


def _convoyed_attack_cuts_support(phase: Phase, texts: list[str]) -> bool:
    """A support cut in mobadj by an army moving `VIA CONVOY` to a neighbour, with a
    convoy ordered for it."""
    convoys = {(m[2], m[3]) for m in map(CONVOY.match, phase.texts()) if m}
    cut = {t.split()[1][:3] for t in texts if phase.reason(t) == "support cut"}
    return any((move := MOVE.match(t)) and t.endswith("VIA CONVOY") and move[2] in cut
               and move[2] in phase.topo.reach["A"][move[1]] and (move[1], move[2]) in convoys
               for t in phase.texts())


def _coast_implied(phase: Phase, texts: list[str]) -> bool:
    return any(FLEET_MOVE.match(t) and phase.results[t]["result"] != "invalid" for t in texts)


def _support_against_the_convoy(phase: Phase, texts: list[str]) -> bool:
    """A convoy (its fleet's or its army's order among ``texts``) whose target supports a
    move against the convoying fleet."""
    armies = {(m[1], m[2]): t for t in phase.texts() if (m := MOVE.match(t))}
    return any(
        (c[2], c[3]) in armies and (c[0] in texts or armies[c[2], c[3]] in texts)
        and re.search(rf" S [AF] \S+ - {c[1]}", phase.order_of(c[3]))
        for c in map(CONVOY.match, phase.texts()) if c)


AT_A_DISTANCE = ("convoyed-attack-cuts-support", "coast-implied")
"""Checks that may explain a disagreement in other provinces than their orders' (a support
cut or left uncut there decides elsewhere)."""

CHECKS: dict[str, Callable[[Phase, list[str]], bool]] = {
    "head-to-head-own-support": _own_support_in_head_to_head,
    "convoyed-attack-cuts-support": _convoyed_attack_cuts_support,
    "convoy-target-supports-attack-on-fleet": _support_against_the_convoy,
    "coast-implied": _coast_implied,
}


def classify(line: Mapping[str, Any], answer: Mapping[str, Any], where: set[str],
             topo: Topology) -> str:
    """The class (a key of :data:`CLASSES`) of a phase on which mobadj's ``answer`` and a
    peer disagree at the provinces ``where``: the first check that holds for the orders
    naming those provinces, else the first of :data:`AT_A_DISTANCE` that holds for any
    order of the phase."""
    if answer["errors"]:
        if any("its attacker cannot have come from" in e for e in answer["errors"]):
            return "convoyed-dislodger-dropped"
        return "unexplained"
    phase = Phase(line, {o["order"]: o for o in answer["orders"]}, topo)
    texts = phase.texts()
    involved = [t for t in texts if where & set(re.split(r"[ /]", t))]
    for kind, check in CHECKS.items():
        if check(phase, involved):
            return kind
    return next((kind for kind in AT_A_DISTANCE if CHECKS[kind](phase, texts)), "unexplained")


@dataclass
class Tally:
    """One peer's comparison with mobadj: the ids of the disagreeing phases by class."""

    compared: int = 0
    agreeing: int = 0
    classes: dict[str, list[str]] = field(default_factory=dict)

    def add(self, case: str, kind: str | None) -> None:
        self.compared += 1
        if kind is None:
            self.agreeing += 1
        else:
            self.classes.setdefault(kind, []).append(case)


def compare(lines: Sequence[Mapping[str, Any]], ours: Sequence[Mapping[str, Any]],
            theirs: Sequence[Mapping[str, Any]], peer: str,
            optioned: Mapping[str, Sequence[Mapping[str, Any]]]) -> Tally:
    """mobadj's answers to ``lines`` against ``peer``'s, phase by phase; ``optioned``:
    mobadj's answers with the options of each class of :data:`OPTIONS`."""
    topo = topology_for(load_map("standard"))
    tally = Tally()
    for n, (line, answer, other) in enumerate(zip(lines, ours, theirs, strict=True)):
        if other.get("units") is None:
            tally.add(str(line["id"]), "peer-error")
            continue
        assert answer["id"] == line["id"] == other.get("id"), f"{peer}: lines out of step"
        theirs_board = READERS[peer](other)
        where = disagreement(mobadj_board(answer), theirs_board)
        kind = None
        if where:
            kind = next((k for k, answers in optioned.items()
                         if not answers[n]["errors"]
                         and not disagreement(mobadj_board(answers[n]), theirs_board)),
                        None) or classify(line, answer, where, topo)
        tally.add(str(line["id"]), kind)
    return tally


def mobadj_answers(lines: Sequence[Mapping[str, Any]], options: Mapping[str, str] = {}
                   ) -> list[dict[str, Any]]:
    """``mobadj batch`` run on ``lines``, each given ``options``."""
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "lines.jsonl"
        source.write_text("".join(json.dumps({**line, "options": options} if options else line)
                                  + "\n" for line in lines))
        return _answers(_mobadj(Path(sys.executable), "--jobs", "1", "-"), source)


def report(peer: str, tally: Tally) -> str:
    out = [f"{peer}: {tally.compared} phases compared, {tally.agreeing} agree"]
    for kind in CLASSES:
        cases = tally.classes.get(kind, [])
        if cases:
            out.append(f"  {kind}: {len(cases)} (e.g. {cases[0]}): {CLASSES[kind]}")
    return "\n".join(out)


def _answers(cmd: list[str], source: Path) -> list[dict[str, Any]]:
    return [json.loads(text) for text in _whole(cmd, source, ROOT)[2].splitlines()]


def main(argv: list[str] | None = None) -> None:
    import argparse
    import shlex

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--godip", help="a command running godip on batch lines (stdin)")
    ap.add_argument("--dipcc", help="a command running dipcc on batch lines (stdin)")
    ap.add_argument("phases", nargs="?", type=Path,
                    help=f"batch lines (default: the bench's {PHASES:,}, seed {SEED})")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        source = args.phases or write_games(Path(tmp) / "games.jsonl", SEED, PHASES)
        lines = [json.loads(text) for text in source.read_text().splitlines()]
        ours = mobadj_answers(lines)
        optioned = {kind: mobadj_answers(lines, options) for kind, options in OPTIONS.items()}
        for peer in READERS:
            cmd = getattr(args, peer)
            if cmd:
                theirs = _answers(shlex.split(cmd), source)
                print(report(peer, compare(lines, ours, theirs, peer, optioned)))


if __name__ == "__main__":
    main()
