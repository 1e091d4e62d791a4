"""Draws and concessions voted by mail (secret until they pass), the GM ending a game with a
result, and the result recorded and announced."""

from __future__ import annotations

import json
import re

import pytest
import yaml
from click.testing import CliRunner

from mobadj.cli import main
from mobadj.judge.store import Store

from .conftest import Table
from .e2e import send, text
from .helpers import mail

SEATS = ["NORTH", "EAST", "SOUTH", "WEST"]


def vote(judge, t, seat, line):
    return judge.handle_mail(mail(t.emails[seat], t.signon(seat) + line))


def test_a_dias_draw_passes_when_every_survivor_votes_and_votes_stay_secret(judge, table):
    for seat in ("NORTH", "EAST", "SOUTH"):
        out = vote(judge, table, seat, "DRAW")
        assert [m.to for m in out] == [table.emails[seat]]  # nobody else hears of it
        assert "Your vote for a draw is recorded. Votes are secret" in out[0].body
    listing = vote(judge, table, "WEST", "LIST")[0].body
    assert "draw" not in listing.lower()
    vote(judge, table, "SOUTH", "NO DRAW")
    vote(judge, table, "WEST", "DRAW")
    assert judge.store.game("g1").status == "active"  # SOUTH took the vote back
    out = vote(judge, table, "SOUTH", "draw")
    assert judge.store.game("g1").status == "ended"
    over = [m for m in out if m.subject == "g1: game over"]
    assert sorted(m.to for m in over) == sorted([*table.emails.values(), "gm@test.org"])
    assert "ends in a draw between EAST, NORTH, SOUTH, WEST (voted by every surviving " \
           "player)" in over[0].body
    ending = judge.export("g1")["ending"]
    assert ending["result"] == "draw" and ending["powers"] == sorted(SEATS)
    assert "Result: The game g1 ends in a draw" in vote(judge, table, "EAST", "list")[0].body
    assert "g1 is ended" in vote(judge, table, "EAST", "draw")[0].body


def test_civil_disorder_does_not_block_a_draw(judge, table, clock):
    with judge.store.transaction():
        judge.store.update_player("g1", "WEST", status="disorder")
    for seat in ("NORTH", "EAST", "SOUTH"):
        vote(judge, table, seat, "DRAW")
    ending = judge.store.ending("g1")
    assert ending["result"] == "draw" and "WEST" in ending["powers"]  # still a survivor


def test_named_draws(judge):
    t = Table(judge, draw="named")
    vote(judge, t, "NORTH", "DRAW north east")
    vote(judge, t, "EAST", "DRAW east north")
    vote(judge, t, "SOUTH", "DRAW north east south")
    vote(judge, t, "WEST", "DRAW north east")
    assert judge.store.game("g1").status == "active"  # SOUTH wants another draw
    out = vote(judge, t, "SOUTH", "DRAW NORTH EAST")
    assert "ends in a draw between EAST, NORTH" in out[-1].body


def test_draw_names_are_refused_in_a_dias_game(judge, table):
    out = vote(judge, table, "NORTH", "DRAW north east")
    assert "a draw includes every surviving power (DIAS); send DRAW alone" in out[0].body
    assert judge.store.votes("g1") == {}


def test_a_concession(judge, table):
    assert "cannot concede to yourself" in vote(judge, table, "NORTH", "concede to north")[0].body
    for seat in ("EAST", "SOUTH"):
        vote(judge, table, seat, "CONCEDE TO NORTH")
    vote(judge, table, "WEST", "CONCEDE EAST")
    assert judge.store.game("g1").status == "active"
    out = vote(judge, table, "WEST", "concede to north")
    assert "The game g1 ends: NORTH wins (by concession)." in out[-1].body
    assert judge.store.ending("g1")["powers"] == ["NORTH"]


def test_the_gm_ends_a_game_with_a_result(judge, table):
    out = judge.handle_mail(mail("gm@test.org", "GM g1 gm-secret\nENDGAME DRAW north south"))
    assert "ends in a draw between NORTH, SOUTH (declared by the GM)" in out[0].body
    assert judge.store.ending("g1")["result"] == "draw"
    assert sum(m.subject == "g1: game over" for m in out) == 5


