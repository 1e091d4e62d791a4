"""The judge on messages in memory (real SQLite, injected clock), with the toy game."""

from __future__ import annotations

from mobadj.judge.core import REFUSED

from .conftest import Table
from .helpers import mail


def send(judge, sender, body, **kw):
    return judge.handle_mail(mail(sender, body, **kw))


def reply_of(mails):
    return mails[0].body


def test_start_mails_each_player_their_own_password(judge, table):
    sent = judge.store.all_mail()
    for seat, email in table.emails.items():
        mine = [m for m in sent if m.to == email]
        assert any(table.passwords[seat] in m.body for m in mine)
        for other, pw in table.passwords.items():
            if other != seat:
                assert not any(pw in m.body for m in mine)
    assert judge.store.game("g1").status == "active"


def test_orders_are_read_back_with_errors_and_replace_earlier_ones(judge, table):
    r = reply_of(send(judge, "north@test.org", table.signon("NORTH") + "go 3\nhodl\n"))
    assert "Signed on as North" in r
    assert "  go 3" in r
    assert "line 3: cannot read 'hodl'" in r and "did you mean 'hold'" in r
    assert "Deadline for Turn 1:" in r and "GMT" in r and "UTC" in r
    send(judge, "north@test.org", table.signon("NORTH") + "go 5\n")
    assert judge.store.orders("g1", "T1") == {"NORTH": "go 5"}


def test_wrong_password_refused_the_same_way_whatever_is_wrong(judge, table):
    replies = [
        reply_of(send(judge, "x@evil.org", "SIGNON g1 NORTH wrong\ngo 9")),
        reply_of(send(judge, "y@evil.org", "SIGNON nogame NORTH pw-north\ngo 9")),
        reply_of(send(judge, "z@evil.org", "SIGNON g1 NOWHERE pw-north\ngo 9")),
    ]
    for r in replies[:2]:
        assert REFUSED in r
        assert "NORTH" not in r.replace("Signed", "") or "go 9" not in r
    # the same text whether the game or the password is wrong; a power the game's map does
    # not have gets a did-you-mean (the map's powers are no secret), and is not told that
    # the judge does not say what is wrong
    assert replies[0].split("--")[0] == replies[1].split("--")[0]
    assert ("Sign-on refused: no power 'NOWHERE'; the powers are NORTH, EAST, SOUTH, WEST.\n"
            "(A public game's powers are no secret, so the judge names them; the password is "
            "checked once the power is right.)") in replies[2]
    assert "does not say which" not in replies[2] and "go 9" not in replies[2]
    assert judge.store.orders("g1", "T1") == {}


def test_repeated_failures_are_slowed_down(judge, table, clock):
    for _ in range(3):
        assert REFUSED in reply_of(send(judge, "x@evil.org", "SIGNON g1 NORTH bad"))
    # from this address nothing is checked until the wait is over (no sleeping: the clock);
    # NORTH has now had three wrong passwords from strangers: one free try each, so 2**2
    r = reply_of(send(judge, "x@evil.org", table.signon("NORTH") + "go 1"))
    assert "Too many wrong sign-ons from your address" in r and "(in 4 minutes)" in r
    # the password was not checked: the answer does not call it wrong
    assert "not right" not in r and "the one just sent was not checked" in r
    clock.advance(seconds=61)
    r = reply_of(send(judge, "x@evil.org", table.signon("NORTH") + "go 1"))
    assert "(in 3 minutes)" in r  # a try during the wait does not lengthen it
    clock.advance(seconds=180)
    r = reply_of(send(judge, "x@evil.org", table.signon("NORTH") + "go 1"))
    assert "Signed on" in r


