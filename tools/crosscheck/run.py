"""Cross-check mobadj against the MILA adjudicator on generated phases (docs/crosscheck.md).

    python -m tools.crosscheck.run --seed 1 --count 2000 --oracle-python /tmp/oracle-venv/bin/python

The oracle runs in its own virtualenv as a separate process (``mila_driver.py``); mobadj
runs in this process through the ``mobadj batch`` contract (``mobadj.batch.run_case``).
Orders the oracle refuses are taken out of both sides' orders (and counted), so both
adjudicate the same orders.  Compared: the units standing after the phase, the dislodged
units, their retreat options, and (after a movement phase that dislodged someone) the
units after the retreat phase that follows, with the generator's retreat plan as orders.
Each disagreement is written to a JSON-lines report with a guess at its category
(``classify.py``); ``--show ID`` prints one case in full.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from mobadj.batch import run_case
from mobadj.board.loader import load_map
from mobadj.engine.pipeline import adjudicate
from mobadj.engine.position import position_from_data
from mobadj.engine.rules import coerce_options, rules_for
from mobadj.orders.parser import parser_for
from tools.crosscheck.classify import classify
from tools.crosscheck.generate import generate

DRIVER = Path(__file__).with_name("mila_driver.py")

#: DATC rule options for mobadj's side (``--option NAME=VALUE``; docs/rulings.md), e.g. the
#: oracle's own readings: adjacent_convoy=fallback civil_disorder=home_centres
OPTIONS: dict[str, str] = {}


def oracle(cases: list[dict[str, Any]], python: str) -> dict[str, dict[str, Any]]:
    """The oracle's answers, by case id (one subprocess for the whole run)."""
    text = "".join(json.dumps(c) + "\n" for c in cases)
    proc = subprocess.run([python, str(DRIVER)], input=text, capture_output=True, text=True,
                          check=True)
    return {o["id"]: o for o in map(json.loads, proc.stdout.splitlines())}


def _flat_units(units: dict[str, list[str]]) -> list[str]:
    return sorted(f"{p.upper()} {u}" for p, lst in units.items() for u in lst)


def _without(orders: dict[str, list[str]], drop: set[str]) -> dict[str, list[str]]:
    return {p: [t for t in lst if t not in drop] for p, lst in orders.items()}


def ours(case: dict[str, Any], rejected: set[str], retreat_orders: dict | None) -> dict[str, Any]:
    """mobadj's answer in the oracle's shape."""
    batch_case = {k: v for k, v in case.items() if k != "retreat_plan"}
    batch_case["orders"] = _without(case.get("orders", {}), rejected)
    if OPTIONS:
        batch_case["options"] = dict(OPTIONS)
    out = run_case(batch_case)
    # units with no retreat are disbanded at once (``destroyed``), as the oracle does
    gone = [(p, {"unit": u, "retreats": []}) for p, lst in out.get("destroyed", {}).items()
            for u in lst]
    waiting = [(p, d) for p, lst in out["dislodged"].items() for d in lst] + gone
    got: dict[str, Any] = {
        "errors": out["errors"],
        "units": _flat_units(out["units"]),
        "dislodged": sorted(f"{p.upper()} {d['unit']}" for p, d in waiting),
        "retreats": {f"{p.upper()} {d['unit']}": sorted(d["retreats"]) for p, d in waiting},
        "next_phase": out["next_phase"],
        "results": {r["order"]: (r["result"], r["reason"]) for r in out["orders"]},
        "after_retreat": None,
        "centers": _flat_units(out["centers"]),
        "centers_after_retreat": None,
    }
    if retreat_orders is not None and str(out["next_phase"]).endswith("R"):
        game_map = load_map("standard")
        parser = parser_for(game_map)
        pos = position_from_data(batch_case, game_map)
        pairs = [(game_map.power_id(p), parser.parse_order(t))
                 for p, lst in batch_case["orders"].items() for t in lst]
        rules = rules_for("standard", **coerce_options(OPTIONS)) if OPTIONS else None
        after = adjudicate(pos, pairs, game_map, rules).position.to_data()
        if OPTIONS:
            after["options"] = dict(OPTIONS)
        after["id"] = case["id"]
        after["map"] = "standard"
        after["orders"] = retreat_orders
        rout = run_case(after)
        got["after_retreat"] = _flat_units(rout["units"])
        got["centers_after_retreat"] = _flat_units(rout["centers"])
    return got


def _kind(order: str) -> str:
    w = order.upper().split()
    if w[0] in ("BUILD", "REMOVE"):
        return w[0].lower()
    if len(w) > 2 and w[2] == "S":
        return "support move" if "-" in w else "support hold"
    if len(w) > 2 and w[2] == "C":
        return "convoy"
    if "-" in w:
        return "move via convoy" if w[-1] == "CONVOY" else "move"
    return "other"