def test_an_ended_game_shows_its_result_everywhere_and_awaits_nobody(judge, clock):
    t = Table(judge, "standard", picture="none")
    vote(judge, t, "ENGLAND", "F LON - NTH\nF EDI - NWG\nA LVP - YOR")
    clock.advance(hours=49)  # the deadline has passed, the judge not yet run: PROCESS
    judge.handle_mail(mail("gm@test.org", "GM g1 gm-secret\nPROCESS"))  # six missed S1901M
    judge.handle_mail(mail("gm@test.org", "GM g1 gm-secret\nENDGAME DRAW England France"))
    result = "result: a draw between ENGLAND, FRANCE (declared by the GM)"
    for asked in ("LIST", "LIST g1"):  # without a sign-on: the games on the judge
        listed = judge.handle_mail(mail("zed@test.org", asked))[0].body
        assert re.search(rf"g1 +standard +ended +F1901M  {re.escape(result)}", listed)
    listed = vote(judge, t, "ENGLAND", "LIST")[0].body
    assert ("Result: The game g1 ends in a draw between ENGLAND, FRANCE (declared by the GM)."
            in listed)
    assert "Ended in: F1901M" in listed
    assert "waiting" not in listed and "Deadline" not in listed and "Phase:" not in listed
    assert "England: units A YOR, F NTH, F NWG" in listed  # the board as the game ended
    summary = judge.handle_mail(mail("zed@test.org", "SUMMARY g1"))[0].body
    assert "now" not in summary
    assert re.search(r"ENGLAND +the start - F1901M +a player \(missed 0; to the end\)", summary)
    assert re.search(r"ITALY +the start - F1901M +a player \(missed 1; to the end\)", summary)


def test_survivors_of_a_diplomacy_game_are_the_powers_on_the_board(judge):
    t = Table(judge, "standard")
    with judge.store.transaction():  # Italy has lost everything
        game = judge.store.game("g1")
        pos = game.state["position"]
        for key in ("units", "centers"):
            pos[key].pop("ITALY")
        judge.store.update_game("g1", state=game.state)
    assert "ITALY is out of the game" in vote(judge, t, "ITALY", "draw")[0].body
    for seat in t.emails:
        if seat != "ITALY":
            vote(judge, t, seat, "DRAW")
    ending = judge.store.ending("g1")
    assert ending["result"] == "draw" and "ITALY" not in ending["powers"]
    assert len(ending["powers"]) == 6


def test_end_from_the_command_line(tmp_path):
    cfg = tmp_path / "judge.yaml"
    cfg.write_text(yaml.safe_dump({"judge": {"address": "judge@test.org", "data_dir": "d"}}))
    runner = CliRunner()

    def run(*args):
        return runner.invoke(main, [*args[:2], "--config", str(cfg), *args[2:]])

    run("game", "create", "e1", "--gm", "gm@test.org", "--seed", "1")
    run("game", "add-player", "e1", "f@test.org", "France")
    run("game", "start", "e1")
    r = run("game", "end", "e1", "--draw", "France", "England")
    assert r.exit_code == 0, r.output
    assert "ends in a draw between ENGLAND, FRANCE (declared by the GM)" in r.output
    store = Store(tmp_path / "d" / "judge.sqlite")
    assert store.ending("e1")["powers"] == ["ENGLAND", "FRANCE"]
    store.close()
    r = run("game", "end", "e1", "--winner", "France")
    assert r.exit_code == 1 and "already ended" in r.output
    r = run("game", "list")
    assert re.search(r"e1 +standard +ended +S1901M +1 player\(s\)  result: a draw between "
                     r"ENGLAND, FRANCE \(declared by the GM\)", r.output)
    assert "deadline" not in r.output
    r = run("game", "status", "e1")
    assert "Result: a draw between ENGLAND, FRANCE (declared by the GM)" in r.output
    assert "Ended in: S1901M" in r.output and "Phase:" not in r.output
    r = run("game", "end", "e1", "France")
    assert r.exit_code == 2 and "add --draw" in r.output


