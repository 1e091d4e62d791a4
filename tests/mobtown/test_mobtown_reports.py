"""What a GM reads in `mobadj adjudicate --map mobtown2` reports made from the position and
order files players and GMs write: who each order belongs to, and results in the
rulebook's words."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from mobadj.cli import main


def report(tmp_path: Path, position: str, orders: str, *options: str) -> str:
    """The report of one phase: ``position`` (YAML) and ``orders`` (an order file)."""
    pos = tmp_path / "pos.yaml"
    pos.write_text(position)
    txt = tmp_path / "orders.txt"
    txt.write_text(orders)
    result = CliRunner().invoke(main, ["adjudicate", "--map", "mobtown2", *options,
                                       str(pos), str(txt)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.stdout


def orders_of(text: str, mob: str) -> list[str]:
    """The lines under ``mob``'s heading in a report."""
    return text.split(f"\n{mob}:\n")[1].split("\n\n")[0].splitlines()


WEEK1 = """phase: 1919-07-W1-M
units:
  capone: [G Mem, D Mem, G PPU, G Mic, G Sho]
  diamond: [G Pel, G MTPD]
"""


def test_orders_without_a_heading_go_to_each_units_owner_once(tmp_path):
    """docs/orders.md: an order with no power goes to its unit's owner.  A convoy and an
    order for a gaoled Gang, which the Mobtown rules refuse, are no exception: no mob
    called "?", and a Gang with a refused order is not listed again as a hold."""
    out = report(tmp_path, WEEK1, "G(PPU) C G(Mic)-Har\nG(Mic)-PPL\nG(Pel) S G(MTPD)\n"
                 "G(MTPD) H\n")
    assert "?:" not in out, out
    capone = orders_of(out, "Al Capone")
    assert [line.split()[:2] for line in capone].count(["G", "PPU"]) == 1, capone
    assert any(line.startswith("  G PPU C G Mic - Har") for line in capone)
    assert any(line.startswith("  G MTPD H") for line in orders_of(out, "Legs Diamond"))


def test_orders_after_an_unreadable_line_go_to_each_units_owner(tmp_path):
    """The unreadable line ends Al Capone's section, and its note promises that the orders
    below go to each unit's owner: the convoy below it is Al Capone's."""
    out = report(tmp_path, WEEK1, "Al Capone:\nG(Mem) X Har\nG(PPU) C G(Mic)-Har\n"
                 "Legs Diamond:\nG(Pel) S G(MTPD)\n")
    assert "the orders below go to each unit's owner" in out
    assert "?:" not in out, out
    capone = orders_of(out, "Al Capone")
    assert len([line for line in capone if re.match(r"  G PPU\b", line)]) == 1, capone


def test_a_retreat_phase_order_without_a_heading_goes_to_the_gangs_owner(tmp_path):
    """A support at a weekend is refused, and listed under the dislodged Gang's mob."""
    out = report(tmp_path, "phase: 1919-07-W1-R\nunits:\n  capone: [G Mic]\n"
                 "dislodged: {diamond: [{unit: G Mem, from: Mic, via: ground}]}\n",
                 "G(Mem) S G(Mic)\n")
    assert "?:" not in out, out
    assert orders_of(out, "Legs Diamond")[0].startswith("  G Mem S G Mic"), out


def settled(out: str) -> list[str]:
    """The report's lines of Gangs disbanded at once."""
    return out.split("Gangs disbanded at once (dislodged, with no retreat open):\n")[1] \
        .split("\n\n")[0].splitlines()


def test_a_gang_disbanded_at_once_after_an_attack_by_subway_is_told_why(tmp_path):
    """Rule 5, ruling 7: after an attack from under ground a Gang retreats only by subway.
    Extortion Alley has five empty neighbours over ground, so the report says why none was
    open: its only subway leads back to where the attack came from."""
    out = report(tmp_path, "phase: 1919-07-W1-M\nunits:\n  murderinc: [G Tam, G Col]\n"
                 "  capone: [G Ext, D Ext]\n",
                 "Murder Inc.:\nG(Tam)-U-Ext\nG(Col) S G(Tam)-U-Ext\n")
    assert settled(out) == [
        "  Al Capone G Ext, attacked from Tam by subway: it may retreat only by subway "
        "(rule 5, ruling 7), and its only subway leads back to Tam"]


def test_a_gang_next_to_the_gaol_disbanded_after_an_attack_by_subway_names_ruling_24(
        tmp_path):
    """Tam lies next to MTPD, but no subway leads there (ruling 24)."""
    out = report(tmp_path, "phase: 1919-07-W1-M\nunits:\n  capone: [G Ext, G Lop]\n"
                 "  diamond: [G Tam]\n", "Al Capone:\nG(Ext)-U-Tam\nG(Lop) S G(Ext)-U-Tam\n")
    assert settled(out) == [
        "  Legs Diamond G Tam, attacked from Ext by subway: it may retreat only by subway "
        "(rule 5, ruling 7), and its only subway leads back to Ext; no subway leads to MTPD "
        "(ruling 24)"]
    anywhere = report(tmp_path, "phase: 1919-07-W1-M\nunits:\n  capone: [G Ext, G Lop]\n"
                      "  diamond: [G Tam]\n", "Al Capone:\nG(Ext)-U-Tam\nG(Lop) S G(Ext)-U-Tam\n",
                      "--option", "subway_retreats=any")
    assert "disbanded at once" not in anywhere and "MTPD" in anywhere


