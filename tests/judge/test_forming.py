"""Games that form by mail (JOIN with wishes, the GM's approval, powers given when full,
start by itself or by the GM) and observers (WATCH: results and public press only)."""

from __future__ import annotations

import re

import pytest
import yaml
from click.testing import CliRunner

from mobadj.cli import main
from mobadj.judge.forming import assign_seats
from mobadj.judge.store import Store

from .e2e import send, text
from .helpers import mail

SEATS = ["NORTH", "EAST", "SOUTH", "WEST"]


def handle(judge, sender, body):
    return judge.handle_mail(mail(sender, body))


def gm(judge, body):
    return handle(judge, "gm@test.org", "GM g1 gm-secret\n" + body)[0].body


def join(judge, sender, args):
    """JOIN from ``sender``, and CONFIRM the code when its reply carries one; the mails the
    last of them made."""
    out = handle(judge, sender, f"JOIN {args}")
    code = re.search(r"CONFIRM ([0-9a-f]{16})", out[0].body)
    return handle(judge, sender, f"CONFIRM {code.group(1)}") if code else out


def watch(judge, sender, game):
    """WATCH from ``sender`` and CONFIRM the code its reply carries; the confirmation."""
    r = handle(judge, sender, f"WATCH {game}")[0].body
    code = re.search(r"CONFIRM ([0-9a-f]{16})", r).group(1)
    return handle(judge, sender, f"CONFIRM {code}")[0].body


def test_seats_follow_wishes_in_a_seeded_order():
    joiners = [("a@x", ["NORTH", "EAST"]), ("b@x", ["NORTH"]), ("c@x", []), ("d@x", ["WEST"])]
    given = assign_seats(SEATS, joiners, seed=7)
    assert sorted(given.values()) == sorted(SEATS) and given["d@x"] == "WEST"
    assert {given["a@x"], given["b@x"]} >= {"NORTH"}  # one of them had it first
    assert given == assign_seats(SEATS, joiners, seed=7)  # the game's seed decides
    assert any(assign_seats(SEATS, joiners, seed=s) != given for s in range(20))


def test_players_join_by_mail_and_the_game_starts_when_full(judge):
    judge.create_game("g1", "toy", "gm@test.org", "gm-secret", {"open": "yes"}, seed=3)
    r = join(judge, "ann@test.org", "g1 north east")[0].body
    assert "you are on the list for g1 (wishes: NORTH, EAST)" in r
    assert "g1: 1 of 4 seats taken, 3 free." in r
    listing = handle(judge, "x@test.org", "LIST")[0].body
    assert "g1: Toy, 3 of 4 seats free (1 taken)" in listing and "JOIN g1" in listing
    assert "ann@test.org" not in listing  # who joined is not shown to others
    r = join(judge, "bob@test.org", "g1 Norht")[0].body
    assert "no power 'Norht'; did you mean NORTH?" in r
    join(judge, "bob@test.org", "g1 north")
    join(judge, "bob@test.org", "g1 west")  # a second JOIN changes the wishes
    assert "off the list" in handle(judge, "bob@test.org", "unjoin g1")[0].body
    join(judge, "bob@test.org", "g1 west")
    join(judge, "cat@test.org", "g1")
    assert judge.store.game("g1").status == "forming"
    out = join(judge, "dan@test.org", "g1 south west")
    assert judge.store.game("g1").status == "active"
    players = {p.email: p.power for p in judge.store.players("g1")}
    assert players["bob@test.org"] == "WEST" and players["dan@test.org"] == "SOUTH"
    assert sorted(players.values()) == sorted(SEATS)
    welcome = {m.to: m.body for m in out if "you play" in m.subject}
    assert set(welcome) == set(players)
    for email, body in welcome.items():
        pw = re.search(r"Your password: (\S+)", body).group(1)
        r = handle(judge, email, f"SIGNON g1 {players[email]} {pw}\ngo 1")[0].body
        assert f"Signed on as {players[email].title()}" in r
    assert "does not take sign-ups (it is active)" in join(judge, "eve@test.org",
                                                            "g1")[0].body