@pytest.mark.parametrize("how", ["draw", "concede"])
def test_a_game_ends_by_votes_sent_by_mail(service, mail_servers, how):
    S, judge = mail_servers, service.judge
    judge.create_game("vote", "standard", "gm@test.org", "gm-pw", seed=6)
    send(S, "gm@test.org", "GM vote gm-pw\naddplayer en@test.org England en-pass\n"
                           "addplayer fr@test.org France fr-pass\nstart")
    send(S, "fan@test.org", "WATCH vote")
    service.step()
    code = re.search(r"CONFIRM ([0-9a-f]{16})", text(S.wait_for("fan@test.org", 1)[0])).group(1)
    send(S, "fan@test.org", f"CONFIRM {code}")
    service.step()
    first = "DRAW" if how == "draw" else "CONCEDE TO ENGLAND"
    send(S, "fr@test.org", f"SIGNON vote France fr-pass\n{first}")
    service.step()
    reply = next(m for m in S.wait_for("fr@test.org", 3) if m["Subject"].startswith("Re:"))
    assert "recorded. Votes are secret" in text(reply)
    assert not any("DRAW" in text(m) or "conce" in text(m) for m in S.inbox("en@test.org")
                   if m["Subject"] != "vote: game over")  # the vote itself stays secret
    if how == "draw":
        send(S, "en@test.org", "SIGNON vote England en-pass\nDRAW")
        service.step()
        expected = ("The game vote ends in a draw between AUSTRIA, ENGLAND, FRANCE, GERMANY, "
                    "ITALY, RUSSIA, TURKEY (voted by every surviving player).")
    else:  # the powers without a player do not vote: France alone concedes
        expected = "The game vote ends: ENGLAND wins (by concession)."
    for address in ("en@test.org", "fr@test.org", "fan@test.org", "gm@test.org"):
        over = [m for m in S.inbox(address) if m["Subject"] == "vote: game over"]
        assert len(over) == 1 and expected in text(over[0])
        assert "Supply centres: " in text(over[0])
    assert judge.store.game("vote").status == "ended"


def test_a_tie_for_first_that_ends_a_game_by_its_rules_is_a_draw_between_them(judge):
    """A card game whose players tie for the best score share the win (mobadj.cards'
    winners): the result names them all, where it said only that the game ended."""
    t = Table(judge, "standard", picture="none")
    with judge.store.transaction():
        judge.endings.record_over(t.game, {"winners": ["ENGLAND", "FRANCE"]}, "by the rules",
                                  judge.clock(), "S1901M")
    ending = judge.store.ending("g1")
    assert (ending["result"], ending["powers"]) == ("draw", ["ENGLAND", "FRANCE"])
    assert judge.endings.result_line(ending) == (
        "a draw between ENGLAND, FRANCE (by the rules)")


def test_a_draw_that_passes_as_a_phase_is_resolved_ends_the_game_in_that_phase(judge, clock):
    """WEST, who never voted, misses the deadline and falls into civil disorder: the other
    three's DRAW votes then carry the draw.  The phase's results already say the game is
    over, with no next phase or deadline (result.json too); nobody is sent their early
    orders for a phase that never comes, and the game ended in the phase resolved."""
    t = Table(judge, extend_first_nmr_hours=0, disorder_after_nmr=1)
    for seat in ("NORTH", "EAST", "SOUTH"):
        vote(judge, t, seat, "go 1\nDRAW")
    vote(judge, t, "NORTH", "PHASE T2\ngo 2")  # orders sent early for the next turn
    assert judge.store.game("g1").status == "active"
    clock.advance(hours=49)
    out = judge.tick()
    results = next(m for m in out if m.to == "north@test.org" and m.subject == "g1: T1 results")
    assert "WEST has missed 1 deadlines in a row and is now in civil disorder" in results.body
    assert ("The game is over: a draw between EAST, NORTH, SOUTH, WEST (voted by every "
            "surviving player).") in results.body, results.body
    assert "Next phase" not in results.body and "Deadline: no deadline" in results.body
    data = json.loads(next(b for n, _, b in results.attachments if n == "result.json"))
    assert data["phase"] == "T1" and data["next_phase"] is None and data["deadline"] is None
    assert [m.subject for m in out if m.to == "north@test.org"] == ["g1: T1 results",
                                                                    "g1: game over"]
    ending = judge.store.ending("g1")
    assert (ending["result"], ending["phase"]) == ("draw", "T1")
    listed = vote(judge, t, "NORTH", "LIST")[0].body
    assert "Ended in: T1" in listed and "Deadline" not in listed


