"""Shrink a disagreeing case to a minimal position (for regression tests and reports).

    python -m tools.crosscheck.minimize 1:350 [--oracle-python PATH]

Greedy: take away one unit (with its orders) at a time while the two adjudicators still
disagree in the same way; every round sends all candidates to the oracle in one process.
Prints the minimal case as JSON with both answers.
"""

from __future__ import annotations

import argparse
import copy
import json
from typing import Any

from tools.crosscheck import run
from tools.crosscheck.generate import generate


def _without_unit(case: dict[str, Any], power: str, unit: str) -> dict[str, Any]:
    alt = copy.deepcopy(case)
    alt["units"][power] = [u for u in alt["units"][power] if u != unit]
    for key in ("orders", "retreat_plan"):
        if key in alt and power in alt[key]:
            alt[key][power] = [o for o in alt[key][power] if not o.startswith(unit + " ")]
    return alt


def minimize(case: dict[str, Any], python: str) -> tuple[dict[str, Any], dict, dict, list]:
    orc = run.oracle([case], python)[case["id"]]
    mine, diffs = run.compare(case, orc)
    if not diffs:
        raise SystemExit(f"{case['id']}: no disagreement")
    target = set(diffs)
    while True:
        cands = []
        for power, units in case["units"].items():
            for unit in units:
                alt = _without_unit(case, power, unit)
                alt["id"] = f"{case['id']}-{len(cands)}"
                cands.append(alt)
        answers = run.oracle(cands, python)
        for alt in cands:
            o = answers[alt["id"]]
            if "error" in o:
                continue
            m, d = run.compare(alt, o)
            if d and set(d) <= target | {"retreats"} and set(d) & target:
                case, orc, mine, diffs = alt, o, m, d
                break
        else:
            return case, orc, mine, diffs


def main() -> None:
    ap = argparse.ArgumentParser(description="shrink a disagreeing case")
    ap.add_argument("case_id")
    ap.add_argument("--oracle-python", default="/tmp/oracle-venv/bin/python")
    args = ap.parse_args()
    seed, index = (int(x) for x in args.case_id.split(":"))
    case = next(iter(generate(seed, 1, index)))
    case, orc, mine, diffs = minimize(case, args.oracle_python)
    case = {k: v for k, v in case.items() if v}
    print(json.dumps({"case": case, "diffs": diffs,
                      "oracle": {k: orc[k] for k in ("units", "dislodged", "results")},
                      "mobadj": {k: mine[k] for k in ("units", "dislodged")},
                      "mobadj_results": {o: f"{r[0].value} {r[1].value if r[1] else ''}"
                                         for o, r in mine["results"].items()}}, indent=1))


if __name__ == "__main__":
    main()