def test_duplicate_and_automatic_mail_change_nothing(judge, table):
    raw = mail("north@test.org", table.signon("NORTH") + "go 2", message_id="<dup@x>")
    assert len(judge.handle_mail(raw, uid=5)) == 1
    assert judge.handle_mail(raw, uid=6) == []  # same Message-ID
    assert judge.handle_mail(mail("north@test.org", "list"), uid=5) == []  # same UID
    auto = mail("north@test.org", table.signon("NORTH") + "go 9", Auto_Submitted="auto-replied")
    assert judge.handle_mail(auto) == []
    assert judge.store.orders("g1", "T1") == {"NORTH": "go 2"}
    assert len(judge.store.commands("g1")) == 2  # one signon + one orders


def test_orders_for_another_phase_are_refused(judge, table):
    r = reply_of(send(judge, "north@test.org", table.signon("NORTH") + "phase T0\ngo 1"))
    assert "meant for T0" in r
    assert judge.store.orders("g1", "T1") == {}


def test_press_white_grey_none(judge, table):
    out = send(judge, "north@test.org",
               table.signon("NORTH") + "press to east, south\nMeet me.\nendpress")
    assert [m.to for m in out[1:]] == ["east@test.org", "south@test.org"]
    assert "from NORTH" in out[1].body and "Meet me." in out[1].body
    out = send(judge, "north@test.org", table.signon("NORTH") + "broadcast grey\nBoo\nendpress")
    assert "only white press" in out[0].body and len(out) == 1
    with judge.store.transaction():
        judge.set_option(judge.store.game("g1"), "press", "grey")
    out = send(judge, "north@test.org", table.signon("NORTH") + "broadcast grey\nBoo\nendpress")
    assert sorted(m.to for m in out[1:]) == ["east@test.org", "south@test.org", "west@test.org"]
    assert all("NORTH" not in m.body and "Anonymous" in m.body for m in out[1:])
    with judge.store.transaction():
        judge.set_option(judge.store.game("g1"), "press", "none")
    out = send(judge, "north@test.org", table.signon("NORTH") + "press to east\nhi\nendpress")
    assert "without press" in out[0].body and len(out) == 1


def test_one_mail_sends_at_most_ten_press_messages(judge, table):
    """A mail of many press blocks must not turn into thousands of mails."""
    blocks = "".join(f"press to east\nnote {i}\nendpress\n" for i in range(25))
    out = send(judge, "north@test.org", table.signon("NORTH") + blocks)
    press = [m for m in out[1:] if "press from NORTH" in m.subject]
    assert [m.to for m in press] == ["east@test.org"] * 10
    assert "note 9" in press[-1].body
    assert ("Press refused: at most 10 press messages in one mail; the 15 after them were not "
            "sent.") in out[0].body


def test_list_history_help_preview(judge, table):
    send(judge, "north@test.org", table.signon("NORTH") + "go 4")
    r = reply_of(send(judge, "east@test.org", table.signon("EAST") + "list\npreview\nhelp"))
    assert "NORTH        submitted" in r and "EAST         waiting" in r
    assert "go 4" not in r  # others' orders stay secret
    assert "EAST would score 0" in r and "SIGNON <game> <power> <password>" in r
    r = reply_of(send(judge, "east@test.org", table.signon("EAST") + "history"))
    assert "no phase has been resolved" in r


def test_history_names_the_phases_it_has_when_asked_for_none_or_an_unknown_one(judge, table):
    for turn in (1, 2):
        for seat in ("NORTH", "EAST", "SOUTH", "WEST"):
            send(judge, f"{seat.lower()}@test.org", table.signon(seat) + f"go {turn}\nready")
    assert judge.store.game("g1").phase == "T3"

    def history(arg: str) -> str:
        return reply_of(send(judge, "east@test.org", table.signon("EAST") + f"history {arg}"))

    assert history("1").count("Turn ") == history("T2").count("Turn ") == 1
    assert "T2" in history("1") and "T1" not in history("1")
    assert "T1" in history("2") and "T2" in history("2")
    assert "T1" in history("t1") and "T2" not in history("t1")
    assert "History: ask for 1 phase or more, or name a phase (resolved: T1, T2)." in history("0")
    assert "History: no phase T9 has been resolved (resolved: T1, T2)." in history("T9")
    assert "History: no phase \U00010a40 has been resolved" in history("\U00010a40")  # no number
    assert "T1" in history("9" * 40)  # more phases than there are: all of them
    gm = reply_of(send(judge, "gm@test.org", f"gm g1 {table.gm_password}\nhistory 0"))
    assert "History: ask for 1 phase or more" in gm


