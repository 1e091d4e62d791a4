"""Run the DATC movement and adjustment cases of tests/datc/ through the oracle.

    python -m tools.crosscheck.datc_oracle

Lists the DATC 3.0 cases where the oracle's board after the phase differs from the
DATC's expected one: the oracle's known deviations, case by case (docs/crosscheck.md).
Retreat cases (6.H) need the movement phase's history and are left out.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import yaml

from tools.crosscheck.run import oracle

DATC = Path(__file__).resolve().parents[2] / "tests" / "datc"


def _flat(per_power: dict | None) -> list[str]:
    return sorted(f"{p.upper()} {u}" for p, lst in (per_power or {}).items() for u in lst)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--oracle-python", default="/tmp/oracle-venv/bin/python")
    args = ap.parse_args()
    cases = [c for path in sorted(DATC.glob("6*.yaml")) for c in yaml.safe_load(path.read_text())]
    batch, expect = [], {}
    for c in cases:
        scenarios = [({}, c["id"])] + [(v, f"{c['id']}/{n}")
                                       for n, v in enumerate(c.get("variants", []), 2)]
        for scenario, key in scenarios:
            data = {**c, **scenario}
            if data["phase"].endswith("R"):
                continue
            orders: dict[str, list[str]] = {}
            for line in data["orders"]:
                text = line.partition(" => ")[0]
                power, _, order = text.partition(":")
                orders.setdefault(power.strip().upper(), []).append(order.strip())
            batch.append({"id": key, "map": "standard", "phase": data["phase"],
                          "units": data["units"], "centers": data.get("centers", {}),
                          "orders": orders})
            expect[key] = scenario.get("expect", c["expect"])
    answers = oracle(batch, args.oracle_python)
    differ = 0
    for case in batch:
        got, want = answers[case["id"]], expect[case["id"]]
        if "error" in got:
            print(f"{case['id']}: oracle error {got['error']}")
            differ += 1
            continue
        units_ok = got["units"] == _flat(want.get("units"))
        moved = case["phase"].endswith("M")
        disl = sorted(u for u, rs in got["results"].items() if "dislodged" in rs)
        want_disl = sorted(u.split(" ", 1)[1] for u in _flat(want.get("dislodged")))
        if not units_ok or (moved and disl != want_disl):
            differ += 1
            ours, theirs = set(_flat(want.get("units"))), set(got["units"])
            print(f"{case['id']}: oracle units {sorted(theirs - ours)}"
                  f" instead of {sorted(ours - theirs)};"
                  f" dislodged {disl} (DATC {want_disl}); refused {got['rejected']}")
    print(f"{len(batch)} DATC scenarios (retreat cases left out); the oracle differs on {differ}")


if __name__ == "__main__":
    main()
