"""What a game page says under a phase whose dislodged unit had no retreat: the unit was
disbanded at once and the retreat phase skipped (docs/rulings.md, "Skipped phases")."""

from __future__ import annotations

from types import SimpleNamespace

from mobadj.judge.hosts import host_for
from mobadj.web.story import build

POSITION = {
    "phase": "F1901M",
    "units": {"FRANCE": ["A BUR", "A PIC", "A GAS"], "GERMANY": ["A PAR", "A MUN"],
              "ENGLAND": ["A BRE"]},
    "centers": {"FRANCE": ["MAR"], "GERMANY": ["PAR", "BER"], "ENGLAND": ["BRE"]},
}


def test_the_page_notes_the_unit_disbanded_at_once_and_the_skipped_phase():
    host = host_for("standard")
    before = {"position": POSITION, "over": False}
    res = host.resolve(before, {"FRANCE": "A BUR - PAR\nA PIC S A BUR - PAR\n"
                                          "A GAS S A BUR - PAR"}, [])
    results = [{"id": 1, "phase": "F1901M", "state_before": before,
                "report": {"text": res.report, "data": res.data}}]
    story = build(SimpleNamespace(state=res.state, status="active"), results, host)
    first, current = story.steps
    assert ("Disbanded at once: Germany A PAR was dislodged with no retreat open."
            in first.notes)
    assert "Fall 1901 Retreats (F1901R) skipped: nobody had anything to decide." in first.notes
    assert not any(n.startswith("Dislodged") for n in first.notes)
    assert current.phase == "W1901A"