def test_ready_resolves_early_and_results_go_to_everyone(judge, table):
    for seat in ("NORTH", "EAST", "SOUTH"):
        send(judge, f"{seat.lower()}@test.org", table.signon(seat) + "go 1\nready")
    assert judge.store.game("g1").phase == "T1"
    out = send(judge, "west@test.org", table.signon("WEST") + "go 2\nready")
    assert judge.store.game("g1").phase == "T2"
    results = [m for m in out if "T1 results" in m.subject]
    assert sorted(m.to for m in results) == sorted([*table.emails.values(), "gm@test.org"])
    north = next(m for m in results if m.to == "north@test.org")
    assert ":: Judge: Test Judge  Game: g1" in north.body
    assert "WEST: go 2 -> 2" in north.body and "Next phase: Turn 2" in north.body
    assert "secret-north" in north.body and "secret-east" not in north.body
    assert north.attachments[0][0] == "result.json"


def test_deadline_reminder_extension_nmr_and_disorder(judge, table, clock):
    send(judge, "north@test.org", table.signon("NORTH") + "go 1")
    clock.advance(hours=37)  # 48 h deadline, 12 h reminders
    out = judge.tick()
    assert sorted(m.to for m in out) == ["east@test.org", "south@test.org", "west@test.org"]
    assert all("reminder" in m.subject for m in out)
    assert judge.tick() == []  # reminded once
    clock.advance(hours=12)
    out = judge.tick()  # first NMR: one automatic extension of 24 h
    assert all("extended" in m.subject for m in out) and judge.store.game("g1").phase == "T1"
    clock.advance(hours=25)
    out = judge.tick()
    assert judge.store.game("g1").phase == "T2"
    body = next(m for m in out if m.to == "north@test.org").body
    assert "No orders received from: EAST, SOUTH, WEST" in body
    assert judge.store.player("g1", "EAST").nmr_streak == 1
    send(judge, "north@test.org", table.signon("NORTH") + "go 1")
    clock.advance(hours=49)
    judge.tick()  # second NMR in a row: no new extension, civil disorder
    assert judge.store.game("g1").phase == "T3"
    assert judge.store.player("g1", "EAST").status == "disorder"
    assert judge.store.player("g1", "NORTH").status == "active"


def test_grace_period_waits_for_late_orders(judge, clock):
    t = Table(judge, grace_hours=6, extend_first_nmr_hours=0)
    clock.advance(hours=49)
    assert [m for m in judge.tick() if "results" in m.subject] == []
    send(judge, "north@test.org", t.signon("NORTH") + "go 3")  # late but within grace
    clock.advance(hours=6)
    judge.tick()
    assert judge.store.results("g1")[0]["orders"] == {"NORTH": "go 3"}


def test_gm_by_mail_pause_resume_extend_process_rollback_export(judge, table, clock):
    gm = "GM g1 gm-secret\n"
    r = reply_of(send(judge, "gm@test.org", gm + "extend 1 day"))
    assert "Deadline extended" in r
    r = reply_of(send(judge, "gm@test.org", gm + "pause 2 days"))
    assert "Paused until" in r and judge.store.game("g1").status == "paused"
    clock.advance(hours=49)
    judge.tick()  # the pause expired by itself
    assert judge.store.game("g1").status == "active"
    send(judge, "north@test.org", table.signon("NORTH") + "go 7")
    r = reply_of(send(judge, "gm@test.org", gm + "process"))
    assert "T1 resolved" in r and judge.store.game("g1").phase == "T2"
    r = reply_of(send(judge, "gm@test.org", gm + "rollback"))
    assert "T1 rolled back" in r
    g = judge.store.game("g1")
    assert g.phase == "T1" and g.state["scores"]["NORTH"] == 0
    assert judge.store.orders("g1", "T1") == {"NORTH": "go 7"}  # orders stand again
    assert judge.store.player("g1", "EAST").nmr_total == 0  # counters restored
    out = send(judge, "gm@test.org", gm + "export")
    assert out[1].to == "gm@test.org" and out[1].attachments[0][0] == "g1.json"
    assert b"pw_hash" not in out[1].attachments[0][2] and b"scrypt" not in out[1].attachments[0][2]


