"""Findings: what the loader and checker say about a map file, each with its line."""

from __future__ import annotations

from dataclasses import dataclass

from mobadj.errors import MapError

KINDS = (
    "yaml",              # not valid YAML
    "schema",            # a field of the wrong shape or value
    "variant",           # a variant: whose rules cannot be imported
    "duplicate-id",      # two provinces/aliases/names that collide
    "unknown-name",      # a name that is not defined (unit kind, power, province in a list)
    "dead-coast",        # a coast declared with no adjacency (no unit can stand on it)
    "duplicate-unit",    # the same starting unit listed twice for one power
    "home-not-supply",   # a home centre that is not a supply centre
    "home-mismatch",     # province `home:` and power `home:` disagree
    "dangling",          # an adjacency to a location that does not exist / cannot hold the unit
    "asymmetric",        # an adjacency listed from one end only
    "impossible-unit",   # a starting unit on a location its kind cannot occupy
    "unreachable",       # a province no unit can get to (or back from)
)
"""In the order :mod:`mobadj.board.check` prints them: a root cause comes before what it
causes (a broken file, then bad names and coasts, then the adjacencies that name them)."""


@dataclass(frozen=True, slots=True)
class Finding:
    """One complaint: ``severity`` is ``"error"`` or ``"warning"``."""

    line: int
    kind: str
    message: str
    severity: str = "error"

    def __str__(self) -> str:
        return f"line {self.line}: {self.severity}: {self.message} [{self.kind}]"


def cause_first(finding: Finding) -> tuple[int, int, str]:
    """Sort key: root causes first (:data:`KINDS` is in cause-to-effect order), then line."""
    rank = KINDS.index(finding.kind) if finding.kind in KINDS else len(KINDS)
    return rank, finding.line, finding.message


class MapFileError(MapError, ValueError):
    """A map file with errors; ``findings`` lists them all (with lines)."""

    def __init__(self, path: str, findings: list[Finding]) -> None:
        self.path = path
        self.findings = findings
        errors = sorted((f for f in findings if f.severity == "error"), key=cause_first)
        head = "\n  ".join(str(f) for f in errors[:10])
        more = f"\n  ... and {len(errors) - 10} more" if len(errors) > 10 else ""
        super().__init__(f"{path}: {len(errors)} error(s) in map file:\n  {head}{more}")
