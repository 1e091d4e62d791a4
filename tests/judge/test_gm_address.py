"""A club hands its game to a new GM: ``SET GM <email>`` (by mail with the GM password, once
the new address sends back its code; or at once with ``mobadj game set G gm <email>``) moves
every notice for the GM to the new address, and both addresses are told.  Who may give GM
commands by mail: the game's GM address or one of the judge's ``gm_addresses``, with the GM
password; nobody else."""

from __future__ import annotations

import yaml
from click.testing import CliRunner

from mobadj.cli import main
from mobadj.judge.core import REFUSED
from mobadj.judge.store import Store

from .helpers import mail


def to(out, address: str):
    return [m for m in out if m.to == address]


def code_in(body: str) -> str:
    (line,) = [x for x in body.splitlines() if x.strip().startswith("CONFIRM ")]
    return line.split()[1]


def test_set_gm_moves_every_gm_notice_to_the_new_address(judge, table, clock):
    out = judge.handle_mail(mail("gm@test.org", "Hi judge,\n\nGM g1 gm-secret\n"
                                 "SET GM NewGM@club.org\n\nThanks, Sam"))
    (reply,) = to(out, "gm@test.org")
    assert ("GM address of g1: gm@test.org -> newgm@club.org once newgm@club.org confirms "
            "it.") in reply.body
    (ask,) = to(out, "newgm@club.org")
    assert ask.subject == "g1: you are asked to be its GM"
    assert "gm-secret" not in ask.body
    assert judge.store.game("g1").gm_email == "gm@test.org"  # nothing changes before CONFIRM
    # the new GM sends the code back from the new address, quoting the judge's mail
    quoted = "\n".join(f"> {line}" for line in ask.body.splitlines())
    out = judge.handle_mail(mail("NewGM@club.org", f"CONFIRM {code_in(ask.body)}\n\n"
                                 f"Happy to take it on.\nAl\n\n{quoted}"))
    (reply,) = to(out, "newgm@club.org")
    assert "Confirmed. The GM address of g1 is now yours" in reply.body
    assert "GM g1 <GM password>" in reply.body and "gm-secret" not in reply.body
    (old,) = to(out, "gm@test.org")
    assert old.subject == "g1: the GM address is now newgm@club.org"
    assert "changed by a mail with the GM password, confirmed from the new address" in old.body
    # gm@test.org is one of the judge's gm_addresses: it may still sign on, and is told so
    assert ("As one of the judge's GM addresses, gm@test.org may still sign on as GM of g1 "
            "with the GM password, until the new GM changes it.") in old.body
    assert "no longer counts" not in old.body
    assert "  mobadj game set g1 gm gm@test.org\n" in old.body
    assert judge.store.game("g1").gm_email == "newgm@club.org"
    # the new GM signs on from the new address (not one of the judge's gm_addresses)
    out = judge.handle_mail(mail("newgm@club.org", "GM g1 gm-secret\nEXTEND 12 hours"))
    assert "Signed on as GM of g1." in out[0].body and "Deadline extended" in out[0].body
    # the old address, one of the judge's gm_addresses, still signs on as it was told
    out = judge.handle_mail(mail("gm@test.org", "GM g1 gm-secret\nEXTEND 1 hours"))
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
        # gm@club.org is not one of the judge's gm_addresses: it no longer steers the game
        assert "Mail from gm@club.org no longer counts as the GM's." in waiting["gm@club.org"].body
        assert waiting["newgm@club.org"].subject == "club1: you are now its GM"
        assert store.game("club1").gm_email == "newgm@club.org"
    finally:
        store.close()


def test_a_typo_in_set_gm_leaves_the_game_with_its_gm(judge, table, clock):
    out = judge.handle_mail(mail("gm@test.org", "GM g1 gm-secret\nSET GM newgm@clbu.org"))
    (ask,) = to(out, "newgm@clbu.org")  # a typo: nobody reads this mail
    code = code_in(ask.body)
    # the GM sees the typo in the reply and sends the right address: it replaces the request
    out = judge.handle_mail(mail("gm@test.org", "GM g1 gm-secret\nSET GM newgm@club.org"))
    (ask,) = to(out, "newgm@club.org")
    # the GM still steers the game meanwhile
    out = judge.handle_mail(mail("gm@test.org", "GM g1 gm-secret\nEXTEND 12 hours"))
    assert "Signed on as GM of g1." in out[0].body and "Deadline extended" in out[0].body
    # the first code no longer works, even from its own address
    out = judge.handle_mail(mail("newgm@clbu.org", f"CONFIRM {code}"))
    assert "CONFIRM: no change, JOIN or WATCH waits for this code" in out[0].body
    assert judge.store.game("g1").gm_email == "gm@test.org"
    # a code works only from the address it went to
    out = judge.handle_mail(mail("eve@x.org", f"CONFIRM {code_in(ask.body)}"))
    assert "CONFIRM: no change" in out[0].body
    out = judge.handle_mail(mail("newgm@club.org", f"CONFIRM {code_in(ask.body)}"))
    assert "Confirmed." in out[0].body
    assert judge.store.game("g1").gm_email == "newgm@club.org"
    # after a week the request lapses
    out = judge.handle_mail(mail("newgm@club.org", "GM g1 gm-secret\nSET GM third@club.org"))
    (ask,) = to(out, "third@club.org")
    clock.advance(hours=8 * 24)
    out = judge.handle_mail(mail("third@club.org", f"CONFIRM {code_in(ask.body)}"))
    assert "CONFIRM: no change" in out[0].body
    assert judge.store.game("g1").gm_email == "newgm@club.org"