def test_gm_replace_and_end(judge, table):
    out = send(judge, "gm@test.org", "GM g1 gm-secret\nreplace EAST new@test.org\nendgame")
    to = [m.to for m in out]
    assert "new@test.org" in to and "east@test.org" in to
    assert judge.store.player("g1", "EAST").email == "new@test.org"
    r = reply_of(send(judge, "east@test.org", table.signon("EAST") + "go 1"))
    assert REFUSED in r  # the old password no longer works
    assert judge.store.game("g1").status == "ended"


def test_create_by_mail_only_from_gm_addresses(judge):
    r = reply_of(send(judge, "someone@test.org", "create g2 toy pw1234"))
    assert "refused" in r and judge.store.game("g2") is None
    r = reply_of(send(judge, "gm@test.org", "create g2 toy pw1234 press=grey"))
    assert "created" in r and judge.store.game("g2").options["press"] == "grey"
    r = reply_of(send(judge, "gm@test.org", "GM g2 pw1234\naddplayer a@test.org NORTH\nstart"))
    assert "NORTH added" in r and "Game started" in r
    r = reply_of(send(judge, "gm@test.org", "create g3 toy pw1234\naddplayer b@test.org EAST\n"
                      "start"))
    assert "Game g3 (toy) created" in r and "EAST added" in r and "Game started" in r
    r = reply_of(send(judge, "gm@test.org", "create g3 toy pw1234\naddplayer c@test.org WEST"))
    assert "already exists" in r and judge.store.player("g3", "WEST") is None


def test_unsigned_mail_gets_help_and_misspelt_commands_hints(judge, table):
    r = reply_of(send(judge, "x@test.org", "hello there"))  # a stranger: how to take a seat
    assert "send LIST" in r and "JOIN <game> <power>" in r and "Send HELP" in r
    r = reply_of(send(judge, "x@test.org", "SINGON g1 NORTH pw"))
    assert "did you mean 'SIGNON'" in r


def test_absence_quota(judge, table):
    g = judge.store.game("g1")
    r = reply_of(send(judge, "north@test.org", table.signon("NORTH") + "absence 3 days"))
    assert "Absence granted" in r
    assert judge.store.game("g1").deadline == g.deadline + 3 * 86400
    r = reply_of(send(judge, "north@test.org", table.signon("NORTH") + "absence 12 days"))
    assert "refused: only 264 hours" in r


def test_nothing_private_reaches_anyone_else(judge, table):
    send(judge, "north@test.org", table.signon("NORTH") + "go 9\npress to east\nsecret plan X\n"
         "endpress")
    send(judge, "south@test.org", table.signon("SOUTH") + "go 8")
    for m in judge.store.all_mail():
        for seat, pw in table.passwords.items():
            if m.to != table.emails[seat]:
                assert pw not in m.body, (m.to, seat)
        if m.to not in ("north@test.org", "east@test.org"):
            assert "secret plan X" not in m.body
        if m.to != "north@test.org":
            assert "go 9" not in m.body
        if m.to != "south@test.org":
            assert "go 8" not in m.body


def test_gm_must_write_from_the_gm_address(judge, table):
    r = reply_of(send(judge, "north@test.org", "GM g1 gm-secret\nprocess"))
    assert REFUSED in r and judge.store.game("g1").phase == "T1"


