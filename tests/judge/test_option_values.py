"""The judge's game options are checked when they are set (SET by mail, ``mobadj game set``,
``--option``, CREATE), as a GM writes them: ``deadline_hours 36h`` is refused with what is
meant, never taken to stop the game at its deadline.  A value an older mobadj let into the
store is read as what it says, and the game goes on."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from mobadj.cli import main

from .helpers import mail


def gm(judge, name, text):
    return judge.handle_mail(mail("gm@test.org", f"GM {name} gm-pw-1\n{text}"))[0].body


def started(judge, name="std1"):
    """A standard game with France and England played, started."""
    judge.create_game(name, "standard", "gm@test.org", "gm-pw-1", {}, seed=3)
    out: list = []
    with judge.store.transaction():
        for seat in ("FRANCE", "ENGLAND"):
            judge.add_player(judge.store.game(name), f"{seat.lower()}@test.org", seat,
                             f"pw-{seat.lower()}", judge.clock(), out)
        judge.start(judge.store.game(name), judge.clock(), out)
    return judge.store.game(name)


@pytest.mark.parametrize("line, refusal", [
    ("SET deadline_hours 36h", "deadline_hours is a number of hours: '36h' is not one "
                               "(did you mean 36?)"),
    ("SET retreat_hours 1 day", "retreat_hours is a number of hours: '1 day' is not one "
                                "(did you mean 24?)"),
    ("SET grace_hours lots", "grace_hours is a number of hours, e.g. 6: 'lots' is not one"),
    ("SET absence_quota_days 2 weeks", "absence_quota_days is a number of days, e.g. 14: "
                                       "'2 weeks' is not one"),
    ("SET disorder_after_nmr 1.5", "disorder_after_nmr is a whole number of missed "
                                   "deadlines, e.g. 2: '1.5' is not a whole number"),
    ("SET deadline_hours 0", "deadline_hours is a number of hours, above 0: '0' is not"),
    ("SET gm_press_copy maybe", "gm_press_copy is yes or no, not 'maybe'"),
    ("SET picture png", "picture must be one of both, svg, none, not 'png'"),
])
def test_a_gm_setting_an_option_by_mail_is_told_what_it_holds(judge, line, refusal):
    game = started(judge)
    before = dict(game.options)
    reply = gm(judge, "std1", line)
    assert refusal in reply and "Option" not in reply
    assert judge.store.game("std1").options == before


def test_a_good_value_is_still_taken(judge):
    started(judge)
    assert "Option deadline_hours = 36." in gm(judge, "std1", "SET deadline_hours 36")
    assert "Option grace_hours = 1.5." in gm(judge, "std1", "SET grace_hours 1.5")
    assert "Option gm_press_copy = yes." in gm(judge, "std1", "SET gm_press_copy yes")


def test_create_by_mail_refuses_an_option_with_a_unit(judge):
    reply = judge.handle_mail(mail("gm@test.org",
                                   "CREATE autumn26 standard autumnpw1 deadline_hours=72h"))
    assert "deadline_hours is a number of hours: '72h' is not one (did you mean 72?)" in reply[
        0].body
    assert judge.store.game("autumn26") is None


def test_a_value_an_older_mobadj_stored_does_not_stop_the_game(judge, clock):
    """A store written before the checks holds ``deadline_hours: 36h``: the phase is
    adjudicated at its deadline and the next one lasts the 36 hours meant, and a value
    that says nothing (``lots``) is read as the default."""
    game = started(judge)
    judge.store.update_game("std1", options=game.options | {
        "deadline_hours": "36h", "retreat_hours": "1 day", "grace_hours": "lots"})
    clock.advance(hours=49 + 24)  # the first deadline, and the first-miss extension
    judge.tick()
    game = judge.store.game("std1")
    assert game.phase == "F1901M"
    assert game.deadline == pytest.approx(clock() + 36 * 3600)


def run(cfg, *args):
    return CliRunner().invoke(main, [*args[:2], "--config", str(cfg), *args[2:]])


def test_the_command_line_refuses_an_option_with_a_unit(cfg):
    r = run(cfg, "game", "create", "t2", "--gm", "gm@test.org", "--option", "deadline_hours=48h")
    assert r.exit_code == 1 and not isinstance(r.exception, ValueError)
    assert "Error: deadline_hours is a number of hours: '48h' is not one (did you mean 48?)" \
        in r.output
    assert "Game t2" not in r.output
    r = run(cfg, "game", "create", "t3", "--gm", "gm@test.org")
    assert r.exit_code == 0
    r = run(cfg, "game", "set", "t3", "reminder_hours", "12h")
    assert r.exit_code == 1
    assert "Error: reminder_hours is a number of hours: '12h' is not one (did you mean 12?)" \
        in r.output
    r = run(cfg, "game", "set", "t3", "deadline_hours", "2d")
    assert "(did you mean 48?)" in r.output