def test_create_by_mail_of_an_open_game_says_players_join(judge):
    """The GM who makes an open game by mail gets the JOIN line to hand to players (and,
    with approve=yes, how to answer each request), as the command line says it."""
    reply = handle(judge, "gm@test.org", "CREATE mopen standard gm-secret open=yes")[0].body
    assert ("Game mopen (standard) created; you are its GM.\n"
            "Players join by mail: JOIN mopen [powers, best first]. You may also seat "
            "players yourself with ADDPLAYER <email> <power>.") in reply, reply
    reply = handle(judge, "gm@test.org", "CREATE mappr standard gm-secret open=yes "
                   "approve=yes")[0].body
    assert ("Players join by mail: JOIN mappr [powers, best first]; approve each with "
            "APPROVE <email> (or refuse with REJECT <email>), in this mail, or in a later one "
            "after GM mappr <password>.") in reply, reply
    reply = handle(judge, "gm@test.org", "CREATE shut standard gm-secret")[0].body
    assert ("Add players with ADDPLAYER <email> <power> (in this mail, or in a later one "
            "after GM shut <password>).") in reply and "JOIN" not in reply


def test_the_gm_approves_and_starts(judge):
    judge.create_game("g1", "toy", "gm@test.org", "gm-secret",
                      {"open": "yes", "approve": "yes", "autostart": "no"}, seed=3)
    out = join(judge, "ann@test.org", "g1 north")
    assert "went to its GM" in out[0].body
    assert [m.to for m in out[1:]] == ["gm@test.org"] and "APPROVE ann@test.org" in out[1].body
    join(judge, "bob@test.org", "g1")
    for who in ("cat", "dan", "eve"):
        join(judge, f"{who}@test.org", "g1")
    status = gm(judge, "LIST")
    assert "joined: ann@test.org (waiting; wishes: NORTH)" in status
    assert "ann@test.org accepted. g1: 1 of 4 seats taken" in gm(judge, "APPROVE ann@test.org")
    said = gm(judge, "REJECT bob@test.org\nAPPROVE cat@test.org\nADDPLAYER gil@test.org east")
    assert ("bob@test.org refused: told that the GM did not accept the request to join g1. "
            "g1: 1 of 4 seats taken, 3 free.") in said, said
    told = [m for m in judge.store.all_mail() if m.to == "bob@test.org"]
    assert told[-1].subject == "g1: not this time"
    assert "The GM of g1 did not accept your request to join." in told[-1].body
    assert "Every seat of g1 is taken; waiting for the GM's START." in gm(
        judge, "APPROVE dan@test.org")
    assert judge.store.game("g1").status == "forming"
    assert "every seat of g1 is taken" in join(judge, "zed@test.org", "g1")[0].body
    assert "every seat of g1 is taken: REJECT eve@test.org" in gm(judge, "APPROVE eve@test.org")
    assert "Game started" in gm(judge, "START")
    players = {p.email: p.power for p in judge.store.players("g1")}
    assert players == {"ann@test.org": "NORTH", "gil@test.org": "EAST",
                       "cat@test.org": players["cat@test.org"],
                       "dan@test.org": players["dan@test.org"]}
    assert judge.store.joins("g1") == []  # eve, never approved, was told and dropped
    told = [m for m in judge.store.all_mail() if m.to == "eve@test.org"]
    assert any("started without you" in m.body for m in told)


def test_watchers_get_results_and_public_press_only(judge, table):
    r = watch(judge, "fan@test.org", "g1")
    assert "Confirmed: you now receive the results and the public press of g1" in r
    assert "you already receive" in handle(judge, "fan@test.org", "watch g1")[0].body
    assert "you play in g1" in handle(judge, "north@test.org", "watch g1")[0].body
    out = handle(judge, "north@test.org", table.signon("NORTH") + "press to east\nsecret\n"
                 "endpress\nbroadcast\nhello all\nendpress")
    fan = [m for m in out if m.to == "fan@test.org"]
    assert len(fan) == 1 and "hello all" in fan[0].body
    assert "secret" not in fan[0].body
    for seat in SEATS:
        out = handle(judge, f"{seat.lower()}@test.org", table.signon(seat) + "go 1\nready")
    (res,) = [m for m in out if m.to == "fan@test.org"]
    assert "Results of g1, T1" in res.body and "secret-" not in res.body
    assert "no longer receive" in handle(judge, "fan@test.org", "UNWATCH g1")[0].body
    with judge.store.transaction():
        judge.set_option(judge.store.game("g1"), "watch", "no")
    assert "has no observers" in handle(judge, "fan@test.org", "watch g1")[0].body


