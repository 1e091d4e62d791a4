"""A variant changes how supports are cut and convoys arrive through the rules' public hooks
(``cuts_support``, ``convoy_path``), never by subclassing the resolver (compiled in the
compiled build); its rule composes with the DATC options, whose resolver asks the same
hooks."""

from __future__ import annotations

import pytest

from mobadj.engine import Decisions, MOrder, Outcome, Rules
from mobadj.engine.movement import Resolver
from mobadj.engine.options import OptionResolver, resolver_class

from .helpers import play, result_of, units_after
from .test_rule_options import run_case


class FleetsDoNotCut(Rules):
    """Only armies cut supports; otherwise the game's own rule (its DATC options too)."""

    def cuts_support(self, support: MOrder, attack: MOrder, decisions: Decisions) -> bool:
        return attack.unit_kind != "F" and decisions.cuts(support, attack)


class OneFleetConvoys(Rules):
    """A convoy takes one fleet at most; otherwise the game's own route rule."""

    def convoy_path(self, move: MOrder, decisions: Decisions) -> bool:
        return len(decisions.convoyers(move)) <= 1 and decisions.route(move)


FLEET_CUTS = ({"FRANCE": ["A PAR", "F BRE"], "GERMANY": ["A PIC"], "ENGLAND": ["F ENG"]},
              "FRANCE: A PAR - PIC\nFRANCE: F BRE S A PAR - PIC\nGERMANY: A PIC H\n"
              "ENGLAND: F ENG - BRE")


@pytest.mark.parametrize("paradox", ["szykman", "1982", "2000"])
def test_a_support_rule_of_a_variant_with_any_paradox_rule(paradox: str) -> None:
    standard = play(*FLEET_CUTS, rules=Rules(paradox=paradox))
    variant = play(*FLEET_CUTS, rules=FleetsDoNotCut(paradox=paradox))
    assert result_of(standard, "F BRE").outcome is Outcome.FAILS
    assert result_of(variant, "F BRE").outcome is Outcome.SUCCEEDS
    assert "FRANCE A PIC" in units_after(variant)


@pytest.mark.parametrize("paradox", ["1982", "1971"])
def test_the_paradox_option_still_acts_under_a_variants_support_rule(paradox: str) -> None:
    """DATC 6.F.19 by the 1982 and 1971 rules: the convoyed army does not cut Naples'
    support, so Rome dislodges the fleet in the Tyrrhenian Sea; the variant's rule (only
    fleets are spared) leaves the option's ruling as it is."""
    option = run_case("6.F.19", Rules(paradox=paradox))
    both = run_case("6.F.19", FleetsDoNotCut(paradox=paradox))
    assert {str(d.unit) for d in both.dislodged} == {str(d.unit) for d in option.dislodged}
    assert {str(d.unit) for d in both.dislodged} == {"F TYS"}
    assert {str(d.unit) for d in run_case("6.F.19", FleetsDoNotCut()).dislodged} == set()


TWO_FLEETS = ({"ENGLAND": ["A LON", "F ENG", "F MAO"]},
              "ENGLAND: A LON - POR\nENGLAND: F ENG C A LON - POR\n"
              "ENGLAND: F MAO C A LON - POR")


@pytest.mark.parametrize("disruption", ["all_routes", "any_route"])
def test_a_route_rule_of_a_variant_with_either_disruption_rule(disruption: str) -> None:
    assert result_of(play(*TWO_FLEETS, rules=Rules(convoy_disruption=disruption)),
                     "A LON").outcome is Outcome.SUCCEEDS
    assert result_of(play(*TWO_FLEETS, rules=OneFleetConvoys(convoy_disruption=disruption)),
                     "A LON").outcome is Outcome.FAILS
    one = ({"ENGLAND": ["A LON", "F NTH"]}, "ENGLAND: A LON - BEL\nENGLAND: F NTH C A LON - BEL")
    assert result_of(play(*one, rules=OneFleetConvoys(convoy_disruption=disruption)),
                     "A LON").outcome is Outcome.SUCCEEDS


def test_the_resolver_is_chosen_by_the_options_never_by_the_variant() -> None:
    assert resolver_class(FleetsDoNotCut()) is Resolver
    assert resolver_class(FleetsDoNotCut(paradox="1982")) is OptionResolver
    assert not any(issubclass(cls, Resolver) for cls in (FleetsDoNotCut, OneFleetConvoys))
