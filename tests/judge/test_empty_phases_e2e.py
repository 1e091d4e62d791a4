"""Phases with nothing to decide, end to end through the real servers (pymap IMAP, aiosmtpd
SMTP): a dislodged unit with no retreat is disbanded with the movement's results and the
game goes on at once; a retreat phase stored with nothing to decide resolves at the next
round of the service, without waiting for its deadline; a power that cannot build is not
due in the winter."""

from __future__ import annotations

import json
import re

from mobadj.engine import Rules, adjudicate, position_from_data
from mobadj.judge.hosts import host_for

from .e2e import send, text

#: France takes Paris in the fall; the German army there has nowhere to go (Brest is held
#: by England, which is one short of units but has no free home centre to build in)
POSITION = {
    "phase": "F1901M",
    "units": {"FRANCE": ["A BUR", "A PIC", "A GAS"], "GERMANY": ["A PAR", "A MUN"],
              "ENGLAND": ["A BRE", "F LON", "F EDI", "A LVP"]},
    "centers": {"FRANCE": ["MAR", "MUN"], "GERMANY": ["PAR", "BER", "KIE"],
                "ENGLAND": ["BRE", "LON", "EDI", "LVP", "NWY"]},
}
FRANCE = "A BUR - PAR\nA PIC S A BUR - PAR\nA GAS S A BUR - PAR"


def _start(service, servers, position):
    """A standard game of three players set to ``position``; their passwords."""
    judge = service.judge
    judge.create_game("empty", "standard", "gm@test.org", "gm-pw", {}, seed=5)
    send(servers, "gm@test.org", "GM empty gm-pw\naddplayer eng@test.org England\n"
         "addplayer fra@test.org France\naddplayer ger@test.org Germany\nstart")
    assert service.step() == 1
    pw = {}
    for who in ("eng", "fra", "ger"):
        welcome = text(servers.wait_for(f"{who}@test.org", 1)[0])
        pw[who] = re.search(r"Your password: (\S+)", welcome).group(1)
    with judge.store.transaction():
        judge.store.update_game("empty", state={"position": position, "over": False},
                                phase=position["phase"])
    return pw


def _results(servers, address, phase, count):
    got = servers.wait_for(address, count)
    return next(m for m in got if f"{phase} results" in m["Subject"])


def test_a_unit_with_no_retreat_is_disbanded_and_the_game_goes_on(service, mail_servers,
                                                                  clock):
    S = mail_servers
    pw = _start(service, S, POSITION)
    send(S, "fra@test.org", f"SIGNON empty france {pw['fra']}\n{FRANCE}\nready")
    send(S, "ger@test.org", f"SIGNON empty germany {pw['ger']}\nA PAR H\nA MUN H\nready")
    send(S, "eng@test.org", f"SIGNON empty england {pw['eng']}\nA BRE H\nready")
    service.step()  # all in and READY: resolved at once, no deadline passed
    game = service.judge.store.game("empty")
    assert game.phase == "W1901A"  # the empty F1901R was skipped
    body = text(_results(S, "ger@test.org", "F1901M", 4))
    assert "Disbanded at once (dislodged, with no retreat open):" in body
    assert "Germany A PAR, attacked from BUR" in body
    assert "Fall 1901 Retreats (F1901R): no dislodged unit can retreat" in body
    assert "France takes PAR (from Germany)" in body  # centres change with the fall movement
    assert body.count("Next phase: Winter 1901 Adjustments (W1901A)") == 1
    data = json.loads(next(p for p in _results(S, "ger@test.org", "F1901M", 4)
                           .iter_attachments() if p.get_filename() == "result.json")
                      .get_content())
    assert data["next_phase"] == "W1901A" and data["result"]["skipped"] == ["F1901R"]
    assert data["result"]["destroyed"] == {"GERMANY": ["A PAR"]}
    # the winter: England has a build but no free home centre, so it is not due
    assert host_for("standard").due(game.state) == ["FRANCE", "GERMANY"]
    send(S, "eng@test.org", f"SIGNON empty england {pw['eng']}\nBuild A LON")
    service.step()
    assert "No orders are needed from ENGLAND in Winter 1901 Adjustments" in text(
        S.wait_for("eng@test.org", 4)[-1])


def test_a_stored_retreat_phase_with_nothing_to_decide_resolves_at_once(
        service, mail_servers, clock):
    """A game stored in a retreat phase whose only unit can just disband (as the judge kept
    them before, or the option forced_retreats=retreat_phase): nobody is due, and the next
    round resolves it with no orders and no deadline reached."""
    S = mail_servers
    keep = Rules(forced_retreats="retreat_phase")
    game_map = host_for("standard").game_map
    pos = position_from_data(POSITION, game_map)
    orders = [("FRANCE", o) for o in Rules().parse_orders(FRANCE, game_map).orders]
    stuck = adjudicate(pos, [(p, o.order) for p, o in orders], game_map, keep).position
    assert str(stuck.phase) == "F1901R" and stuck.dislodged
    _start(service, S, stuck.to_data())
    deadline = service.judge.store.game("empty").deadline
    assert service.judge.store.game("empty").phase == "F1901R"
    service.step()
    game = service.judge.store.game("empty")
    assert game.phase == "W1901A" and clock() < deadline
    body = text(_results(S, "ger@test.org", "F1901R", 3))
    assert "A PAR Disband" in body and "No orders received" not in body
    assert body.count("Next phase: Winter 1901 Adjustments (W1901A)") == 1