def test_a_forged_watch_subscribes_nobody(judge, table):
    """WATCH proves its address by a code mailed there: a From: forged by someone who reads
    the Reply-To address subscribes no one (the answer, code and all, goes to the From:),
    and a code is good only from its address."""
    out = judge.handle_mail(mail("victim@test.org", "WATCH g1", Reply_To="joker@test.org"))
    assert [m.to for m in out] == ["victim@test.org"] and "If you did not ask" in out[0].body
    code = re.search(r"CONFIRM ([0-9a-f]{16})", out[0].body).group(1)
    r = handle(judge, "joker@test.org", f"CONFIRM {code}")[0].body
    assert "no change, JOIN or WATCH waits for this code from this address" in r
    assert judge.store.watchers("g1") == []
    with judge.store.transaction():  # closed to observers in between: the code is no good
        judge.set_option(judge.store.game("g1"), "watch", "no")
    r = handle(judge, "victim@test.org", f"CONFIRM {code}")[0].body
    assert "g1 has no observers" in r and judge.store.watchers("g1") == []


def test_a_forged_join_takes_no_seat(judge):
    """Seats go to addresses that answered their code: forged senders cannot fill a game."""
    judge.create_game("g1", "toy", "gm@test.org", "gm-secret", {"open": "yes"}, seed=3)
    for n in range(6):
        out = judge.handle_mail(mail(f"nobody{n}@test.org", "JOIN g1",
                                     Reply_To="joker@test.org"))
        assert [m.to for m in out] == [f"nobody{n}@test.org"]  # code and all: not joker's
    assert judge.store.joins("g1") == [] and judge.store.game("g1").status == "forming"
    assert "g1: Toy, 4 of 4 seats free" in handle(judge, "x@test.org", "LIST")[0].body
    code = re.search(r"CONFIRM ([0-9a-f]{16})", out[0].body).group(1)
    assert "no change, JOIN or WATCH waits" in handle(judge, "joker@test.org",
                                                      f"CONFIRM {code}")[0].body
    again = judge.handle_mail(mail("nobody5@test.org", "JOIN g1 west",
                                   Reply_To="joker@test.org"))
    assert len(again) == 1 and "less than an hour ago (to join g1 (wishes: WEST))" in \
        again[0].body  # no second code mail to the same address within the hour
    r = handle(judge, "nobody5@test.org", f"CONFIRM {code}")[0].body
    assert "you are on the list for g1 (wishes: WEST)" in r and len(judge.store.joins("g1")) == 1


def test_a_forged_unjoin_or_unwatch_is_told_to_the_address(judge, table):
    """They need no code, but the address learns of them: a mail without a sign-on is
    answered at its From:, whatever its Reply-To: says."""
    watch(judge, "fan@test.org", "g1")
    out = judge.handle_mail(mail("fan@test.org", "UNWATCH g1", Reply_To="joker@test.org"))
    assert [m.to for m in out] == ["fan@test.org"]
    out = judge.handle_mail(mail("fan@test.org", "UNWATCH g1", Reply_To="joker@test.org"))
    assert [m.to for m in out] == ["fan@test.org"]
    judge.create_game("g2", "toy", "gm@test.org", "gm-secret", {"open": "yes"}, seed=3)
    join(judge, "ann@test.org", "g2")
    out = judge.handle_mail(mail("ann@test.org", "UNJOIN g2", Reply_To="joker@test.org"))
    assert [m.to for m in out] == ["ann@test.org"]
    assert "off the list of g2" in out[0].body and judge.store.joins("g2") == []
    out = handle(judge, "ann@test.org", "UNJOIN g2")  # asked from the address itself
    assert [m.to for m in out] == ["ann@test.org"]


def test_open_games_from_the_command_line(tmp_path):
    cfg = tmp_path / "judge.yaml"
    cfg.write_text(yaml.safe_dump({"judge": {"address": "judge@test.org", "data_dir": "d"}}))
    runner = CliRunner()
    r = runner.invoke(main, ["game", "create", "o1", "--config", str(cfg), "--kind",
                             "standard", "--gm", "gm@test.org", "--open", "--approve"])
    assert r.exit_code == 0 and "Players join by mail: JOIN o1" in r.output
    store = Store(tmp_path / "d" / "judge.sqlite")
    with store.transaction():
        store.set_join("o1", "ann@test.org", ["FRANCE"], "waiting", 1.0)
        store.set_join("o1", "cat@test.org", [], "waiting", 1.0)
    store.close()
    r = runner.invoke(main, ["game", "approve", "o1", "ann@test.org", "--config", str(cfg)])
    assert r.exit_code == 0 and "ann@test.org accepted. o1: 1 of 7 seats taken" in r.output
    r = runner.invoke(main, ["game", "reject", "o1", "bob@test.org", "--config", str(cfg)])
    assert r.exit_code == 1 and "bob@test.org has not asked to join o1" in r.output
    r = runner.invoke(main, ["game", "reject", "o1", "cat@test.org", "--config", str(cfg)])
    assert r.exit_code == 0 and r.output.startswith(
        "cat@test.org refused: told that the GM did not accept the request to join o1. "
        "o1: 1 of 7 seats taken, 6 free."), r.output
    r = runner.invoke(main, ["game", "create", "o2", "--config", str(cfg), "--gm", "g@t.org",
                             "--approve"])
    assert r.exit_code == 2 and "needs --open" in r.output


