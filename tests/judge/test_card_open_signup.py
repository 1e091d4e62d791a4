"""A card game filled by open sign-up: the joiners get seats P1..Pn without a gap (their
wishes choose among those, and a wish a smaller table would not deal is said to be one at
once), and a START the game cannot make changes nothing: nobody is seated or mailed a
password.  A full game that cannot start by itself tells its GM why, once."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from mobadj.cli import main

from .e2e import send, text
from .helpers import mail

pytestmark = pytest.mark.pure_only  # card games: no code of the compiled build


def join(judge, who: str, wish: str) -> list:
    """JOIN and its CONFIRM, as the joiner sends them: every mail the CONFIRM makes."""
    out = judge.handle_mail(mail(f"{who}@test.org", f"Hi,\nJOIN og {wish}\nThanks, {who}"))
    code = re.search(r"CONFIRM (\S+)", "\n".join(m.body for m in out)).group(1)
    return judge.handle_mail(mail(f"{who}@test.org", f"CONFIRM {code}"))


def to(out: list, who: str) -> str:
    """The bodies of the mails in ``out`` to ``who``, one after the other."""
    return "\n".join(m.body for m in out if m.to == who)


def start(judge) -> list:
    """The GM's START: every mail it makes."""
    return judge.handle_mail(mail("gm@test.org", "GM og gm-pass\nSTART"))


@pytest.fixture
def open_game(judge):
    judge.handle_mail(mail("gm@test.org", "CREATE og micromob gm-pass open=yes"))
    assert judge.store.game("og").status == "forming"
    return judge


def test_joiners_get_the_first_seats_and_the_game_starts(open_game) -> None:
    judge = open_game
    for who, wish in (("ann", "P2"), ("bob", "P5"), ("cat", "P6")):
        join(judge, who, wish)
    out = start(judge)
    assert any(m.to == "ann@test.org" and "Your password" in m.body for m in out)
    assert judge.store.game("og").status == "active"
    seats = {p.email: p.power for p in judge.store.players("og")}
    assert sorted(seats.values()) == ["P1", "P2", "P3"]
    assert seats["ann@test.org"] == "P2"  # a wish among the seats dealt is kept


def test_a_start_the_game_cannot_make_seats_and_mails_nobody(open_game) -> None:
    judge = open_game
    join(judge, "ann", "P1")  # micro mob needs two
    out = start(judge)
    reply = next(m for m in out if m.to == "gm@test.org").body
    assert "START" in reply and "players" in reply  # refused, with the game's reason
    assert [m.to for m in out] == ["gm@test.org"]  # no seat, no password mailed
    assert judge.store.game("og").status == "forming" and judge.store.players("og") == []
    assert [j["email"] for j in judge.store.joins("og")] == ["ann@test.org"]
    join(judge, "bob", "P4")
    start(judge)
    assert sorted(p.power for p in judge.store.players("og")) == ["P1", "P2"]


def test_a_wish_a_smaller_table_would_not_deal_is_said_at_once(open_game) -> None:
    """Micro mob is for 2 to 6: P5 is dealt only when five play, P2 always.  The GM starts
    with three: ann, who asked for P5, is told at once she may get another seat, and the
    mail that starts the game names the one she got."""
    judge = open_game
    ann = to(join(judge, "ann", "P5"), "ann@test.org")
    assert "You asked for P5: the seats of og are given in order when the game starts, " \
           "from P1 on with no gap, one for each player, so with fewer players you may " \
           "get another seat. The mail that starts the game names yours." in ann
    assert "You asked for" not in to(join(judge, "bob", "P2"), "bob@test.org")
    assert "You asked for P6 and P4:" in to(join(judge, "cat", "P6 P4"), "cat@test.org")
    out = start(judge)
    seats = {p.email: p.power for p in judge.store.players("og")}
    assert sorted(seats.values()) == ["P1", "P2", "P3"] and seats["bob@test.org"] == "P2"
    started = next(m for m in out if m.to == "ann@test.org"
                   and m.subject == "og: the game has started")
    assert f"og has started. You play {seats['ann@test.org']}." in started.body


