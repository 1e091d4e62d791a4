"""Why do the oracle and mobadj disagree on a case?  (docs/crosscheck.md)

Each known rule difference is checked by a counterfactual: the case is changed the way the
oracle's rule would read it (a "via convoy" army allowed its land route, the oracle's own
choice of civil-disorder removals given as orders) and mobadj is run again; when mobadj
then agrees, the difference is that rule and nothing else.  What no check explains is
"unexplained" and needs a human (and, when mobadj is wrong, a regression test).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from mobadj.board.loader import load_map
from mobadj.engine.topology import topology_for

FALLBACK = "oracle: land route for a failed 'via convoy' move (DATC 4.A.3, 6.G.8, 6.G.20)"
CIVIL_DISORDER = "oracle: pre-2023 civil-disorder removals (DATC 4.D.8)"
RETREATS_CONVOY = "oracle: retreat list after a convoyed attack keeps occupied/standoff spaces"
VIA_OWN_SUPPORT = ("oracle: an explicit 'via convoy' move counts support from the power of the "
                   "unit it attacks (DATC 6.D.12)")
VOID_OWN_SUPPORT = ("oracle: a support for an attack on the supporter's own unit is void, so "
                    "it no longer counts for the head-to-head defence (DATC 6.E.6, 6.E.12)")
DISRUPTED = ("oracle: a convoy is 'disrupted' by an attack that only a support of the fleet's "
             "own power makes strong enough; the fleet is not dislodged (DATC 6.D.12)")
WAIVE = ("oracle: a Waive does not use up a build when a build order follows it "
         "(DATC 4.D.4 b, 4.D.7: the first orders count)")
RETREAT_STANDOFF = ("oracle: after a convoyed attack, the dislodged unit may retreat to a "
                    "standoff space (DATC 6.H.6)")
WRONG_COAST = ("oracle: a support naming another coast than the supported move still counts "
               "(DATC 6.B.9, 4.B.4)")
CONVOY_FAILS = ("convoy disrupted", "no convoy route")

Rerun = Callable[[dict[str, Any]], list[str]]


def classify(case: dict[str, Any], orc: dict[str, Any], mine: dict[str, Any],
             diffs: list[str], rerun: Rerun) -> str:
    """A category name for a disagreement; "unexplained: ..." needs a human."""
    if case["phase"].endswith("A"):
        return (_civil_disorder(case, orc, rerun) or _waive(case, rerun)
                or "unexplained: adjustment " + "+".join(diffs))
    got = _fallback(case, mine, rerun)
    if got:
        return got
    if _via_own_support(case):
        return VIA_OWN_SUPPORT
    if _wrong_coast(case, rerun):
        return WRONG_COAST
    if _disrupted_undislodged(orc, mine):
        return DISRUPTED
    if _void_own_support(case, orc, mine, rerun):
        return VOID_OWN_SUPPORT
    if diffs == ["retreats"] and _retreats_superset(orc, mine):
        return RETREATS_CONVOY
    if diffs == ["retreats", "after_retreat"] and _retreats_superset(orc, mine):
        return RETREAT_STANDOFF
    return "unexplained: " + "+".join(diffs)


def _fallback(case: dict[str, Any], mine: dict[str, Any], rerun: Rerun) -> str | None:
    army_reach = topology_for(load_map("standard")).reach["A"]
    failed = {o for o, (res, why) in mine["results"].items()
              if "VIA CONVOY" in o.upper() and res == "fails" and why in CONVOY_FAILS
              and o.upper().split()[3] in army_reach.get(o.upper().split()[1], ())}
    # all of them by land, else one at a time (the oracle keeps the convoy route where a
    # convoy paradox makes it "exist")
    for chosen in [failed] + [{o} for o in sorted(failed)] if len(failed) > 1 else [failed]:
        if chosen and _by_land(case, chosen, rerun):
            return FALLBACK
    return None


def _by_land(case: dict[str, Any], failed: set[str], rerun: Rerun) -> bool:
    # the land route: no "via convoy", and no convoy orders for the army (its own fleets'
    # convoy orders would otherwise make mobadj take the convoy route, 2023 rules)
    armies = {" ".join(o.upper().split()[:2]) for o in failed}
    alt = copy.deepcopy(case)
    alt["orders"] = {p: [o.upper().replace(" VIA CONVOY", "") if o in failed else o for o in lst
                         if not (" C " in o.upper() and
                                 " ".join(o.upper().split()[3:5]) in armies)]
                     for p, lst in alt["orders"].items()}
    return set(rerun(alt)) <= {"retreats"}


def _via_own_support(case: dict[str, Any]) -> bool:
    """Is a "via convoy" move supported by the power of the unit standing where it goes?"""
    owner = {u.split()[1][:3]: p for p, lst in case["units"].items() for u in lst}
    via = {}
    for lst in case["orders"].values():
        for o in lst:
            w = o.upper().split()
            if w[-2:] == ["VIA", "CONVOY"]:
                via[" ".join(w[:2])] = w[3][:3]
    for power, lst in case["orders"].items():
        for o in lst:
            w = o.upper().split()
            if len(w) >= 7 and w[2] == "S" and w[5] == "-":
                unit, dest = " ".join(w[3:5]), w[6][:3]
                if via.get(unit) == dest and owner.get(dest) == power:
                    return True
    return False


def _civil_disorder(case: dict[str, Any], orc: dict[str, Any], rerun: Rerun) -> str | None:
    alt = copy.deepcopy(case)
    left = set(orc["units"])
    for power, units in case["units"].items():
        gone = [u for u in units if f"{power} {u}" not in left]
        ordered = {o.split(" ", 1)[1] for o in case["orders"].get(power, [])
                   if o.startswith("Remove ")}
        extra = [f"Remove {u}" for u in gone if u not in ordered]
        if extra:
            alt["orders"].setdefault(power, []).extend(extra)
    if alt == case:
        return None
    return CIVIL_DISORDER if not rerun(alt) else None


def _retreats_superset(orc: dict[str, Any], mine: dict[str, Any]) -> bool:
    ours = {u: set(r) for u, r in mine["retreats"].items() if r}
    theirs = {u: set(r) for u, r in orc["retreats"].items()}
    return all(ours.get(u, set()) <= r for u, r in theirs.items()) and all(
        u in theirs for u in ours)


def _disrupted_undislodged(orc: dict[str, Any], mine: dict[str, Any]) -> bool:
    ours = {u.split(" ", 1)[1] for u in mine["dislodged"]}
    return any("disrupted" in rs and u not in ours and "dislodged" not in rs
               for u, rs in orc["results"].items())


def _void_own_support(case: dict[str, Any], orc: dict[str, Any], mine: dict[str, Any],
                      rerun: Rerun) -> bool:
    """Counterfactual: take away the supports the oracle voided and mobadj did not."""
    owner = {u.split()[1][:3]: p for p, lst in case["units"].items() for u in lst}
    drop = set()
    for power, lst in case["orders"].items():
        for o in lst:
            w = o.upper().split()
            if (len(w) >= 7 and w[2] == "S" and w[5] == "-" and owner.get(w[6][:3]) == power
                    and "void" in orc["results"].get(" ".join(w[:2]), [])
                    and mine["results"].get(o, ("",))[0] == "succeeds"):
                drop.add(o)
    if not drop:
        return False
    alt = copy.deepcopy(case)
    alt["orders"] = {p: [o for o in lst if o not in drop] for p, lst in alt["orders"].items()}
    return set(rerun(alt)) <= {"retreats"}


def _waive(case: dict[str, Any], rerun: Rerun) -> str | None:
    """Counterfactual: without the Waive orders (the oracle lets later builds count)."""
    if not any("WAIVE" in o.upper() for lst in case["orders"].values() for o in lst):
        return None
    alt = copy.deepcopy(case)
    alt["orders"] = {p: [o for o in lst if o.upper() != "WAIVE"]
                     for p, lst in alt["orders"].items()}
    return WAIVE if not rerun(alt) else None


def _wrong_coast(case: dict[str, Any], rerun: Rerun) -> bool:
    """Counterfactual: every support naming a coast names the coast the move goes to."""
    dest = {}
    for lst in case["orders"].values():
        for o in lst:
            w = o.upper().split()
            if len(w) >= 4 and w[2] == "-":
                dest[" ".join(w[:2])] = w[3]
    changed = False
    alt = copy.deepcopy(case)
    for lst in alt["orders"].values():
        for i, o in enumerate(lst):
            w = o.upper().split()
            if len(w) >= 7 and w[2] == "S" and w[5] == "-" and "/" in w[6]:
                real = dest.get(" ".join(w[3:5]), "")
                if "/" in real and real != w[6]:
                    lst[i] = " ".join(w[:6] + [real])
                    changed = True
    return changed and not rerun(alt)
