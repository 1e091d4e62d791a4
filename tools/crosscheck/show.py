"""Print one generated case with both adjudicators' answers, compactly (for triage).

    python -m tools.crosscheck.show 1:58 [1:63 ...]
"""

from __future__ import annotations

import sys

from tools.crosscheck import run
from tools.crosscheck.generate import generate


def show(case_id: str, python: str = "/tmp/oracle-venv/bin/python") -> None:
    seed, index = (int(x) for x in case_id.split(":"))
    case = next(iter(generate(seed, 1, index)))
    orc = run.oracle([case], python)[case_id]
    mine, diffs = run.compare(case, orc)
    print(f"== {case_id} {case['phase']} diffs={diffs}")
    print("units:", case["units"])
    print("centers:", case["centers"])
    for power, lst in case["orders"].items():
        print(f"  {power}: {'; '.join(lst)}")
    print("oracle refused:", orc.get("rejected"))
    print("only ours  :", sorted(set(mine["units"]) - set(orc["units"])))
    print("only oracle:", sorted(set(orc["units"]) - set(mine["units"])))
    print("dislodged ours:", mine["retreats"], " oracle:", orc["retreats"],
          [u for u, r in orc["results"].items() if "dislodged" in r])
    print("oracle results:", {u: r for u, r in orc["results"].items() if r and r != [""]})
    print("our results:", {o: f"{r[0].value}: {r[1].value if r[1] else ''}"
                           for o, r in mine["results"].items() if r[0].value != "succeeds"})
    if mine["after_retreat"] or orc.get("after_retreat"):
        print("retreat orders:", orc.get("retreat_orders"), "refused:", orc.get("retreat_rejected"))
        print("after retreat only ours:", sorted(set(mine["after_retreat"] or [])
                                               - set(orc.get("after_retreat") or [])))
        print("after retreat only oracle:", sorted(set(orc.get("after_retreat") or [])
                                                 - set(mine["after_retreat"] or [])))


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        show(arg)