def test_a_full_game_that_cannot_start_tells_its_gm_once_and_changes_nothing(judge) -> None:
    """A game option the game refuses (competetive: a typo CREATE now refuses, kept in a
    game made before it did): Micro City's two seats fill, the game refuses to start.
    Nobody is seated or mailed a password, the joiners stay on the list, the last joiner
    hears why, and the GM is mailed the reason once: not again when a joiner changes
    wishes and finds the game full again."""
    judge.handle_mail(mail("gm@test.org", "CREATE og microcity gm-pass open=yes "
                                          "game_mode=competitive"))
    with judge.store.transaction():
        judge.store.update_game("og", options=judge.store.game("og").options
                                | {"game_mode": "competetive"})
    join(judge, "ann", "P1")
    out = join(judge, "bob", "P2")
    reason = "option mode=competetive is not known"
    assert "og: 2 of 2 seats taken, 0 free." in to(out, "bob@test.org")
    assert "Every seat of og is taken, but the game cannot start by itself " \
           f"({reason}" in to(out, "bob@test.org")
    gm = [m for m in out if m.to == "gm@test.org"]
    assert [m.subject for m in gm] == ["og: every seat is taken, but the game cannot start"]
    assert reason in gm[0].body and "nobody was seated or mailed a password" in gm[0].body
    assert sorted(m.to for m in out) == ["bob@test.org", "gm@test.org"]  # no password
    game = judge.store.game("og")
    assert game.status == "forming" and game.state is None
    assert judge.store.players("og") == []
    assert [(j["email"], j["status"]) for j in judge.store.joins("og")] == [
        ("ann@test.org", "accepted"), ("bob@test.org", "accepted")]
    again = judge.handle_mail(mail("ann@test.org", "JOIN og P2"))  # new wishes: full again
    assert [m.to for m in again] == ["ann@test.org"]
    assert "cannot start by itself" in again[0].body and "P2" in again[0].body
    refused = start(judge)
    assert [m.to for m in refused] == ["gm@test.org"] and reason in refused[0].body
    assert judge.store.game("og").status == "forming" and judge.store.players("og") == []


def test_create_refuses_a_game_option_the_game_does_not_take(judge) -> None:
    """The typo is caught when the game is made, with the game's own did-you-mean, and no
    game is made; a value the game takes at some number of players is accepted."""
    out = judge.handle_mail(mail("gm@test.org", "CREATE og microcity gm-pass open=yes "
                                                "game_mode=competetive"))
    assert ("CREATE refused: Micro City does not take these options: option "
            "mode=competetive is not known; expected one of basic, extended, challenge, "
            "competitive (did you mean 'competitive'?)") in out[0].body
    assert judge.store.game("og") is None
    out = judge.handle_mail(mail("gm@test.org", "CREATE og microcity gm-pass open=yes "
                                                "game_mode=competitive"))
    assert "Game og (microcity) created" in out[0].body


def test_create_refuses_options_for_what_is_wrong_not_for_a_player_count(
        judge, tmp_path) -> None:
    """The competitive mode is for 2 players and takes no difficulty: the refusal names the
    difficulty, which the GM can change, not the 2 players, which the GM does not set."""
    out = judge.handle_mail(mail("gm@test.org", "CREATE mc3 microcity gm-pass "
                                                "game_mode=competitive game_difficulty=hard"))
    assert ("CREATE refused: Micro City does not take these options: option difficulty=hard: "
            "the competitive mode always lasts 20 rounds, 10 per player") in out[0].body
    assert "is for 2 players" not in out[0].body
    assert judge.store.game("mc3") is None
    cfg = tmp_path / "judge.yaml"
    cfg.write_text(f"judge:\n  address: judge@test.org\n  data_dir: {tmp_path}\n")
    r = CliRunner().invoke(main, ["game", "create", "--config", str(cfg), "mc3", "--kind",
                                  "microcity", "--gm", "gm@test.org", "-o",
                                  "game_mode=competitive", "-o", "game_difficulty=hard"])
    assert r.exit_code == 1 and r.output == (
        "Error: Micro City does not take these options: option difficulty=hard: the "
        "competitive mode always lasts 20 rounds, 10 per player\n"), r.output


