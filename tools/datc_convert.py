"""One-off converter: DATC reference suites -> tests/datc/*.yaml (then corrected by hand).

Reads the godip/jDip v2.4 file (before/after positions) and the TedDriggs v3.0 JSON
(per-order outcomes) from ../shared/reference/datc/, writes one YAML file per DATC section.
The output was then checked against DATC_v3_0.txt and edited by hand where v3.0 differs
(see the README there and docs/rulings.md); re-running it would undo those edits, so it
writes to an output directory given on the command line.

    python tools/datc_convert.py /tmp/datc-out
"""

from __future__ import annotations

import csv
import json
import re
import sys
from pathlib import Path

import yaml

from mobadj.board.loader import load_map

REF = Path(__file__).resolve().parents[1].parent / "shared" / "reference" / "datc"
GAME_MAP = load_map("standard")
POWERS = {
    "england": "ENGLAND",
    "france": "FRANCE",
    "germany": "GERMANY",
    "germnay": "GERMANY",
    "italy": "ITALY",
    "austria": "AUSTRIA",
    "russia": "RUSSIA",
    "turkey": "TURKEY",
    "eng": "ENGLAND",
    "fra": "FRANCE",
    "ger": "GERMANY",
    "ita": "ITALY",
    "aus": "AUSTRIA",
    "rus": "RUSSIA",
    "tur": "TURKEY",
}
SKIP = {
    "6.A.3.fleet.support.inland",
    "6.A.5.old",
    "6.A.7.modified",
    "6.A.10.old",
    "6.F.22.extended",
    "6.G.10.mod",
    "6.G.11.mod",
    "6.H.5.mod",
}


def loc(text: str) -> str:
    text = text.strip().lower().replace("(", "/").replace(")", "")
    if text == "nor":
        text = "nwy"
    return GAME_MAP.lookup(text)


def prov(text: str) -> str:
    return loc(text).split("/")[0]


def unit(text: str) -> str:
    kind, where = text.split()
    return f"{kind.upper()} {loc(where)}"


def order(text: str, phase: str, prestate: dict[str, str]) -> str:
    """godip order text -> canonical order text."""
    t = re.sub(r"\s+", " ", text.strip())
    t = t.replace("->", "-")
    t = re.sub(r"\s*-\s*", " - ", t)
    m = re.match(r"(?i)^build ([af]) (\S+)$", t)
    if m:
        return f"Build {m.group(1).upper()} {loc(m.group(2))}"
    m = re.match(r"(?i)^(?:remove|disband) (?:([af]) )?(\S+)$", t)
    if m:
        p = prov(m.group(2))
        kind = (m.group(1) or prestate.get(p, "A")).upper()
        return f"Remove {kind} {loc(m.group(2))}"
    head = re.match(r"(?i)^([af]) (\S+)", t)
    kind, where = head.group(1).upper(), loc(head.group(2))
    rest = t[head.end() :].strip()
    u = f"{kind} {where}"
    if rest == "" or rest.lower() in ("h", "hold", "holds"):
        return f"{u} H"
    if rest.lower() in ("d", "disband"):
        return f"{u} Disband"
    m = re.match(r"(?i)^-\s*(\S+)(\s+via convoy)?$", rest)
    if m:
        return f"{u} - {loc(m.group(1))}" + (" via convoy" if m.group(2) else "")
    m = re.match(r"(?i)^(?:s|supports?)\s+(?:([af])\s+)?(\S+?)\s*(?:-\s*(\S+))?$", rest)
    if m:
        skind = (m.group(1) or prestate.get(prov(m.group(2)), "A")).upper()
        s = f"{u} S {skind} {loc(m.group(2))}"
        return s + (f" - {loc(m.group(3))}" if m.group(3) else "")
    m = re.match(r"(?i)^(?:c|convoys?)\s+(?:([af])\s+)?(\S+?)\s*-\s*(\S+)$", rest)
    if m:
        ckind = (m.group(1) or "A").upper()
        return f"{u} C {ckind} {loc(m.group(2))} - {loc(m.group(3))}"
    raise ValueError(f"cannot convert order {text!r}")