def test_a_player_in_civil_disorder_comes_back_by_ordering(judge, table):
    with judge.store.transaction():
        judge.store.update_player("g1", "EAST", status="disorder", nmr_streak=2)
    r = reply_of(send(judge, "east@test.org", table.signon("EAST") + "go 1"))
    assert "no longer in civil disorder" in r
    assert judge.store.player("g1", "EAST").status == "active"


def test_a_bug_in_a_game_engine_undoes_the_mail_and_apologises(judge, table, monkeypatch):
    from .toyhost import ToyHost

    def broken(self, state, seat, text):
        raise ZeroDivisionError("engine bug")

    send(judge, "north@test.org", table.signon("NORTH") + "go 1")
    monkeypatch.setattr(ToyHost, "check", broken)
    out = send(judge, "north@test.org", table.signon("NORTH") + "go 5\npassword newsecret")
    assert len(out) == 2 and "internal error" in out[0].body
    assert out[1].to == "gm@test.org" and "internal error" in out[1].body  # the GM is told
    assert "north@test.org (NORTH in g1)" in out[1].body
    assert judge.store.orders("g1", "T1") == {"NORTH": "go 1"}  # nothing of it was done
    row = judge.store.db.execute("SELECT outcome FROM mails ORDER BY handled DESC, rowid DESC"
                                 " LIMIT 1").fetchone()
    assert row[0] == "failed"
    monkeypatch.undo()
    r = reply_of(send(judge, "north@test.org", table.signon("NORTH") + "go 2"))
    assert "go 2" in r  # the judge carries on; the old password still works


def test_a_broken_game_does_not_stop_the_others_at_deadlines(judge, clock, monkeypatch):
    from .conftest import Table
    from .toyhost import ToyHost

    Table(judge)  # g1
    judge.create_game("g2", "standard", "gm@test.org", "pw", seed=1)
    out: list = []
    with judge.store.transaction():
        judge.add_player(judge.store.game("g2"), "e@test.org", "ENGLAND", "pw-e", 0, out)
        judge.start(judge.store.game("g2"), clock(), out)
    original = ToyHost.resolve

    def broken(self, *args, **kw):
        raise RuntimeError("engine bug")

    monkeypatch.setattr(ToyHost, "resolve", broken)
    with judge.store.transaction():
        judge.set_option(judge.store.game("g1"), "extend_first_nmr_hours", "0")
        judge.set_option(judge.store.game("g2"), "extend_first_nmr_hours", "0")
    clock.advance(hours=49)
    judge.tick()
    assert judge.store.game("g1").phase == "T1"  # rolled back, untouched
    assert judge.store.game("g2").phase == "F1901M"  # the other game went on
    monkeypatch.setattr(ToyHost, "resolve", original)
    judge.tick()
    assert judge.store.game("g1").phase == "T2"  # and the broken one recovers when fixed


def test_strangers_guessing_cannot_lock_the_player_out(judge, table, clock):
    told = []
    for i in range(6):  # guesses at NORTH's seat from several addresses
        out = send(judge, f"x{i}@evil.org", "SIGNON g1 north guess")
        told += [m for m in out if m.to == "north@test.org"]
        clock.advance(seconds=10)
    # the player hears of it at once, then not again within the hour
    assert len(told) == 1 and told[0].subject == "g1: wrong passwords for NORTH"
    assert "1 time since" in told[0].body and "from x0@evil.org" in told[0].body
    assert "Your password still works" in told[0].body and "guess" not in told[0].body
    clock.advance(hours=1.01)
    out = send(judge, "x9@evil.org", "SIGNON g1 north guess")
    notice = next(m for m in out if m.to == "north@test.org")
    assert "6 times since" in notice.body and "latest from x9@evil.org" in notice.body
    # an address new to the seat under attack has one free try, then it waits ...
    assert REFUSED in reply_of(send(judge, "y@evil.org", "SIGNON g1 NORTH guess"))
    r = reply_of(send(judge, "y@evil.org", "SIGNON g1 NORTH guess"))
    assert "Too many wrong sign-ons from your address" in r
    # ... but the right password always passes: from the player's own address, or from
    # any other one that is not waiting (a player travelling)
    r = reply_of(send(judge, "north@test.org", table.signon("NORTH") + "go 1"))
    assert "Signed on as North" in r
    r = reply_of(send(judge, "north@cafe.org", table.signon("NORTH") + "go 2"))
    assert "Signed on as North" in r