def test_a_micro_mob_module_named_twice_is_refused_by_name_at_create(judge, tmp_path) -> None:
    """``game_modules=docks,docks`` (or ``docks,D``) names two modules and would get one: the
    CREATE (by mail or by the CLI) names the module, never "1 module is for 2 players"."""
    out = judge.handle_mail(mail("gm@test.org", "CREATE mmy micromob gm-pass "
                                                "game_modules=docks,D"))
    assert ("CREATE refused: micro mob does not take these options: module docks is named "
            "twice ('docks' and 'D'); name each module once") in out[0].body
    assert judge.store.game("mmy") is None
    cfg = tmp_path / "judge.yaml"
    cfg.write_text(f"judge:\n  address: judge@test.org\n  data_dir: {tmp_path}\n")
    r = CliRunner().invoke(main, ["game", "create", "--config", str(cfg), "mmy", "--kind",
                                  "micromob", "--gm", "gm@test.org", "-o",
                                  "game_modules=docks,docks"])
    assert r.exit_code == 1 and r.output == (
        "Error: micro mob does not take these options: module docks is named twice "
        "('docks'); name each module once\n"), r.output
    out = judge.handle_mail(mail("gm@test.org", "CREATE mmy micromob gm-pass "
                                                "game_modules=docks,casino"))
    assert "Game mmy (micromob) created" in out[0].body


def test_a_full_game_without_autostart_deals_nothing_before_the_gms_start(
        service, mail_servers) -> None:
    """By mail through the real servers: an open Micro City with ``autostart=no`` fills.
    Nobody gets a seat or a password then: the joiners and the GM are told the game is full
    and waits for the GM's START; the START hands the seats out as a start by itself
    would (ann's wish P2 kept, bob P1) and mails each player their password."""
    S = mail_servers
    send(S, "gm@test.org", "CREATE og microcity gm-pass open=yes autostart=no")
    service.step()
    for who, wish in (("ann", "P2"), ("bob", "")):
        address = f"{who}@test.org"
        send(S, address, f"JOIN og {wish}")
        service.step()
        code = re.search(r"CONFIRM (\S+)", text(S.wait_for(address, 1)[-1])).group(1)
        send(S, address, f"CONFIRM {code}")
        service.step()
    full = "Every seat of og is taken; waiting for the GM's START. Nothing is dealt before"
    assert full in text(S.wait_for("bob@test.org", 2)[-1])  # the reply to bob's CONFIRM
    ann = S.wait_for("ann@test.org", 3)
    assert ann[-1]["Subject"] == "og: every seat is taken" and full in text(ann[-1])
    gm = [m for m in S.inbox("gm@test.org") if m["Subject"] == "og: every seat is taken"]
    assert len(gm) == 1 and "Nobody is seated or mailed a password" in text(gm[0])
    assert not any("Your password" in text(m) for address in S.all_delivered()
                   for m in S.inbox(address))
    assert service.judge.store.players("og") == []
    assert service.judge.store.game("og").status == "forming"
    seen = {a: len(S.inbox(a)) for a in ("ann@test.org", "bob@test.org")}

    send(S, "gm@test.org", "GM og gm-pass\nSTART")
    service.step()
    seats = {p.email: p.power for p in service.judge.store.players("og")}
    assert seats == {"ann@test.org": "P2", "bob@test.org": "P1"}
    assert service.judge.store.game("og").status == "active"
    for address, seat in seats.items():
        new = [text(m) for m in S.wait_for(address, seen[address] + 2)[seen[address]:]]
        assert any("Your password" in t for t in new)
        assert any(f"og has started. You play {seat}." in t for t in new)
