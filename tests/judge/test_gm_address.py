"""A club hands its game to a new GM: ``SET GM <email>`` (by mail with the GM password, or
``mobadj game set G gm <email>``) moves every notice for the GM to the new address, and
both addresses are told.  Who may give GM commands by mail: the game's GM address or one of
the judge's ``gm_addresses``, with the GM password; nobody else."""

from __future__ import annotations

import yaml
from click.testing import CliRunner

from mobadj.cli import main
from mobadj.judge.core import REFUSED
from mobadj.judge.store import Store

from .helpers import mail


def to(out, address: str):
    return [m for m in out if m.to == address]


def test_set_gm_moves_every_gm_notice_to_the_new_address(judge, table, clock):
    out = judge.handle_mail(mail("gm@test.org", "GM g1 gm-secret\nSET GM NewGM@club.org"))
    (reply,) = [m for m in to(out, "gm@test.org") if "Re:" in m.subject]
    assert "GM address of g1: gm@test.org -> newgm@club.org. Both addresses were told." \
        in reply.body
    (old,) = [m for m in to(out, "gm@test.org") if m is not reply]
    assert old.subject == "g1: the GM address is now newgm@club.org"
    assert "changed by a mail with the GM password" in old.body
    # a typo in the new address: the old GM is told how it is set back
    assert "Mail from gm@test.org no longer counts as the GM's." in old.body
    assert "  mobadj game set g1 gm gm@test.org\n" in old.body
    (new,) = to(out, "newgm@club.org")
    assert new.subject == "g1: you are now its GM"
    assert "GM g1 <GM password>" in new.body and "gm-secret" not in new.body
    assert judge.store.game("g1").gm_email == "newgm@club.org"
    # the new GM signs on from the new address (not one of the judge's gm_addresses)
    out = judge.handle_mail(mail("newgm@club.org", "GM g1 gm-secret\nEXTEND 12 hours"))
    assert "Signed on as GM of g1." in out[0].body and "Deadline extended" in out[0].body
    # a stranger with the password is refused
    out = judge.handle_mail(mail("eve@x.org", "GM g1 gm-secret\nEXTEND 12 hours"))
    assert REFUSED in out[0].body
    # what the GM is told goes to the new address: press to the GM, results, civil disorder
    out = judge.handle_mail(mail("north@test.org", table.signon("NORTH")
                                 + "go 1\nPRESS TO GM\nWho runs this game now?\nENDPRESS"))
    assert [m.subject for m in to(out, "newgm@club.org")] == ["g1: press from NORTH to the GM"]
    assert to(out, "gm@test.org") == []
    seen = []
    for _ in range(6):  # the others miss deadlines until they are in civil disorder
        clock.advance(hours=49)
        seen += judge.tick()
    subjects = {m.subject for m in to(seen, "newgm@club.org")}
    assert {"g1: deadline extended by the judge", "g1: T1 results (GM copy)",
            "g1: civil disorder"} <= subjects
    assert to(seen, "gm@test.org") == []


def test_set_gm_refuses_what_is_not_an_address(judge, table):
    out = judge.handle_mail(mail("gm@test.org", "GM g1 gm-secret\nSET ADDRESS newgm.club.org"))
    assert "SET: SET GM: 'newgm.club.org' is not an email address." in out[0].body
    assert judge.store.game("g1").gm_email == "gm@test.org"


def test_set_gm_from_the_command_line(tmp_path):
    cfg = tmp_path / "judge.yaml"
    cfg.write_text(yaml.safe_dump({"judge": {"address": "judge@test.org", "data_dir": "d",
                                             "timezone": "UTC"}}))

    def run(*args: str) -> str:
        r = CliRunner().invoke(main, ["game", args[0], "--config", str(cfg), *args[1:]])
        assert r.exit_code == 0, r.output
        return r.output

    run("create", "club1", "--kind", "toy", "--gm", "gm@club.org")
    said = run("set", "club1", "gm", "newgm@club.org")
    assert "GM address of club1: gm@club.org -> newgm@club.org." in said
    assert "2 mail(s) queued" in said
    store = Store(tmp_path / "d" / "judge.sqlite")
    try:
        waiting = {m.to: m for m in store.unsent()}
        assert "changed on the judge's command line" in waiting["gm@club.org"].body
        assert waiting["newgm@club.org"].subject == "club1: you are now its GM"
        assert store.game("club1").gm_email == "newgm@club.org"
    finally:
        store.close()
