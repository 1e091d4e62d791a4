"""Firm Support: a support is cut only when the supporting unit is dislodged."""

from __future__ import annotations

from mobadj.engine import Decisions, MOrder, Rules


class FirmSupportRules(Rules):
    """The standard rules with one resolver hook changed."""

    def cuts_support(self, support: MOrder, attack: MOrder, decisions: Decisions) -> bool:
        """Only an attack that dislodges the supporting unit cuts its support: one that
        succeeds (no unit of the supporter's own power can dislodge it)."""
        return decisions.succeeds(attack)