def parse_godip(path: Path) -> list[dict]:
    cases: list[dict] = []
    cur: dict | None = None
    block = None
    for raw in path.read_text().splitlines():
        line = raw.split("#", 1)[0].rstrip()
        comment = raw.split("#", 1)[1] if "#" in raw else ""
        if not line.strip():
            if cur is not None and "NO RETREAT" in comment.upper():
                m = re.match(r"#*\s*(\w+):\s*([AaFf] \S+)", comment.lstrip("#").strip())
                if m:
                    cur.setdefault("no_retreat", []).append(
                        (POWERS[m.group(1).lower()], unit(m.group(2)))
                    )
            continue
        words = line.split()
        key = words[0]
        if key == "CASE":
            cur = {
                "id": words[1].rstrip("."),
                "pre": [],
                "owners": [],
                "dis": [],
                "res": [],
                "orders": [],
                "post": None,
                "postdis": [],
                "phase": "S1901M",
            }
            cases.append(cur)
            block = None
            continue
        if cur is None:
            continue
        if key == "PRESTATE_SETPHASE":
            rest = " ".join(words[1:]).lower()
            season = "S" if "spring" in rest else "F"
            kind = "M" if "movement" in rest else "R" if "retreat" in rest else "A"
            cur["phase"] = ("W" if kind == "A" else season) + "1901" + kind
            continue
        if key == "POSTSTATE_SAME":
            cur["post"] = list(cur["pre"])
            continue
        if key in (
            "PRESTATE",
            "PRESTATE_SUPPLYCENTER_OWNERS",
            "PRESTATE_DISLODGED",
            "PRESTATE_RESULTS",
            "ORDERS",
            "POSTSTATE",
            "POSTSTATE_DISLODGED",
        ):
            block = key
            if key == "POSTSTATE":
                cur["post"] = []
            continue
        if key == "END":
            block = None
            continue
        text = line.strip()
        m = re.match(r"(?:(SUCCESS|FAILURE):\s*)?(\w+):?\s+(.*)$", text)
        status, power, body = m.group(1), POWERS[m.group(2).lower()], m.group(3)
        if block == "PRESTATE":
            cur["pre"].append((power, unit(body)))
        elif block == "PRESTATE_SUPPLYCENTER_OWNERS":
            cur["owners"].append((power, prov(body.split()[1])))
        elif block == "PRESTATE_DISLODGED":
            cur["dis"].append((power, unit(body)))
        elif block == "PRESTATE_RESULTS":
            cur["res"].append((status, power, body))
        elif block == "ORDERS":
            cur["orders"].append((power, body))
        elif block == "POSTSTATE":
            cur["post"].append((power, unit(body)))
        elif block == "POSTSTATE_DISLODGED":
            cur["postdis"].append((power, unit(body)))
    return cases


def per_power(pairs) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for power, u in pairs:
        out.setdefault(power, []).append(u)
    return {p: sorted(v) for p, v in sorted(out.items())}


def json_outcomes() -> dict[str, dict[tuple[str, str], str]]:
    """DATC id -> {(power, unit province): 'succeeds'|'fails'} from the v3.0 JSON."""
    data = json.loads((REF / "datc_v3.0.teddriggs.json").read_text())
    out: dict[str, dict[tuple[str, str], str]] = {}
    for case in data["cases"]:
        cid = case["url"].rsplit("#", 1)[1]
        if case.get("ignore") or case.get("edition") not in (None, "2023"):
            continue
        if case["phase"] != "Main":
            continue
        got = out.setdefault(cid, {})
        for text, res in case["orders"].items():
            if res is None:
                continue
            power, body = text.split(":", 1)
            where = prov(body.split()[1])
            got[(POWERS[power.strip().lower()], where)] = res.lower()
    return out