@pytest.mark.parametrize("approve", [False, True])
def test_a_game_forms_by_mail_through_the_servers(service, mail_servers, approve):
    S, judge = mail_servers, service.judge
    opts = {"open": "yes", "approve": "yes" if approve else "no"}
    judge.create_game("club", "toy", "gm@test.org", "gm-pw", opts, seed=5)
    send(S, "fan@test.org", "WATCH club")
    service.step()
    code = re.search(r"CONFIRM ([0-9a-f]{16})", text(S.wait_for("fan@test.org", 1)[0])).group(1)
    send(S, "fan@test.org", f"CONFIRM {code}")
    joiners = (("ann", "north"), ("bob", "north east"), ("cat", ""), ("dan", ""))
    for who, wishes in joiners:
        send(S, f"{who}@test.org", f"JOIN club {wishes}")
    service.step()
    assert judge.store.joins("club") == []  # nobody is on the list before confirming
    for who, _ in joiners:
        asked = text(S.wait_for(f"{who}@test.org", 1)[0])
        send(S, f"{who}@test.org", re.search(r"CONFIRM [0-9a-f]{16}", asked).group(0))
    service.step()
    if approve:
        assert len([m for m in S.inbox("gm@test.org") if "asks to join" in m["Subject"]]) == 4
        send(S, "gm@test.org", "GM club gm-pw\n" + "".join(
            f"APPROVE {w}@test.org\n" for w in ("ann", "bob", "cat", "dan")))
        service.step()
    assert judge.store.game("club").status == "active"
    powers = {p.email: p.power for p in judge.store.players("club")}
    assert powers["ann@test.org"] in ("NORTH", "EAST") and sorted(powers.values()) == sorted(SEATS)
    for email, power in powers.items():
        got = S.wait_for(email, 4 if approve else 3)
        welcome = next(m for m in got if m["Subject"] == f"club: you play {power}")
        pw = re.search(r"Your password: (\S+)", text(welcome)).group(1)
        send(S, email, f"SIGNON club {power} {pw}\ngo 2\nready")
    service.step()
    fan = S.wait_for("fan@test.org", 3)
    assert "you now receive the results" in text(fan[1])
    assert "Results of club, T1" in text(fan[2]) and "For you only" not in text(fan[2])


def test_a_private_game_is_not_listed_nor_watched_and_observers_never_get_its_key(
        tmp_path, clock):
    from mobadj.judge.config import config_from_data
    from mobadj.judge.core import Judge

    from .conftest import Table

    cfg = config_from_data({
        "judge": {"address": "judge@test.org", "data_dir": str(tmp_path),
                  "gm_addresses": ["gm@test.org"]},
        "web": {"base_url": "https://example.org/judge"},
    })
    judge = Judge(Store(tmp_path / "judge.sqlite"), cfg, clock=clock, kdf_n=2**10)
    t = Table(judge)
    watch(judge, "fan@test.org", "g1")
    with judge.store.transaction():
        judge.store.set_web_key("g1", "s3cr3tkey", clock())
    assert "g1" not in handle(judge, "x@test.org", "LIST")[0].body
    asked = handle(judge, "x@test.org", "LIST G1")[0].body  # as a game not there at all
    assert asked.startswith("LIST: no public game 'G1' on this judge.")
    assert "s3cr3tkey" not in asked and "g1 " not in asked
    assert handle(judge, "other@test.org", "WATCH g1")[0].body.startswith("no game 'g1';")
    for seat in SEATS:
        out = handle(judge, t.emails[seat], t.signon(seat) + "go 1\nready")
    results = {m.to: m.body for m in out if "T1 results" in m.subject}
    assert "key=s3cr3tkey" in results["north@test.org"]
    assert "Results of g1, T1" in results["fan@test.org"]
    assert "s3cr3tkey" not in results["fan@test.org"]
    judge.store.close()


