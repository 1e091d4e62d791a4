"""Findings: what the loader and checker say about a map file, each with its line."""

from __future__ import annotations

from dataclasses import dataclass

KINDS = (
    "yaml",              # not valid YAML
    "schema",            # a field of the wrong shape or value
    "unknown-name",      # a name that is not defined (unit kind, power, province in a list)
    "dangling",          # an adjacency to a location that does not exist / cannot hold the unit
    "asymmetric",        # an adjacency listed from one end only
    "duplicate-id",      # two provinces/aliases/names that collide
    "unreachable",       # a province no unit can get to (or back from)
    "home-not-supply",   # a home centre that is not a supply centre
    "home-mismatch",     # province `home:` and power `home:` disagree
    "impossible-unit",   # a starting unit on a location its kind cannot occupy
)


@dataclass(frozen=True, slots=True)
class Finding:
    """One complaint: ``severity`` is ``"error"`` or ``"warning"``."""

    line: int
    kind: str
    message: str
    severity: str = "error"

    def __str__(self) -> str:
        return f"line {self.line}: {self.severity}: {self.message} [{self.kind}]"


class MapFileError(ValueError):
    """A map file with errors; ``findings`` lists them all (with lines)."""

    def __init__(self, path: str, findings: list[Finding]) -> None:
        self.path = path
        self.findings = findings
        errors = [f for f in findings if f.severity == "error"]
        head = "\n  ".join(str(f) for f in errors[:10])
        more = f"\n  ... and {len(errors) - 10} more" if len(errors) > 10 else ""
        super().__init__(f"{path}: {len(errors)} error(s) in map file:\n  {head}{more}")
