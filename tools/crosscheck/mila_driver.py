"""Oracle driver: adjudicates batch JSON lines with the MILA ``diplomacy`` package.

Runs ONLY inside the oracle's own virtualenv (``tools/crosscheck/run.py --oracle-python``);
the package is not a dependency of mobadj and nothing of it is imported by mobadj.  Reads
the generator's JSON lines on stdin and writes one JSON line per case:
``{"id", "rejected": [order...], "moved": {...}, "units": [..], "dislodged": [..],
"retreats": {unit: [...]}, "next_phase", "after_retreat": [..] | null}``.
"""

from __future__ import annotations

import json
import sys

from diplomacy import Game  # the oracle; installed only in its own virtualenv


def _mila(text: str) -> str:
    """Our order text in MILA's dialect (``VIA`` for via convoy, ``B``/``D`` adjustments)."""
    t = " ".join(text.upper().replace(" VIA CONVOY", " VIA").split())
    if t.startswith("BUILD "):
        return t[6:] + " B"
    if t.startswith("REMOVE "):
        return t[7:] + " D"
    return t


def _set_up(case: dict) -> Game:
    game = Game(map_name="standard")
    game.clear_units()
    game.clear_centers()
    game.set_current_phase(case["phase"])
    dislodged = {power.upper(): ["*" + entry["unit"] for entry in entries]
                 for power, entries in (case.get("dislodged") or {}).items()}
    for power, units in case.get("units", {}).items():
        game.set_units(power.upper(), list(units) + dislodged.pop(power.upper(), []))
    for power, units in dislodged.items():  # a power with only dislodged units
        game.set_units(power, units)
    for power, centers in case.get("centers", {}).items():
        game.set_centers(power.upper(), list(centers))
    return game


def _give(game: Game, orders: dict) -> list[str]:
    """Set the orders; return those the oracle refused."""
    rejected: list[str] = []
    for power, texts in orders.items():
        mila = [_mila(t) for t in texts]
        game.error = []
        game.set_orders(power.upper(), mila)
        # the oracle may rewrite an order it keeps ("F GRE - BUL" -> "F GRE - BUL/SC"):
        # an order counts as kept when its unit has an order
        kept = {" ".join(o.split()[:2]).replace("*", "") for o in game.get_orders(power.upper())}
        rejected += [t for t, m in zip(texts, mila, strict=True)
                     if m != "WAIVE" and " ".join(m.split()[:2]) not in kept]
    return rejected


def _units(game: Game) -> tuple[list[str], list[str]]:
    units, dislodged = [], []
    for power, lst in game.get_units().items():
        for u in lst:
            if u.startswith("*"):
                dislodged.append(f"{power} {u[1:]}")
            else:
                units.append(f"{power} {u}")
    return sorted(units), sorted(dislodged)


def possible(case: dict) -> dict:
    """Every order the oracle would accept in this phase (and, after a movement phase that
    dislodged someone, in the retreat phase that follows): its own order notation."""
    game = _set_up(case)
    texts = sorted({o for lst in game.get_all_possible_orders().values() for o in lst})
    if case["phase"].endswith("M"):
        _give(game, case.get("orders", {}))
        game.process()
        if game.get_current_phase().endswith("R"):
            texts += sorted({o for lst in game.get_all_possible_orders().values() for o in lst})
    return {"id": case["id"], "possible": texts}


def _centers(game: Game) -> list[str]:
    return sorted(f"{p} {c}" for p, lst in game.get_centers().items() for c in lst)


def run(case: dict) -> dict:
    if case.get("mode") == "possible":
        return possible(case)
    game = _set_up(case)
    rejected = _give(game, case.get("orders", {}))
    phase = game.get_current_phase()
    game.process()
    units, dislodged = _units(game)
    results = {u: [str(r) for r in rs] for u, rs in game.result_history[phase].items()}
    retreats = {}
    for power in game.powers.values():
        for u, r in power.retreats.items():
            retreats[f"{power.name} {u}"] = sorted(r)
    out = {"id": case["id"], "rejected": rejected, "units": units, "dislodged": dislodged,
           "retreats": retreats, "results": results, "next_phase": game.get_current_phase(),
           "after_retreat": None, "retreat_rejected": [], "centers": _centers(game),
           "centers_after_retreat": None}
    if game.get_current_phase().endswith("R") and case.get("retreat_plan"):
        plan = {}
        for power, texts in case["retreat_plan"].items():
            mine = {u.split(" ", 1)[1] for u in dislodged if u.split(" ", 1)[0] == power.upper()}
            sel = [t for t in texts if " ".join(t.split()[:2]) in mine]
            if sel:
                plan[power] = sel
        out["retreat_orders"] = plan
        out["retreat_rejected"] = _give(game, plan)
        game.process()
        out["after_retreat"] = _units(game)[0]
        out["centers_after_retreat"] = _centers(game)
    return out


def main() -> None:
    for line in sys.stdin:
        if not line.strip():
            continue
        case = json.loads(line)
        try:
            out = run(case)
        except Exception as exc:  # one bad case must not stop the run
            out = {"id": case.get("id"), "error": f"{type(exc).__name__}: {exc}"}
        sys.stdout.write(json.dumps(out) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
