"""Show the oracle's answer on the regression positions (tests/engine/crosscheck_cases.yaml).

    python -m tools.crosscheck.regressions

For each case: whether the oracle agrees with the expected (rule-argued) result; a case
the oracle gets "right" no longer documents a deviation and should be looked at again.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import yaml

from tools.crosscheck.run import oracle

CASES = Path(__file__).resolve().parents[2] / "tests" / "engine" / "crosscheck_cases.yaml"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--oracle-python", default="/tmp/oracle-venv/bin/python")
    args = ap.parse_args()
    cases = yaml.safe_load(CASES.read_text())
    batch = []
    for c in cases:
        orders: dict[str, list[str]] = {}
        for line in (c["orders"] or "").splitlines():
            power, text = line.split(":", 1)
            orders.setdefault(power.strip(), []).append(text.strip())
        plan: dict[str, list[str]] = {}
        for line in (c.get("retreat_orders") or "").splitlines():
            power, text = line.split(":", 1)
            plan.setdefault(power.strip(), []).append(text.strip())
        batch.append({"id": c["id"], "map": "standard", "phase": c["phase"],
                      "units": c["units"], "centers": c.get("centers", {}), "orders": orders,
                      "retreat_plan": plan})
    answers = oracle(batch, args.oracle_python)
    for c in cases:
        got = answers[c["id"]]
        same = sorted(got["units"]) == sorted(c["expect"]["units"]) and sorted(
            got["dislodged"]) == sorted(c["expect"].get("dislodged", []))
        retreats = c["expect"].get("retreats")
        if same and retreats:
            same = all(sorted(r) == sorted(retreats.get(u.split(" ", 1)[1], []))
                       for u, r in got["retreats"].items())
        if same and "after_retreat" in c["expect"]:
            same = sorted(got["after_retreat"] or []) == sorted(c["expect"]["after_retreat"])
        print(f"{'oracle agrees ' if same else 'oracle DIFFERS'}  {c['id']}: "
              f"units {got['units']} dislodged {got['dislodged']} retreats {got['retreats']}")


if __name__ == "__main__":
    main()