def test_a_don_who_drowned_or_was_captured_does_not_hold_successfully(tmp_path):
    """Rule 3: the news says the Don drowned; his hold above it says so too, not
    "succeeds".  A Don left behind and captured is reported captured."""
    out = report(tmp_path, "phase: 1919-07-W2-M\nunits:\n  capone: [G PPU, D PPU, G DAS]\n"
                 "  diamond: [G Mem, G Mic]\n",
                 "Legs Diamond:\nG(Mem)-PPU\nG(Mic) S G(Mem)-PPU\nAl Capone:\nD(PPU) H\n"
                 "G(PPU) H\n")
    assert "Al Capone's Don drowned in PPU" in out
    assert re.search(r"\n  D PPU H +fails: the Don drowned \(rule 3\)\n", out), out
    caught = report(tmp_path, "phase: 1919-07-W1-M\nunits:\n  capone: [G Mic, D Mic]\n"
                    "  diamond: [G Mem, G Pel]\n",
                    "Legs Diamond:\nG(Mem)-Mic\nG(Pel) S G(Mem)-Mic\n")
    assert "Al Capone's Don in Mic is captured by Legs Diamond (rule 3)" in caught
    assert re.search(r"\n  D Mic H +fails: the Don was captured by another mob's Gang "
                     r"\(rule 3\)\n", caught), caught


def test_a_convoy_and_a_move_into_bootleg_bay_name_rule_2(tmp_path):
    """Rule 2: Gangs are amphibious, so there are no convoys in any phase (not "order not
    allowed in this phase", as if another phase took one), and Bootleg Bay is impassable."""
    out = report(tmp_path, WEEK1, "Al Capone:\nG(PPU) C G(Mic)-Har\nG(Sho)-Bay\n")
    assert re.search(r"\n  G PPU C G Mic - Har +invalid: there are no convoys in Mobtown: Gangs "
                     r"are amphibious \(rule 2\)\n", out), out
    assert re.search(r"\n  G Sho - Bay +invalid: Bootleg Bay is impassable \(rule 2\)\n", out)
    weekend = report(tmp_path, "phase: 1919-07-W1-R\nunits:\n  capone: [G Mic]\n"
                     "dislodged: {diamond: [{unit: G Mem, from: Mic, via: ground}]}\n",
                     "Legs Diamond:\nG(Mem) C G(Mic)-PPL\n")
    assert "invalid: there are no convoys in Mobtown: Gangs are amphibious (rule 2)" in weekend


def test_subway_and_retreat_errors_fit_the_order_given(tmp_path):
    """Rule 5 in words that fit what the player wrote: a move without U where only a subway
    is, a retreat with U where no subway is (and, MTPD being open, the gaol that follows,
    ruling 16), a retreat without U where only a subway is."""
    week = report(tmp_path, "phase: 1919-07-W1-M\nunits:\n  capone: [G Mem]\n",
                  "Al Capone:\nG(Mem)-WCP\n")
    assert re.search(r"\n  G Mem - WCP +invalid: only a subway links these spaces: the move "
                     r"is written with U, G\(X\)-U-Y \(rule 5\)\n", week), week
    assert "G(Tam)-U-Ext" not in week
    weekend = ("phase: 1919-07-W1-R\nunits:\n  diamond: [G Tim, G Mic]\n"
               "dislodged:\n  capone:\n    - {unit: G Riv, from: Tim, via: ground}\n"
               "    - {unit: G Mem, from: Mic, via: ground}\n")
    out = report(tmp_path, weekend, "Al Capone:\nG(Riv) R U Len\nG(Mem)-WCP\n")
    assert ("G Riv R U Len                      invalid: no subway between these spaces: the "
            "retreat goes over ground, without U (rule 5); sent to gaol in MTPD instead (rule 7,"
            " ruling 16)") in out, out
    assert ("G Mem - WCP                        invalid: only a subway links these spaces: the "
            "retreat is written with U (rule 5)") in out, out


def test_a_second_don_rebuilt_at_one_weekend_is_told_the_first_was_built(tmp_path):
    """Rule 3: the mob's Don did die, so "only after the Don has died" would be no reason;
    the earlier order of the same weekend already rebuilt him."""
    out = report(tmp_path, "phase: 1919-07-W2-A\nunits:\n  capone: [G Col]\n"
                 "centers: {capone: [Bnx, DAN, DAS]}\n", "Al Capone:\nBuild D DAN\nBuild D DAS\n")
    assert re.search(r"\n  Build D DAS +invalid: the mob's new Don is already built by an "
                     r"earlier order \(rule 3\)\n", out), out


def test_a_gang_and_its_don_holding_or_supporting_is_told_the_rule(tmp_path):
    """Rule 3 speaks of the Don and "a stand or support order": the error says the Don adds
    nothing there, and what to write instead."""
    out = report(tmp_path, WEEK1, "Al Capone:\nG+D(Mem) H\nG+D(Mic) S G(Mem)\n")
    assert ("a Gang with its Don (G+D) can only move: the Don adds nothing to a hold or a "
            "support (rule 3), so give the Gang's order alone: G(Mem) H") in out, out
    assert "give the Gang's order alone: G(Mic) S G(Mem)" in out
    assert "escort" not in out