def test_a_rollback_leaves_a_game_that_ended_after_the_phase_it_undoes_ended(judge, tmp_path):
    """T1 resolved, then every player votes DRAW during T2: the game ended in T2, not with
    T1.  The GM's ROLLBACK, by mail or at the command line, is refused and says why; the
    draw every player was told of stands."""
    t = Table(judge)
    judge.handle_mail(mail("gm@test.org", "GM g1 gm-secret\nPROCESS"))
    for seat in SEATS:
        vote(judge, t, seat, "DRAW")
    assert judge.store.ending("g1")["phase"] == "T2"
    out = judge.handle_mail(mail("gm@test.org", "GM g1 gm-secret\nROLLBACK"))
    refusal = ("cannot roll back T1: the game did not end with it but later, in T2 (a draw "
               "between EAST, NORTH, SOUTH, WEST (voted by every surviving player)); that "
               "result stands")
    assert [m.to for m in out] == ["gm@test.org"] and refusal in out[0].body, out[0].body
    cfg = tmp_path / "judge.yaml"
    cfg.write_text(yaml.safe_dump({"judge": {"address": "judge@test.org",
                                             "data_dir": str(tmp_path)}}))
    r = CliRunner().invoke(main, ["game", "rollback", "--config", str(cfg), "g1"])
    assert r.exit_code == 1 and refusal in r.output, r.output
    game, ending = judge.store.game("g1"), judge.store.ending("g1")
    assert (game.status, game.phase) == ("ended", "T2")
    assert (ending["result"], ending["phase"]) == ("draw", "T2")
    assert "Ended in: T2" in vote(judge, t, "NORTH", "LIST")[0].body


def test_a_rollback_reopens_a_game_that_ended_with_the_phase_it_undoes(judge):
    t = Table(judge, turns=1)
    judge.handle_mail(mail("gm@test.org", "GM g1 gm-secret\nPROCESS"))
    assert judge.store.game("g1").status == "ended"
    out = judge.handle_mail(mail("gm@test.org", "GM g1 gm-secret\nROLLBACK"))
    assert "T1 rolled back" in out[0].body, out[0].body
    assert judge.store.game("g1").status == "active" and judge.store.ending("g1") is None
    assert "Ended in" not in vote(judge, t, "NORTH", "LIST")[0].body


def test_a_rollback_of_the_phase_a_voted_draw_ended_with_brings_the_votes_back(judge, clock):
    """The draw passed as T1 was resolved (WEST fell into civil disorder); the GM rolls T1
    back: the game is open again with NORTH, EAST and SOUTH's DRAW votes standing, so when
    T1 is played again and WEST falls again, the draw passes again without a new vote."""
    t = Table(judge, extend_first_nmr_hours=0, disorder_after_nmr=1)
    for seat in ("NORTH", "EAST", "SOUTH"):
        vote(judge, t, seat, "go 1\nDRAW")
    clock.advance(hours=49)
    judge.tick()
    assert judge.store.ending("g1")["phase"] == "T1"
    out = judge.handle_mail(mail("gm@test.org", "GM g1 gm-secret\nROLLBACK"))
    assert "T1 rolled back" in out[0].body, out[0].body
    assert judge.store.game("g1").status == "active" and judge.store.ending("g1") is None
    assert set(judge.store.votes("g1")["draw"]) == {"NORTH", "EAST", "SOUTH"}
    assert "draw" not in vote(judge, t, "WEST", "LIST")[0].body.lower()  # still secret
    clock.advance(hours=49)
    out = judge.tick()
    results = next(m for m in out if m.to == "north@test.org" and m.subject == "g1: T1 results")
    assert ("The game is over: a draw between EAST, NORTH, SOUTH, WEST (voted by every "
            "surviving player).") in results.body, results.body
    assert judge.store.ending("g1")["result"] == "draw"