def test_list_with_a_game_name_lists_only_that_game(judge):
    judge.create_game("g1", "toy", "gm@test.org", "gm-secret", {"open": "yes"}, seed=3)
    judge.create_game("g2", "toy", "gm@test.org", "gm-secret", {"open": "yes"}, seed=4)
    join(judge, "ann@test.org", "g2 north")
    one = handle(judge, "x@test.org", "Hi,\nLIST G2\nthanks")[0].body
    assert "g2: Toy, 3 of 4 seats free (1 taken)" in one and "JOIN g2" in one
    assert "g1" not in one
    both = handle(judge, "x@test.org", "LIST")[0].body
    assert "g1: Toy, 4 of 4 seats free" in both and "g2: Toy" in both
    missing = handle(judge, "x@test.org", "LIST g3")[0].body
    assert missing.startswith("LIST: no public game 'g3' on this judge.")
    assert "g1: Toy" in missing and "g2: Toy" in missing  # and what there is


PROBES = ["WATCH {g}", "UNWATCH {g}", "JOIN {g}", "JOIN {g} north", "UNJOIN {g}",
          "TAKEOVER {g} north", "LIST {g}", "SUMMARY {g}", "SIGNON {g} nowhere some-guess",
          "GM {g} some-guess\nSTATUS", "WATCH {g}\nA VIE - GAL", "Hello\nJOIN {g}\nthanks"]


@pytest.mark.parametrize("status", ["forming", "active", "ended"])
def test_a_private_game_is_answered_by_mail_as_a_game_that_does_not_exist(judge, status):
    """Whatever a stranger sends about a private game (WATCH, JOIN, TAKEOVER, ...), the reply
    is the one for a name no game has: nothing tells that the game exists or its phase."""
    from .conftest import Table

    if status == "forming":
        judge.create_game("g1", "mobtown2", "gm@test.org", "gm-secret", {"open": "yes"})
        join(judge, "ann@test.org", "g1")
    else:
        t = Table(judge)
        if status == "ended":
            assert "ended" in gm(judge, "ENDGAME")
    watch(judge, "fan@test.org", "g1")
    with judge.store.transaction():
        judge.store.set_web_key("g1", "s3cr3tkey", judge.clock())

    def reply(sender: str, body: str) -> tuple[str, str]:
        out = [m for m in handle(judge, sender, body) if m.to == sender]
        assert len(out) == 1
        return out[0].subject, out[0].body

    for n, probe in enumerate(PROBES):  # a new address each (wrong sign-ons slow one down)
        private = reply(f"p{n}@evil.org", probe.format(g="g1"))
        missing = reply(f"q{n}@evil.org", probe.format(g="n9"))
        assert private == tuple(x.replace("n9", "g1").replace(f"q{n}@", f"p{n}@")
                                for x in missing), probe
    # those in the game still reach it
    assert "you already receive the results of g1" in handle(
        judge, "fan@test.org", "WATCH g1")[0].body
    assert "no longer receive the results of g1" in handle(
        judge, "fan@test.org", "UNWATCH g1")[0].body
    if status == "forming":
        assert "your wishes for g1 are now" in handle(judge, "ann@test.org", "JOIN g1")[0].body
    else:
        assert "you play in g1" in handle(judge, t.emails["NORTH"], "WATCH g1")[0].body


@pytest.mark.parametrize(("line", "instead"), [
    ("JOIN fall26 England please", "JOIN fall26 England"),
    ("join fall26 Germans", "JOIN fall26 Germany"),
    ("JOIN fall26 France and the Brits", "JOIN fall26 France England"),
    ("JOIN fall26 Spain", "JOIN fall26 alone for any power"),
])
def test_a_join_with_a_word_that_is_no_power_says_nothing_was_asked_and_what_to_send(
        judge, line, instead):
    """A newcomer's JOIN with a stray word or a nationality: no code comes, and the answer
    says so, with the line to send; that line then asks for the seat."""
    judge.create_game("fall26", "standard", "gm@test.org", "gm-secret", {"open": "yes"}, seed=3)
    body = f"Hi!\n\n{line}\n\nThanks,\nAnn\n\nSent from my iPhone\n"
    out = judge.handle_mail(mail("ann@test.org", body, subject="joining"))
    assert len(out) == 1 and "CONFIRM" not in out[0].body
    assert "Nothing was asked for, and no code was mailed." in out[0].body
    assert instead in out[0].body
    assert judge.store.request_made("fall26", "ann@test.org", "join") is None
    if "alone" not in instead:
        again = judge.handle_mail(mail("ann@test.org", instead))
        assert re.search(r"CONFIRM [0-9a-f]{16}", again[0].body)
