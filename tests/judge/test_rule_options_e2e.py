"""A rule option end to end through the real servers (pymap IMAP, aiosmtpd SMTP): the GM
creates two games by mail, one with ``too_many=last`` (DATC 4.D.4 c); a player orders the
same three builds for two in each, and the results differ as the option says; the players
are shown the option in the start mail and the results."""

from __future__ import annotations

import json
import re

from .e2e import send, text
from .test_rule_options import BUILDS, WINTER


def _results(servers, address, game, count):
    got = servers.wait_for(address, count)
    return next(m for m in got if m["Subject"] == f"{game}: W1901A results")


def test_too_many_builds_by_mail_follow_the_game_option(service, mail_servers):
    S, judge = mail_servers, service.judge
    for game, options in (("plain", ""), ("ruled", " too_many=last")):
        send(S, "gm@test.org", f"CREATE {game} standard gm-pw-1{options}\n"
             "addplayer fra@test.org France\naddplayer eng@test.org England\nstart")
    assert service.step() == 2
    replies = [text(m) for m in S.wait_for("gm@test.org", 2)]
    assert sum("Rules: too_many=last" in r for r in replies) == 1
    mails = S.wait_for("fra@test.org", 4)
    pw = {}
    for m in mails:
        game = m["Subject"].split(":")[0]
        if "you play" in m["Subject"]:
            pw[game] = re.search(r"Your password: (\S+)", text(m)).group(1)
        else:
            assert ("Rules: too_many=last" in text(m)) == (game == "ruled")
    with judge.store.transaction():  # a winter with three builds ordered for two
        for game in ("plain", "ruled"):
            state = judge.store.game(game).state
            judge.store.update_game(game, state=state | {"position": WINTER}, phase="W1901A")
    for game in ("plain", "ruled"):
        send(S, "fra@test.org", f"SIGNON {game} france {pw[game]}\n{BUILDS}\nready")
    service.step()  # France alone is due: READY resolves at once
    built = {}
    for game in ("plain", "ruled"):
        msg = _results(S, "eng@test.org", game, 4)
        body = text(msg)
        assert (":: Rules: too_many=last\n" in body) == (game == "ruled")
        assert ("France: 2 builds due; built A MAR, F BRE" in body) == (game == "ruled")
        data = json.loads(next(p for p in msg.iter_attachments()
                               if p.get_filename() == "result.json").get_content())
        built[game] = {r["order"]: r["result"] for r in data["result"]["results"]}
    assert built["plain"] == {"Build A PAR": "succeeds", "Build A MAR": "succeeds",
                              "Build F BRE": "invalid"}
    assert built["ruled"] == {"Build A PAR": "invalid", "Build A MAR": "succeeds",
                              "Build F BRE": "succeeds"}