def legality(case: dict[str, Any], orc: dict[str, Any], tally: Counter[str]) -> None:
    """Count the orders the two adjudicators judge differently as legal or not."""
    refused = set(orc.get("rejected", []))
    batch_case = {k: v for k, v in case.items() if k != "retreat_plan"}
    out = run_case(batch_case)
    for r in out["orders"]:
        ours_invalid = r["result"] == "invalid"
        if r["order"] in refused:
            tally[f"both refuse {_kind(r['order'])}: {r['reason']}" if ours_invalid
                  else f"only oracle refuses {_kind(r['order'])}"] += 1
        elif ours_invalid:
            tally[f"only mobadj refuses {_kind(r['order'])}: {r['reason']}"] += 1


def compare(case: dict[str, Any], orc: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """(our answer, the list of aspects that differ)."""
    rejected = set(orc.get("rejected", []))
    mine = ours(case, rejected, orc.get("retreat_orders") if "retreat_orders" in orc else None)
    diffs = []
    if mine["units"] != orc["units"]:
        diffs.append("units")
    # the oracle removes a dislodged unit with no retreat at once; its results still say
    # "dislodged", so the dislodged units are compared by those results
    orc_dislodged = sorted(u for u, rs in orc.get("results", {}).items() if "dislodged" in rs)
    if case["phase"].endswith("M") and orc_dislodged != sorted(
            u.split(" ", 1)[1] for u in mine["dislodged"]):
        diffs.append("dislodged")
    elif case["phase"].endswith("M") and {u: r for u, r in mine["retreats"].items() if r} != {
            u: sorted(r) for u, r in orc["retreats"].items()}:
        diffs.append("retreats")
    if set(diffs) <= {"retreats"} and mine["after_retreat"] != orc.get("after_retreat") and (
            mine["after_retreat"] is not None or orc.get("after_retreat") is not None):
        diffs.append("after_retreat")
    # supply centres: after a fall movement no retreat phase follows, and after the retreats
    if not diffs and case["phase"].startswith("F") and (
            (not str(mine["next_phase"]).endswith("R") and mine["centers"] != orc.get("centers"))
            or (mine["centers_after_retreat"] is not None
                and mine["centers_after_retreat"] != orc.get("centers_after_retreat"))):
        diffs.append("centers")
    return mine, diffs


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="cross-check mobadj against the MILA engine")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=1000)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--oracle-python", default="/tmp/oracle-venv/bin/python")
    ap.add_argument("--report", default="build/crosscheck-report.jsonl")
    ap.add_argument("--show", help="print one case id (seed:index) with both answers")
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                    help="a DATC rule option for mobadj's side (docs/rulings.md)")
    args = ap.parse_args(argv)
    OPTIONS.update(o.split("=", 1) for o in args.option)
    if args.show:
        seed, index = (int(x) for x in args.show.split(":"))
        cases = list(generate(seed, 1, index))
    else:
        cases = list(generate(args.seed, args.count, args.start))
    answers = oracle(cases, args.oracle_python)
    tally: Counter[str] = Counter()
    phases: Counter[str] = Counter()
    agree: Counter[str] = Counter()
    rejected_total = 0
    legal: Counter[str] = Counter()
    Path(args.report).parent.mkdir(parents=True, exist_ok=True)
    with open(args.report, "w") as rep:
        for case in cases:
            orc = answers.get(case["id"], {})
            kind = case["phase"][-1]
            phases[kind] += 1
            if "error" in orc or not orc:
                tally["oracle error"] += 1
                continue
            rejected_total += len(orc.get("rejected", []))
            legality(case, orc, legal)
            mine, diffs = compare(case, orc)
            if args.show:
                json.dump({"case": case, "oracle": orc, "mobadj": mine, "diffs": diffs},
                          sys.stdout, indent=1)
                print()
            if mine["after_retreat"] is not None:  # the retreat phase that followed
                phases["R"] += 1
                agree["R"] += not diffs
            if any("paradox" in str(r[1]) for r in mine["results"].values()):
                tally["(cases with a convoy paradox)"] += 1
                agree["paradox"] += not diffs
            if not diffs:
                agree[kind] += 1
                continue
            category = classify(case, orc, mine, diffs,
                                lambda alt, orc=orc: compare(alt, orc)[1])
            tally[category] += 1
            rep.write(json.dumps({"id": case["id"], "diffs": diffs, "category": category,
                                  "only_ours": sorted(set(mine["units"]) - set(orc["units"])),
                                  "only_oracle": sorted(set(orc["units"]) - set(mine["units"]))})
                      + "\n")
    total = phases["M"] + phases["A"]
    same = agree["M"] + agree["A"]
    print(f"cases: {total} ({dict(phases)}, R = retreat phases that followed); agree: {same} "
          f"({100.0 * same / max(1, total):.2f}%); by kind {dict(agree)}")
    print(f"orders the oracle refused (taken out of both sides): {rejected_total}")
    for cat, n in tally.most_common():
        print(f"  {n:6d}  {cat}")
    print("order legality (oracle refused / mobadj's verdict on the full orders):")
    for cat, n in legal.most_common():
        print(f"  {n:6d}  {cat}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
