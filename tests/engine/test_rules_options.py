"""Rule options (docs/rulings.md) and the variant hooks Mobtown II plugs into."""

from __future__ import annotations

from mobadj.engine import BATTLE, BATTLE_UNLESS_EQUAL, PASS, Outcome, Reason, Rules

from .helpers import play, result_of, units_after

PARADOX = ({"ENGLAND": ["F LON", "F WAL"], "FRANCE": ["A BRE", "F ENG"]},
           "ENGLAND: F LON S F WAL - ENG\nENGLAND: F WAL - ENG\n"
           "FRANCE: A BRE - LON\nFRANCE: F ENG C A BRE - LON")


def test_paradox_szykman_default() -> None:  # DATC 4.A.2 f, 6.F.14
    res = play(*PARADOX)
    assert units_after(res) == {"ENGLAND F LON", "ENGLAND F ENG", "FRANCE A BRE"}
    assert result_of(res, "F ENG").reason is Reason.PARADOX


def test_paradox_all_hold_option() -> None:  # DATC 4.A.2 d
    res = play(*PARADOX, rules=Rules(paradox="all_hold"))
    assert units_after(res) == {"ENGLAND F LON", "ENGLAND F WAL", "FRANCE A BRE", "FRANCE F ENG"}
    for prefix in ("F WAL", "A BRE", "F ENG"):
        assert result_of(res, prefix).reason is Reason.PARADOX_ALL_HOLD
    assert not res.dislodged


def test_paradox_all_hold_leaves_other_convoys_alone() -> None:  # DATC 6.F.15 core only
    units = {**PARADOX[0], "ITALY": ["A NAF", "F IRI", "F MAO"]}
    orders = PARADOX[1] + ("\nITALY: F IRI C A NAF - WAL\nITALY: F MAO C A NAF - WAL\n"
                           "ITALY: A NAF - WAL")
    res = play(units, orders, rules=Rules(paradox="all_hold"))
    # Wales does not move under "all hold", so the Italian army bounces off the fleet there
    assert result_of(res, "A NAF").outcome is Outcome.FAILS
    assert result_of(res, "F IRI").outcome is Outcome.SUCCEEDS


class Variant(Rules):
    """A toy variant exercising every movement hook."""

    def __init__(self, swap=BATTLE, bonus_for=(), margin_into=()) -> None:
        super().__init__()
        self.swap, self.bonus_for, self.margin_into = swap, bonus_for, margin_into

    def head_to_head(self, a, b) -> int:
        return self.swap

    def check_move(self, game_map, order):
        return Reason.NOT_ADJACENT if order.dprov == "PIC" else None

    def move_bonus(self, order) -> int:
        return 1 if order.power in self.bonus_for else 0

    def required_margin(self, order) -> int:
        return 1 if order.dprov in self.margin_into else 0


SWAP = {"FRANCE": ["A PAR", "A MAR"], "GERMANY": ["A BUR"]}


def test_hook_head_to_head_battle_is_standard() -> None:
    res = play(SWAP, "FRANCE: A PAR - BUR\nGERMANY: A BUR - PAR", rules=Variant(BATTLE))
    assert units_after(res) == {"FRANCE A PAR", "FRANCE A MAR", "GERMANY A BUR"}


def test_hook_pass_lets_units_swap() -> None:
    res = play(SWAP, "FRANCE: A PAR - BUR\nGERMANY: A BUR - PAR", rules=Variant(PASS))
    assert units_after(res) == {"FRANCE A BUR", "FRANCE A MAR", "GERMANY A PAR"}


def test_hook_battle_unless_equal() -> None:
    # equal strength: the units pass each other (Mobtown: one over ground, one under)
    res = play(SWAP, "FRANCE: A PAR - BUR\nGERMANY: A BUR - PAR",
               rules=Variant(BATTLE_UNLESS_EQUAL))
    assert units_after(res) == {"FRANCE A BUR", "FRANCE A MAR", "GERMANY A PAR"}
    # unequal: the stronger wins and the weaker is dislodged
    res = play(SWAP, "FRANCE: A PAR - BUR\nFRANCE: A MAR S A PAR - BUR\nGERMANY: A BUR - PAR",
               rules=Variant(BATTLE_UNLESS_EQUAL))
    assert "FRANCE A BUR" in units_after(res)
    assert [str(d.unit) for d in res.dislodged] == ["A BUR"]


def test_hook_move_bonus_is_an_uncuttable_support() -> None:
    orders = "FRANCE: A PAR - BUR\nGERMANY: A BUR H\nGERMANY: A MUN - MAR"
    units = {"FRANCE": ["A PAR"], "GERMANY": ["A BUR", "A MUN"]}
    assert "FRANCE A PAR" in units_after(play(units, orders, rules=Variant()))
    res = play(units, orders, rules=Variant(bonus_for=("FRANCE",)))
    assert "FRANCE A BUR" in units_after(res)


def test_hook_required_margin_needs_one_more_support() -> None:
    rules = Variant(margin_into=("BUR",))
    res = play({"FRANCE": ["A PAR"]}, "FRANCE: A PAR - BUR", rules=rules)
    assert result_of(res, "A PAR").outcome is Outcome.FAILS
    res = play({"FRANCE": ["A PAR", "A MAR"]},
               "FRANCE: A PAR - BUR\nFRANCE: A MAR S A PAR - BUR", rules=rules)
    assert result_of(res, "A PAR").outcome is Outcome.SUCCEEDS


def test_hook_check_move_makes_a_move_invalid() -> None:
    res = play({"FRANCE": ["A PAR"]}, "FRANCE: A PAR - PIC", rules=Variant())
    assert (result_of(res, "A PAR").outcome, result_of(res, "A PAR").reason) == (
        Outcome.INVALID, Reason.NOT_ADJACENT)
