"""A player who forgot the password: every refusal says what to do, and the GM's REPLACE of
the seat to the address that plays it mails a new password there (and nowhere else)."""

from __future__ import annotations

import re

import pytest
import yaml
from click.testing import CliRunner

from mobadj.cli import main
from mobadj.judge.store import Store, verify_password

from .conftest import Table
from .helpers import mail


@pytest.fixture
def dip(judge):
    return Table(judge, "standard")


def test_a_mail_without_signon_says_how_to_get_a_new_password(judge, dip):
    body = "Hi judge, I can't find my password anywhere :(\n\nA PAR - BUR\n\nAnn\n"
    r = judge.handle_mail(mail(dip.emails["FRANCE"], body))[0].body
    assert "SIGNON g1 France <password>" in r
    assert ("Forgot your password? Ask your GM for a new one: the GM's REPLACE of your seat "
            "to your own address (REPLACE <power> <your address>) mails a new password to "
            "the seat's registered address, and nowhere else.") in r


def test_a_refused_signon_says_how_to_get_a_new_password(judge, dip):
    r = judge.handle_mail(mail(dip.emails["FRANCE"], "SIGNON g1 France guess1\nA PAR H"))[0]
    assert "Sign-on refused" in r.body and "Forgot your password? Ask your GM" in r.body
    assert "REPLACE of your power to your own address" in r.body


def test_the_gms_replace_to_the_same_address_mails_a_new_password(judge, dip):
    judge.handle_mail(mail(dip.emails["FRANCE"], dip.signon("FRANCE") + "A PAR - BUR"))
    tenures = judge.store.tenures("g1")
    out = judge.handle_mail(mail("gm@test.org", "GM g1 gm-secret\nREPLACE France "
                                 + dip.emails["FRANCE"]))
    to_gm = next(m for m in out if m.to == "gm@test.org").body
    assert ("france@test.org already plays FRANCE in g1: a new password went to that address "
            "(the old one no longer works).") in to_gm
    assert "Error" not in to_gm
    (new,) = [m for m in out if m.to == "france@test.org"]
    assert [m.to for m in out] == ["gm@test.org", "france@test.org"]  # nobody else is told
    password = re.search(r"Your password: (\S+)", new.body).group(1)
    assert password not in to_gm and new.subject == "g1: a new password for FRANCE"
    assert f"SIGNON g1 FRANCE {password}" in new.body
    player = judge.store.player("g1", "FRANCE")
    assert verify_password(password, player.pw_hash)
    # the seat is as it was: the same tenure, the orders standing
    assert judge.store.tenures("g1") == tenures
    assert judge.store.orders("g1", "S1901M")["FRANCE"] == "A PAR - BUR"
    old = judge.handle_mail(mail("france@test.org", dip.signon("FRANCE") + "A PAR H"))[0]
    assert "Sign-on refused" in old.body
    ok = judge.handle_mail(mail("france@test.org", f"SIGNON g1 France {password}\nA PAR H"))
    assert "Signed on as France in g1." in ok[0].body


def test_replace_to_another_players_address_is_still_a_replacement(judge, dip):
    out = judge.handle_mail(mail("gm@test.org", "GM g1 gm-secret\nREPLACE France "
                                 "carla@test.org"))
    assert "FRANCE is now played by carla@test.org." in out[0].body
    assert judge.store.player("g1", "FRANCE").email == "carla@test.org"


def test_the_gms_command_line_replace_to_the_same_address(tmp_path):
    """``mobadj game replace G POWER <the address that plays it>``: a new password queued
    for that address, never printed."""
    cfg = tmp_path / "judge.yaml"
    cfg.write_text(yaml.safe_dump({"judge": {"address": "judge@test.org", "data_dir": "d",
                                             "timezone": "UTC"}}))

    def run(*args):
        result = CliRunner().invoke(main, [*args[:2], "--config", str(cfg), *args[2:]])
        assert result.exit_code == 0, result.output
        return result.output

    run("game", "create", "cli3", "--gm", "gm@test.org")
    run("game", "add-player", "cli3", "ann@test.org", "England")
    run("game", "start", "cli3")
    said = run("game", "replace", "cli3", "England", "ann@test.org")
    assert ("ann@test.org already plays ENGLAND in cli3: a new password went to that address"
            in said)
    store = Store(tmp_path / "d" / "judge.sqlite")
    (new,) = [m for m in store.unsent() if "new password" in m.subject]
    password = re.search(r"Your password: (\S+)", new.body).group(1)
    assert new.to == "ann@test.org" and password not in said
    assert verify_password(password, store.player("cli3", "ENGLAND").pw_hash)
    store.close()


@pytest.mark.parametrize(("written", "meant"), [
    ("French", "France"), ("Britain", "England"), ("British", "England"), ("UK", "England"),
    ("Great Britain", "England"), ("Germans", "Germany"), ("Turkish", "Turkey"),
    ("Ottoman", "Turkey"), ("Russians", "Russia"), ("Austro-Hungarian", "Austria"),
])
def test_a_nationality_for_the_power_gets_the_power_and_the_forgot_line(judge, dip, written,
                                                                          meant):
    """A newcomer signs on as 'French' or 'Britain' from a phone: the refusal names the
    power meant, no unrelated one, and says what to do about a forgotten password."""
    body = (f"SIGNON g1 {written} pw-{meant.lower()}\nArmy Paris moves to Burgundy\n\n"
            "Sent from my iPhone\n")
    r = judge.handle_mail(mail(f"{meant.lower()}@test.org", body))[0].body
    assert f"Sign-on refused: no power '{written}'; did you mean {meant}?" in r
    assert "Forgot your password? Ask your GM for a new one" in r
    assert f"pw-{meant.lower()}" not in r
    others = {"England", "France", "Germany", "Italy", "Austria", "Russia", "Turkey"} - {meant}
    assert not [o for o in others if o in r]


def test_a_power_name_with_no_near_miss_lists_the_powers(judge, dip):
    r = judge.handle_mail(mail("x@test.org", "SIGNON g1 Spain pw1\nA MAD H"))[0].body
    assert ("no power 'Spain'; the powers are England, France, Germany, Italy, Austria, "
            "Russia, Turkey.") in r and "Forgot your password?" in r