def titles() -> dict[str, str]:
    rows = csv.DictReader((REF / "case_index.tsv").open(), delimiter="\t")
    return {r["datc_id"]: r["v3_title"] for r in rows}


def convert(case: dict, outcomes: dict, title: str) -> dict:
    cid = case["id"]
    prestate = {u.split()[1].split("/")[0]: u.split()[0] for _, u in case["pre"]}
    for _, u in case["dis"]:
        prestate.setdefault(u.split()[1].split("/")[0], u.split()[0])
    out: dict = {"id": cid, "title": title.capitalize(), "phase": case["phase"]}
    out["units"] = per_power(case["pre"])
    if case["owners"]:
        out["centers"] = per_power(case["owners"])
    if case["phase"].endswith("R"):
        moves = []
        for status, _power, body in case["res"]:
            m = re.match(r"(?i)^([af]) (\S+?)\s*-\s*(\S+)(\s+via convoy)?", body.strip())
            if m:
                kind = m.group(1).upper()
                src, dst = loc(m.group(2)), loc(m.group(3))
                convoyed = bool(m.group(4)) or not GAME_MAP.reaches_province(
                    kind, src if kind == "F" else src.split("/")[0], dst.split("/")[0]
                )
                moves.append((status, src.split("/")[0], dst.split("/")[0], convoyed))
        dislodged: dict[str, list] = {}
        for power, u in case["dis"]:
            p = u.split()[1].split("/")[0]
            entry = {"unit": u}
            for status, src, dst, convoyed in moves:
                if status == "SUCCESS" and dst == p:
                    entry["from"] = src
                    if convoyed:
                        entry["convoyed"] = True
            dislodged.setdefault(power, []).append(entry)
        out["dislodged"] = dislodged
        occupied = set(prestate)
        standoffs = sorted(
            {dst for status, _s, dst, _c in moves if status == "FAILURE" and dst not in occupied}
        )
        out["standoffs"] = standoffs
    orders = []
    known = outcomes.get(cid, {})
    for power, body in case["orders"]:
        text = f"{power}: {order(body, case['phase'], prestate)}"
        where = (
            prov(re.split(r"[-\s]", body.strip())[1])
            if body.split()[0].lower() in ("a", "f")
            else None
        )
        res = known.get((power, where)) if where else None
        orders.append(text + (f" => {res}" if res else ""))
    out["orders"] = orders
    expect: dict = {"units": per_power(case["post"] or [])}
    dis = list(case["postdis"]) + case.get("no_retreat", [])
    if dis:
        expect["dislodged"] = per_power(dis)
    if case.get("no_retreat"):
        expect["no_retreat"] = [f"{p}: {u}" for p, u in case["no_retreat"]]
    out["expect"] = expect
    return out


def main(outdir: str) -> None:
    cases = parse_godip(REF / "datc_v2.4_06.godip.txt")
    outcomes = json_outcomes()
    names = titles()
    seen: dict[str, int] = {}
    sections: dict[str, list] = {}
    for case in cases:
        cid = case["id"]
        if cid in SKIP:
            continue
        if cid == "6.F.E":
            cid = case["id"] = "6.F.5"
        if cid == "6.F.14" and seen.get(cid):
            cid = case["id"] = "6.F.15"
        seen[cid] = 1
        if cid.startswith("6.J.9.part"):
            continue
        sections.setdefault(cid.split(".")[1], []).append(
            convert(case, outcomes, names.get(cid, ""))
        )
    Path(outdir).mkdir(parents=True, exist_ok=True)
    for sec, items in sections.items():
        path = Path(outdir) / f"6{sec.lower()}.yaml"
        path.write_text(yaml.safe_dump(items, sort_keys=False, width=100, allow_unicode=True))
        print(path, len(items))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/tmp/datc-out")