def test_wrong_passwords_after_a_notice_are_told_an_hour_later_when_no_more_come(
        judge, table, clock):
    """Five guesses in a minute: the player hears of the first at once (1 time), and of
    the four after it an hour later, though no more guess comes (was: never)."""
    told = []
    for i in range(5):
        out = send(judge, f"x{i}@evil.org", "SIGNON g1 north guess")
        told += [m for m in out if m.to == "north@test.org"]
        clock.advance(seconds=10)
    assert len(told) == 1 and "1 time since" in told[0].body
    assert not judge.tell_wrong_passwords(judge.clock())  # not within the hour
    clock.advance(hours=1)
    later = [m for m in judge.tell_wrong_passwords(judge.clock()) if m.to == "north@test.org"]
    assert len(later) == 1 and later[0].subject == "g1: wrong passwords for NORTH"
    assert "with a wrong password: 4 times since" in later[0].body
    assert "the latest at" in later[0].body and "guess" not in later[0].body
    assert later[0].id is not None  # queued to be sent
    clock.advance(hours=2)
    assert not judge.tell_wrong_passwords(judge.clock())  # told once: nothing new


def test_a_pause_of_no_time_and_an_extension_of_years_are_slips_refused(judge, table, clock):
    """PAUSE 0 minutes used to pause for the longest time (14 days), EXTEND 99999 days moved
    the deadline to the year 2300: both are refused, nothing changed; a pause asked longer
    than the longest says it was cut."""
    gm = "GM g1 gm-secret\n"
    before = judge.store.game("g1")
    for line, said in (("pause 0 minutes", "a pause of no time is no pause"),
                       ("extend 0 hours", "EXTEND by no time changes nothing"),
                       ("extend 99999 days", "is more than a year ahead; nothing was changed"),
                       ("deadline 2207-01-18 23:00", "is more than a year ahead")):
        r = reply_of(send(judge, "gm@test.org", gm + line))
        assert said in r, (line, r)
        now = judge.store.game("g1")
        assert (now.status, now.deadline) == ("active", before.deadline), line
    r = reply_of(send(judge, "gm@test.org", gm + "extend 30 days"))
    assert "Deadline extended" in r
    r = reply_of(send(judge, "gm@test.org", gm + "pause 30 days"))
    assert "Paused until" in r and "(the longest pause: 14 days, the game's option " \
        "pause_max_days)" in r
    assert judge.store.game("g1").paused_until == clock() + 14 * 86400


def test_a_rollback_during_a_pause_leaves_the_game_paused(judge, table, clock):
    """The GM pauses, then rolls back the last phase: the game stays paused (it used to
    start again with a deadline inside the pause, and nobody was told the pause was over),
    and when it resumes the phase has its whole time."""
    gm = "GM g1 gm-secret\n"
    send(judge, "north@test.org", table.signon("NORTH") + "go 7")
    assert "T1 resolved" in reply_of(send(judge, "gm@test.org", gm + "process"))
    assert "Paused until" in reply_of(send(judge, "gm@test.org", gm + "pause 3 days"))
    out = send(judge, "gm@test.org", gm + "rollback")
    assert "T1 rolled back; paused until" in reply_of(out)
    g = judge.store.game("g1")
    assert (g.status, g.phase) == ("paused", "T1")
    told = [m for m in out if m.to == "north@test.org"]
    assert told and "The game stays paused until" in told[0].body, [m.body for m in out]
    clock.advance(hours=24)
    assert "Resumed" in reply_of(send(judge, "gm@test.org", gm + "resume"))
    g = judge.store.game("g1")
    assert g.status == "active" and g.deadline == clock() + 48 * 3600  # the phase's time
