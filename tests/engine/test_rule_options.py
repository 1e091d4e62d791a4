"""The DATC's alternative rule options (docs/rulings.md), each tested on the DATC cases whose
text states the alternative's outcome.  The cases' positions and orders are read from the
DATC data in tests/datc/; only the expected board after differs from the preferred rules.

Each entry: (DATC case id, options, expected units after, expected dislodged units), units
written "POWER U LOC" as in the DATC data.  ``SAME`` = the board the DATC data expects
(the option gives the same result as the preference, as the case text says).
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from mobadj.board.loader import load_map
from mobadj.engine import Rules, adjudicate, position_from_data, rules_for
from mobadj.engine.results import Reason
from mobadj.orders.parser import parse_orders

DATC = Path(__file__).parent.parent / "datc"
CASES = {c["id"]: c for p in sorted(DATC.glob("6*.yaml")) for c in yaml.safe_load(p.read_text())}
GAME_MAP = load_map("standard")
SAME = None


def _flat(per_power: dict | None) -> set[str]:
    return {f"{p} {u}" for p, units in (per_power or {}).items() for u in units}


def run_case(case_id: str, rules: Rules):
    case = CASES[case_id]
    position = position_from_data(case, GAME_MAP)
    text = "\n".join(line.partition(" => ")[0] for line in case["orders"])
    parsed = parse_orders(text, GAME_MAP)
    assert not parsed.errors, parsed.errors
    return adjudicate(position, parsed.orders, GAME_MAP, rules)


def check(case_id: str, options: dict, units: set[str] | None, dislodged: set[str] | None):
    result = run_case(case_id, rules_for("standard", **options))
    after = result.position.to_data()
    expect = CASES[case_id]["expect"]
    want_units = _flat(expect.get("units")) if units is SAME else units
    assert _flat(after["units"]) == want_units
    if result.phase.is_movement:
        got = {f"{d.unit.power} {d.unit}" for d in [*result.dislodged, *result.destroyed]}
        want = _flat(expect.get("dislodged")) if dislodged is SAME else dislodged
        assert got == want
    return result


def _id(entry: tuple) -> str:
    case_id, options = entry[0], entry[1]
    return case_id + "-" + ",".join(f"{k}={v}" for k, v in options.items())


# ---- DATC 4.A.1: multi-route convoy disruption ---------------------------------------------------

ANY = {"convoy_disruption": "any_route"}
DISRUPTION = [
    # 6.F.9-6.F.11: "If the 1971 rules are used ... the army will stay in London"
    ("6.F.9", ANY, {"ENGLAND A LON", "ENGLAND F NTH", "FRANCE F BRE", "FRANCE F ENG"},
     {"ENGLAND F ENG"}),
    ("6.F.10", ANY, {"ENGLAND A LON", "ENGLAND F NTH", "FRANCE F BRE", "FRANCE F ENG"},
     {"GERMANY F ENG"}),
    ("6.F.11", ANY, {"ENGLAND A LON", "RUSSIA F NTH", "FRANCE F BRE", "FRANCE F ENG"},
     {"GERMANY F ENG"}),
    # 6.F.12: "the convoy from London to Belgium will still succeed"
    ("6.F.12", ANY, SAME, SAME),
    # 6.F.19 under the 1971 rulebook (both rules): "The support of the fleet in Naples is not
    # cut and the fleet in Rome dislodges the fleet in the Tyrrhenian Sea"
    ("6.F.19", {**ANY, "paradox": "1971"},
     {"FRANCE A TUN", "FRANCE F ION", "ITALY F NAP", "ITALY F TYS"}, {"FRANCE F TYS"}),
]


@pytest.mark.parametrize("entry", DISRUPTION, ids=[_id(e) for e in DISRUPTION])
def test_convoy_disruption_options(entry: tuple) -> None:
    check(*entry)


# ---- DATC 4.A.2: convoy paradoxes ---------------------------------------------------------------

P1982, P2000, P1971 = {"paradox": "1982"}, {"paradox": "2000"}, {"paradox": "1971"}
ALL_HOLD = {"paradox": "all_hold"}

PARADOX = [
    # 6.F.14: "According to all rulebooks ... the support of London is not cut"
    ("6.F.14", P1982, SAME, SAME),
    ("6.F.14", P2000, SAME, SAME),
    ("6.F.14", P1971, SAME, SAME),
    # 4.A.2 d: the "all hold" rule "gives a different adjudication for the simplest paradox"
    ("6.F.14", ALL_HOLD, {"ENGLAND F LON", "ENGLAND F WAL", "FRANCE A BRE", "FRANCE F ENG"},
     set()),
    # 6.F.16: "According to all rulebooks": London not cut, nothing moves
    ("6.F.16", P1982, SAME, SAME),
    ("6.F.16", P2000, SAME, SAME),
    ("6.F.16", P1971, SAME, SAME),
    # 6.F.17: 1971/1982/2000/2023: "The convoy will succeed and dislodge the fleet in London"
    *[("6.F.17", opt, {"ENGLAND F WAL", "FRANCE A LON", "FRANCE F ENG", "FRANCE F YOR",
                       "GERMANY F BEL", "GERMANY F NTH"}, {"ENGLAND F LON"})
      for opt in (P1982, P2000, P1971)],
    # 6.F.18, 1982: NTH not dislodged, "the army in London will dislodge the French [fleet]
    # in Belgium"
    ("6.F.18", P1982, {"ENGLAND A BEL", "ENGLAND F ENG", "ENGLAND F NTH", "GERMANY F HEL",
                       "GERMANY F SKA"}, {"FRANCE F BEL"}),
    # 6.F.19, 1971 and 1982: Naples not cut, "Rome dislodges the fleet in the Tyrrhenian Sea"
    *[("6.F.19", opt, {"FRANCE A TUN", "FRANCE F ION", "ITALY F NAP", "ITALY F TYS"},
       {"FRANCE F TYS"}) for opt in (P1982, P1971)],
    # 6.F.19, 2000/2023: TYS is not necessary, the support is cut, TYS not dislodged
    ("6.F.19", P2000, SAME, SAME),
    # 6.F.20, 1982: Naples not cut, ION not dislodged; 2000/2023: ION dislodged
    ("6.F.20", P1982, {"FRANCE A TUN", "FRANCE F TYS", "ITALY F NAP", "ITALY F ION",
                       "TURKEY F AEG", "TURKEY F EAS"}, set()),
    ("6.F.20", P2000, SAME, SAME),
    # 6.F.21, 1982: the support of Clyde is not cut, NAO not dislodged; every other rule: it is
    # (the Russian army still dislodges the fleet in Clyde, whose support stays uncut: the
    # rule "takes precedence" over the dislodge rule, 4.A.2 b and 6.F.17)
    ("6.F.21", P1982, {"RUSSIA A EDI", "RUSSIA F NWG", "RUSSIA A CLY", "FRANCE F IRI",
                       "FRANCE F MAO", "ENGLAND A LVP", "ENGLAND F NAO"}, {"ENGLAND F CLY"}),
    ("6.F.21", P2000, SAME, SAME),
    ("6.F.21", P1971, SAME, SAME),
    # 6.F.22-6.F.24, 1982: "the supports are not cut" (the same as Szykman)
    ("6.F.22", P1982, SAME, SAME),
    ("6.F.23", P1982, SAME, SAME),
    ("6.F.24", P1982, SAME, SAME),
]


@pytest.mark.parametrize("entry", PARADOX, ids=[_id(e) for e in PARADOX])
def test_paradox_options(entry: tuple) -> None:
    check(*entry)


def test_2000_rule_leaves_betrayal_to_szykman_backup() -> None:
    # 6.F.18: "The 1971, 2000 and 2023 rules do not give an answer"; the backup is Szykman
    for opt in (P2000, P1971):
        res = check("6.F.18", opt, SAME, SAME)
        assert [r.reason for r in res.results if r.order.startswith("F NTH")] == [
            Reason.PARADOX]


# ---- DATC 4.A.3: convoying to an adjacent province ---------------------------------------------

DPTG, R1971 = {"adjacent_convoy": "dptg"}, {"adjacent_convoy": "1971"}
ADJACENT = [
    # DPTG (only "via convoy"): "it is just a head-to-head battle"
    ("6.G.1", DPTG, {"ENGLAND A NWY", "ENGLAND F SKA", "RUSSIA A SWE"}, set()),
    ("6.G.5", DPTG, {"ITALY A ROM", "ITALY F TYS", "TURKEY A APU", "TURKEY F ION"}, set()),
    # 6.G.4: "with explicit adjacent convoying, kidnapping is prevented and the French army
    # will successfully move"
    ("6.G.4", DPTG, SAME, SAME),
    # 6.G.6: "both the army in Edinburgh and Liverpool will not move"
    ("6.G.6", DPTG, {"ENGLAND A LVP", "ENGLAND F ENG", "FRANCE F IRI", "FRANCE F NTH",
                     "GERMANY A EDI", "RUSSIA F NAO", "RUSSIA F NWG"}, set()),
    # 6.G.7, 6.G.19: "there is also no convoy and none of the units move"
    ("6.G.7", DPTG, SAME, SAME),
    ("6.G.19", DPTG, SAME, SAME),
    # 6.G.9: "the Russian army in Sweden is dislodged by the army from Norway"
    ("6.G.9", DPTG, {"ENGLAND A SWE", "ENGLAND F FIN", "ENGLAND F SKA"}, {"RUSSIA A SWE"}),
    # 1971: any fleet's convoy counts when the unit there moves the other way
    ("6.G.1", R1971, SAME, SAME),
    # 6.G.2: "the army in Norway is kidnapped and swaps with the army in Sweden"
    ("6.G.2", R1971, {"ENGLAND A SWE", "GERMANY F SKA", "RUSSIA F NWY"}, set()),
    # 6.G.3: "the convoy should be ignored, resulting in the same adjudication"
    ("6.G.3", R1971, SAME, SAME),
    ("6.G.6", R1971, SAME, SAME),  # "the units are swapped"
    # 6.G.7, 6.G.19: "the intent is not important and the units ... swap"
    ("6.G.7", R1971, {"ENGLAND F SKA", "ENGLAND F SWE", "RUSSIA A NWY", "RUSSIA F BOT"},
     set()),
    ("6.G.19", R1971, {"FRANCE A SPA", "FRANCE F WES", "ITALY A MAR", "ITALY F LYO"}, set()),
    # 6.G.11: not a convoy; "the English fleet in Norway is dislodged and the fleet in
    # Skagerrak will not be dislodged"
    ("6.G.11", R1971, {"ENGLAND F NTH", "RUSSIA A NWY", "RUSSIA F BAR", "RUSSIA F SKA"},
     {"ENGLAND F NWY"}),
    # 6.G.13: "the support of Venice will not be cut as normal"
    ("6.G.13", R1971, SAME, SAME),
    # the land route as fallback (the DATC 2.4 preference): 6.G.8 "the question is whether the
    # land route should be used as fallback"; with it Belgium moves to Holland
    ("6.G.8", {"adjacent_convoy": "fallback"},
     {"ENGLAND F HEL", "ENGLAND A KIE", "FRANCE A HOL"}, set()),
    # 6.G.20: the convoy is disrupted and the army falls back to the land route
    ("6.G.20", {"adjacent_convoy": "fallback"},
     {"FRANCE A BEL", "FRANCE A BUR", "FRANCE F ENG", "FRANCE F MAO"}, {"ENGLAND F ENG"}),
]


def test_fallback_swap_with_a_disrupted_convoy_is_a_head_to_head_battle() -> None:
    units = {"FRANCE": ["A PIC", "F ENG", "A BUR"], "ENGLAND": ["A BEL", "F NTH", "F LON"]}
    text = ("FRANCE: A PIC - BEL\nFRANCE: F ENG C A PIC - BEL\nFRANCE: A BUR S A PIC - BEL\n"
            "ENGLAND: A BEL - PIC\nENGLAND: F NTH - ENG\nENGLAND: F LON S F NTH - ENG")
    position = position_from_data({"phase": "S1901M", "units": units}, GAME_MAP)
    orders = parse_orders(text, GAME_MAP).orders
    default = adjudicate(position, orders, GAME_MAP, Rules())
    assert {str(d.unit) for d in default.dislodged} == {"F ENG"}  # the army stays in Picardy
    res = adjudicate(position, orders, GAME_MAP, Rules(adjacent_convoy="fallback"))
    bel = [d for d in res.dislodged if str(d.unit) == "A BEL"]
    assert len(bel) == 1 and not bel[0].convoyed and "PIC" not in bel[0].retreats
    assert res.position.units["BEL"].power == "FRANCE"


@pytest.mark.parametrize("entry", ADJACENT, ids=[_id(e) for e in ADJACENT])
def test_adjacent_convoy_options(entry: tuple) -> None:
    check(*entry)


# ---- DATC 4.A.4: a convoyed attack on a unit supporting an attack on the army's province ---------

CONVOY_ATTACK = [
    # 6.G.13: "If the Austrian attack is considered to be coming from the Adriatic Sea, then
    # the support is cut and the army in Trieste will not be dislodged"
    ("6.G.13", {"convoy_attack": "cuts"},
     {"AUSTRIA A TRI", "AUSTRIA F ADR", "ITALY A VEN", "ITALY F ALB"}, set()),
]


@pytest.mark.parametrize("entry", CONVOY_ATTACK, ids=[_id(e) for e in CONVOY_ATTACK])
def test_convoy_attack_options(entry: tuple) -> None:
    res = check(*entry)
    assert [r.reason for r in res.results if r.order.startswith("A VEN")] == [Reason.CUT]


# ---- DATC 4.A.5: retreat to the origin of a convoyed attacker ----------------------------------

RETREAT = [
    # 6.H.11: option a, Marseilles may not retreat to Gascony: it disbands
    ("6.H.11", {"convoy_retreat": False}, {"FRANCE A BUR", "FRANCE A MAR", "FRANCE F LYO",
                                           "FRANCE F MAO", "FRANCE F WES"}, None),
    # 6.H.12: option a, Liverpool may not retreat to Edinburgh
    ("6.H.12", {"convoy_retreat": False}, {"ENGLAND F IRI", "ENGLAND F NTH", "ENGLAND F PIC",
                                           "FRANCE F ENG", "FRANCE F MAO", "RUSSIA A CLY",
                                           "RUSSIA A LVP", "RUSSIA F NAO", "RUSSIA F NWG"},
     None),
]


@pytest.mark.parametrize("entry", RETREAT, ids=[_id(e) for e in RETREAT])
def test_retreat_options(entry: tuple) -> None:
    res = check(*entry)
    assert any(r.reason is Reason.RETREAT_BLOCKED for r in res.results)


def test_convoy_retreat_option_removes_the_retreat_in_the_movement_phase() -> None:
    # the movement of 6.H.11: Marseilles' retreats are listed without Gascony
    text = ("FRANCE: A GAS - MAR via convoy\nFRANCE: A BUR S A GAS - MAR\n"
            "FRANCE: F MAO C A GAS - MAR\nFRANCE: F WES C A GAS - MAR\n"
            "FRANCE: F LYO C A GAS - MAR\nITALY: A MAR H")
    data = {"phase": "S1901M", "units": {"FRANCE": ["A GAS", "A BUR", "F MAO", "F WES",
                                                    "F LYO"], "ITALY": ["A MAR"]}}
    position = position_from_data(data, GAME_MAP)
    parsed = parse_orders(text, GAME_MAP).orders
    default = adjudicate(position, parsed, GAME_MAP, Rules())
    strict = adjudicate(position, parsed, GAME_MAP, Rules(convoy_retreat=False))
    assert "GAS" in default.dislodged[0].retreats
    assert "GAS" not in strict.dislodged[0].retreats


# ---- DATC 4.A.7: a dislodged unit bouncing a third unit in the attacker's origin -----------------

NEVER = {"dislodged_bounce": "never"}
BOUNCE = [
    # 6.G.10, choice a: "the move of the fleet in the Norwegian Sea succeeds"
    ("6.G.10", NEVER, {"ENGLAND A SWE", "ENGLAND F DEN", "ENGLAND F FIN", "GERMANY F SKA",
                       "RUSSIA F BAR", "FRANCE F NWY", "FRANCE F NTH"}, {"RUSSIA A SWE"}),
    # 6.G.14, choice a: "the fleet advances to Norway"
    ("6.G.14", NEVER, {"ENGLAND A SWE", "ENGLAND F DEN", "ENGLAND F FIN", "FRANCE F NWY",
                       "FRANCE F NTH", "GERMANY F SKA", "RUSSIA F BAR"}, {"RUSSIA A SWE"}),
    # 6.G.15, choice a: "the army advances to London"
    ("6.G.15", NEVER, {"ENGLAND F NTH", "ENGLAND A HOL", "ENGLAND A LON", "ENGLAND A BEL",
                       "FRANCE F ENG"}, {"FRANCE A BEL"}),
]


@pytest.mark.parametrize("entry", BOUNCE, ids=[_id(e) for e in BOUNCE])
def test_dislodged_bounce_options(entry: tuple) -> None:
    check(*entry)


# ---- DATC 4.B: coasts ----------------------------------------------------------------------------

COASTS = [
    # 6.B.2 with 4.B.2 b: the move without a coast fails
    ("6.B.2", {"missing_coast": "fail"}, {"FRANCE F GAS"}, set(), "invalid"),
    # 6.B.3 with 4.B.3 a ("a lenient interpretation"): the move goes to the north coast
    ("6.B.3", {"impossible_coast": "ignore"}, {"FRANCE F SPA/NC"}, set(), "succeeds"),
    # 6.B.15 with 4.B.4 as Calhamer rules (an omitted coast only for one's own fleet): the
    # support fails and the Italian fleet moves to the south coast
    ("6.B.15", {"support_coast": "same_power"},
     {"FRANCE F POR", "ENGLAND F MAO", "ITALY F LYO", "ITALY F SPA/SC"}, set(), "fails"),
    # 6.B.8: France supports its own fleet, so Calhamer's rule accepts the support
    ("6.B.8", {"support_coast": "same_power"}, SAME, SAME, "succeeds"),
    # 4.B.4 "only support orders with coast specification are admissible": 6.B.8 fails too
    ("6.B.8", {"support_coast": "required"},
     {"FRANCE F POR", "FRANCE F GAS", "ITALY F LYO", "ITALY F SPA/SC"}, set(), "fails"),
    # 6.B.10 with 4.B.5 a ("if only perfect orders are accepted, then the move will fail")
    ("6.B.10", {"unit_coast": "fail"}, {"FRANCE F SPA/SC"}, set(), "invalid"),
    # 6.B.12 with 4.B.6 a (likewise)
    ("6.B.12", {"irrelevant_coast": "fail"}, {"FRANCE A GAS"}, set(), "invalid"),
]


@pytest.mark.parametrize("entry", COASTS, ids=[_id(e) for e in COASTS])
def test_coast_options(entry: tuple) -> None:
    res = check(*entry[:4])  # the case's first order is the one the option is about
    assert res.results[0].outcome.value == entry[4]


# ---- option values ------------------------------------------------------------------------------


def test_defaults_are_the_datc_preferences() -> None:
    from mobadj.engine.movement import Resolver
    from mobadj.engine.options import resolver_class
    from mobadj.engine.rules import OPTIONS

    rules = Rules()
    for name, choices in OPTIONS.items():
        assert getattr(rules, name) == choices[0]
    assert resolver_class(rules) is Resolver  # the standard resolver, no option overhead


@pytest.mark.parametrize("options", [{"paradox": "1983"}, {"missing_coast": "guess"},
                                     {"convoy_retreat": "no"}])
def test_unknown_option_value_is_a_clear_error(options: dict) -> None:
    with pytest.raises(ValueError, match="choose from"):
        rules_for("standard", **options)


def test_cli_paradox_choices_match_the_engine() -> None:
    from mobadj.cli.adjudicate_cmd import PARADOX_RULES as CLI_RULES
    from mobadj.engine.rules import PARADOX_RULES

    assert CLI_RULES == PARADOX_RULES


# ---- the front ends: `mobadj adjudicate --option/--paradox` and batch "options" ----------------


def _files(tmp_path: Path, case_id: str) -> list[str]:
    case = CASES[case_id]
    pos = tmp_path / "position.yaml"
    pos.write_text(yaml.safe_dump({k: case[k] for k in ("phase", "units")}))
    orders = tmp_path / "orders.txt"
    orders.write_text("\n".join(line.partition(" => ")[0] for line in case["orders"]) + "\n")
    return [str(pos), str(orders)]


def test_cli_option_and_paradox_flags(tmp_path: Path) -> None:
    import json

    from click.testing import CliRunner

    from mobadj.cli import main

    run = CliRunner().invoke
    files = _files(tmp_path, "6.B.2")
    out = run(main, ["adjudicate", "--json", *files]).output
    assert json.loads(out)["orders"][0]["result"] == "succeeds"
    out = run(main, ["adjudicate", "--json", "--option", "missing_coast=fail", *files]).output
    assert json.loads(out)["orders"][0]["result"] == "invalid"
    files = _files(tmp_path, "6.F.17")  # 1982: the convoy succeeds and dislodges London
    out = run(main, ["adjudicate", "--json", "--paradox", "1982", *files]).output
    # London has no retreat: disbanded at once, and the retreat phase skipped
    got = json.loads(out)
    assert got["dislodged"] == {} and got["destroyed"] == {"ENGLAND": ["F LON"]}
    assert got["next_phase"] == "F1901M" and got["skipped"] == ["S1901R"]
    out = run(main, ["adjudicate", "--json", "--paradox", "1982", "--option",
                     "forced_retreats=retreat_phase", *files]).output
    assert json.loads(out)["dislodged"] == {"ENGLAND": [
        {"unit": "F LON", "from": "BRE", "convoyed": True, "retreats": []}]}


@pytest.mark.parametrize("flag, hint", [("missing_coats=fail", "did you mean missing_coast"),
                                        ("missing_coast=maybe", "choose from infer, fail"),
                                        ("missing_coast", "expected NAME=VALUE")])
def test_cli_bad_option_is_a_clear_error(tmp_path: Path, flag: str, hint: str) -> None:
    from click.testing import CliRunner

    from mobadj.cli import main

    res = CliRunner().invoke(main, ["adjudicate", "--option", flag, *_files(tmp_path, "6.B.2")])
    assert res.exit_code in (1, 2) and "Traceback" not in res.output
    assert hint in res.output


def test_batch_options_key() -> None:
    from mobadj.batch import run_case as batch_case

    line = {"id": 1, "map": "standard", "phase": "S1901M", "units": {"FRANCE": ["F GAS"]},
            "orders": {"FRANCE": ["F GAS - SPA"]}}
    assert batch_case(line)["units"] == {"FRANCE": ["F SPA/NC"]}
    out = batch_case({**line, "options": {"missing_coast": "fail"}})
    assert out["units"] == {"FRANCE": ["F GAS"]} and out["orders"][0]["result"] == "invalid"
    out = batch_case({**line, "options": {"convoy_retreat": "false", "paradox": 1982}})
    assert out["errors"] == [] and out["units"] == {"FRANCE": ["F SPA/NC"]}
    bad = batch_case({**line, "options": {"paradox": "1999"}})
    assert bad["errors"] and "choose from" in bad["errors"][0] and bad["orders"] == []
    assert batch_case(line)["units"] == {"FRANCE": ["F SPA/NC"]}  # options do not stick


# ---- DATC 4.D.4 / 4.D.6: too many builds or removals -----------------------------------------

TOO_MANY = [
    # 6.I.1 (Germany may build one: WAR, KIE, MUN): 4.D.4 c, the last legal build is used
    ("6.I.1", {"too_many": "last"}, {"GERMANY A MUN", "GERMANY A PAR", "RUSSIA A WAR"},
     ["invalid", "invalid", "succeeds"]),
    # 4.D.4 a: all build orders are invalid
    ("6.I.1", {"too_many": "all_invalid"}, {"GERMANY A PAR", "RUSSIA A WAR"},
     ["invalid", "invalid", "invalid"]),
    # 6.J.1 (France removes one of PIC, PAR): 4.D.6 c, the last legal removal is used
    ("6.J.1", {"too_many": "last"}, {"FRANCE A PIC"}, ["invalid", "invalid", "succeeds"]),
    # 4.D.6 a: the removal is made by the civil-disorder rule (Picardy is the farther)
    ("6.J.1", {"too_many": "all_invalid"}, {"FRANCE A PAR"}, ["invalid", "invalid", "invalid"]),
    # 6.J.2: a duplicate is not "too many": the same result under every option
    ("6.J.2", {"too_many": "all_invalid"}, SAME, ["succeeds", "invalid"]),
]


@pytest.mark.parametrize("entry", TOO_MANY, ids=[_id(e) for e in TOO_MANY])
def test_too_many_options(entry: tuple) -> None:
    res = check(*entry[:3], None)
    assert [r.outcome.value for r in res.results] == entry[3]


def test_too_many_all_invalid_keeps_other_reasons() -> None:
    res = run_case("6.I.1", rules_for("standard", too_many="all_invalid"))
    assert [r.reason for r in res.results] == [Reason.NOT_HOME, Reason.TOO_MANY, Reason.TOO_MANY]
    res = run_case("6.J.1", rules_for("standard", too_many="all_invalid"))
    assert res.results[0].reason is Reason.NO_UNIT
    assert [(d.order, d.reason) for d in res.defaults] == [("Remove A PIC", Reason.CIVIL_DISORDER)]


# ---- DATC 4.D.8: civil disorder ----------------------------------------------------------------


def test_civil_disorder_older_rule_6j11() -> None:
    # 6.J.11: "Under older rulebooks the army in Tuscany was kept" (distance to home centres)
    check("6.J.11", {"civil_disorder": "home_centres"}, {"ITALY A TUS"}, None)
    check("6.J.11", {}, {"ITALY A WAR"}, None)


def test_civil_disorder_older_rule_counts_fleets_by_sea() -> None:
    # DATC 4.D.8: before 2023 "fleets move regularly, while armies could also walk over water";
    # F PRU is one step from Warsaw over land but three by sea from St Petersburg (sc)
    data = {"phase": "W1901A", "units": {"RUSSIA": ["A MOS", "F PRU", "A BOH"]},
            "centers": {"RUSSIA": ["MOS", "WAR"]}}
    position = position_from_data(data, GAME_MAP)
    new = adjudicate(position, [], GAME_MAP, Rules())
    old = adjudicate(position, [], GAME_MAP, Rules(civil_disorder="home_centres"))
    assert [d.order for d in new.defaults] == ["Remove A BOH"]
    assert [d.order for d in old.defaults] == ["Remove F PRU"]


# DATC 2.4 6.J.3-6.J.9 (the pre-2023 rule; v3.0 rewrote these positions): Russia removes one
V24_CIVIL = [
    ("6.J.3", ["A MOS", "A STP", "A LVN", "A SWE"], ["MOS", "STP", "WAR"], "A SWE"),
    ("6.J.4", ["A MOS", "A STP", "A LVN", "A UKR"], ["MOS", "STP", "WAR"], "A LVN"),
    ("6.J.5", ["A MOS", "A STP", "F SKA", "F BER"], ["MOS", "STP", "WAR"], "F BER"),
    ("6.J.6", ["A MOS", "A STP", "F SKA", "F BAL"], ["MOS", "STP", "WAR"], "F BAL"),
    ("6.J.7", ["A BOH", "F SKA", "F NTH"], ["STP", "WAR"], "F NTH"),
    ("6.J.8", ["A MOS", "A STP", "A TYR", "F BAL"], ["MOS", "STP", "WAR"], "A TYR"),
    ("6.J.9", ["A TYR", "F BAL"], ["STP"], "A TYR"),
]


@pytest.mark.parametrize("case_id, units, centers, removed", V24_CIVIL,
                         ids=[f"{c[0]}(v2.4)-civil_disorder=home_centres" for c in V24_CIVIL])
def test_civil_disorder_older_rule_datc24(case_id, units, centers, removed) -> None:
    data = {"phase": "W1901A", "units": {"RUSSIA": units}, "centers": {"RUSSIA": centers}}
    position = position_from_data(data, GAME_MAP)
    res = adjudicate(position, [], GAME_MAP, Rules(civil_disorder="home_centres"))
    assert [d.order for d in res.defaults] == [f"Remove {removed}"]
