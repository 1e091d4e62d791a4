"""Rule options of a judge game (docs/rulings.md, docs/mobtown-rulings.md), in memory on a
real SQLite store: chosen when the game is created, checked then, kept from the start, used
in every phase (checks, previews, who is due, resolution) and shown to the players."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from mobadj.cli import main
from mobadj.judge.config import config_from_data
from mobadj.judge.core import Judge, JudgeError
from mobadj.judge.hosts import HostError, host_for
from mobadj.judge.store import Store
from mobadj.web.pages import Site

from .helpers import mail

#: France has three builds ordered for two: by default the first two count (DATC 4.D.4 b)
WINTER = {
    "phase": "W1901A",
    "units": {"FRANCE": ["A BUR", "F MAO"], "ENGLAND": ["F LON", "F EDI", "A LVP"]},
    "centers": {"FRANCE": ["PAR", "MAR", "BRE", "SPA"], "ENGLAND": ["LON", "EDI", "LVP"]},
}
BUILDS = "Build A PAR\nBuild A MAR\nBuild F BRE"

#: DATC 6.H.11: Italy's army in Marseilles is dislodged by an army convoyed from Gascony
CONVOYED = {
    "phase": "S1901M",
    "units": {"FRANCE": ["A GAS", "A BUR", "F MAO", "F WES", "F LYO"], "ITALY": ["A MAR"]},
    "centers": {"FRANCE": ["PAR", "MAR", "BRE"], "ITALY": ["ROM", "NAP", "VEN"]},
}
CONVOY = ("A GAS - MAR via convoy\nA BUR S A GAS - MAR\nF MAO C A GAS - MAR\n"
          "F WES C A GAS - MAR\nF LYO C A GAS - MAR")


def start(judge, name, seats=("FRANCE", "ENGLAND"), position=None, kind="standard",
          **options):
    """A started game with players for ``seats`` (the others in civil disorder), set to
    ``position``; the mails of its start."""
    judge.create_game(name, kind, "gm@test.org", "gm-pw-1", options, seed=3)
    out: list = []
    with judge.store.transaction():
        for seat in seats:
            judge.add_player(judge.store.game(name), f"{seat.lower()}@test.org", seat,
                             f"pw-{seat.lower()}", judge.clock(), out)
        judge.start(judge.store.game(name), judge.clock(), out)
        judge.queue(out, judge.clock())
        if position is not None:
            game = judge.store.game(name)
            judge.store.update_game(name, state=game.state | {"position": position},
                                    phase=position["phase"])
    return out


def send(judge, name, seat, text):
    """A player's mail; the judge's reply to it (then the other mails it caused)."""
    body = f"SIGNON {name} {seat} pw-{seat.lower()}\n{text}"
    return judge.handle_mail(mail(f"{seat.lower()}@test.org", body))


def gm(judge, name, text):
    return judge.handle_mail(mail("gm@test.org", f"GM {name} gm-pw-1\n{text}"))[0].body


def results(out, phase):
    return next(m.body for m in out if f"{phase} results" in m.subject)


# -- creating a game ---------------------------------------------------------------------------


def test_rule_options_are_read_beside_the_judge_options_and_stored_checked(judge):
    game, _ = judge.create_game("g", "standard", "gm@test.org", "pw", {
        "paradox": "1982", "too_many": " LAST", "convoy_retreat": "no",
        "duplicate_orders": "First", "deadline_hours": "72"})
    assert game.options["deadline_hours"] == "72"
    assert {k: game.options[k] for k in ("paradox", "too_many", "convoy_retreat",
                                         "duplicate_orders")} == {
        "paradox": "1982", "too_many": "last", "convoy_retreat": False,
        "duplicate_orders": "first"}
    assert judge.rules_line(game) == ("Rules: paradox=1982, convoy_retreat=false, "
                                      "too_many=last, duplicate_orders=first")
    mob, _ = judge.create_game("m", "mobtown2", "gm@test.org", "pw",
                               {"captive_don_helps": "yes", "don_crossing": "support"})
    assert judge.rules_line(mob) == "Rules: captive_don_helps=true, don_crossing=support"
    plain, _ = judge.create_game("p", "standard", "gm@test.org", "pw", {"press": "grey"})
    assert judge.rules_line(plain) == ""


@pytest.mark.parametrize("kind,options,said,near", [
    ("standard", {"paradx": "1982"}, "unknown option 'paradx'", "did you mean paradox?"),
    ("standard", {"deadline_hour": "24"}, "unknown option 'deadline_hour'",
     "did you mean deadline_hours?"),
    ("standard", {"captive_don_helps": "yes"}, "unknown option 'captive_don_helps'", ""),
    ("mobtown2", {"captive_don_help": "yes"}, "unknown option 'captive_don_help'",
     "did you mean captive_don_helps?"),
    ("mobtown2", {"paradox": "1982"}, "unknown option 'paradox'", ""),
])
def test_an_unknown_option_is_one_error_naming_both_kinds(judge, kind, options, said, near):
    with pytest.raises(JudgeError) as err:
        judge.create_game("g", kind, "gm@test.org", "pw", options)
    text = str(err.value)
    assert said in text and near in text
    assert "the judge's options: press, deadline_hours" in text
    title = host_for(kind).title
    assert f"rule options of {title}: " in text and "duplicate_orders" in text
    assert ("captive_don_helps" in text.split("rule options of")[1]) == (kind == "mobtown2")
    assert judge.store.game("g") is None


@pytest.mark.parametrize("kind,options,said", [
    ("standard", {"paradox": "1983"},
     "unknown paradox rule '1983'; choose from szykman, all_hold, 1982, 2000, 1971"),
    ("standard", {"convoy_retreat": "maybe"}, "unknown convoy_retreat rule 'maybe'"),
    ("standard", {"duplicate_orders": "frist"}, "duplicate_orders must be last or first"),
    ("mobtown2", {"subway_retreats": "never"}, "choose from subway_only, any"),
])
def test_a_bad_value_is_refused_when_the_game_is_created(judge, kind, options, said):
    with pytest.raises(HostError, match=said):
        judge.create_game("g", kind, "gm@test.org", "pw", options)
    assert judge.store.game("g") is None


def test_the_judges_game_defaults_may_hold_rule_options(tmp_path, clock):
    config = config_from_data({
        "judge": {"address": "judge@test.org", "data_dir": str(tmp_path), "timezone": "UTC"},
        "game_defaults": {"too_many": "last", "deadline_hours": 24}})
    judge = Judge(Store(config.db_path), config, clock=clock, kdf_n=2**10)
    game, _ = judge.create_game("g", "standard", "gm@test.org", "pw", {"paradox": "1982"})
    assert judge.rules_line(game) == "Rules: paradox=1982, too_many=last"
    game, _ = judge.create_game("h", "standard", "gm@test.org", "pw", {"too_many": "first"})
    assert judge.rules_line(game) == "Rules: too_many=first"  # the game's own choice wins
    game, _ = judge.create_game("c", "micromob", "gm@test.org", "pw")
    assert judge.rules_line(game) == ""  # not an option of card games: it has no effect
    judge.store.close()


def test_card_games_keep_their_game_options_and_refuse_others(judge):
    game, _ = judge.create_game("c", "micromob", "gm@test.org", "gm-pw-1", {"game_modules": "3"})
    assert game.options["game_modules"] == "3" and judge.rules_line(game) == ""
    with pytest.raises(JudgeError, match="unknown option 'modules'") as err:
        judge.create_game("d", "micromob", "gm@test.org", "pw", {"modules": "3"})
    assert "options of micro mob: game_<name>=<value>" in str(err.value)
    assert "SET: game_modules is set when the game is created" in gm(judge, "c",
                                                                     "SET game_modules 2")


def test_create_by_mail_takes_rule_options(judge):
    reply = judge.handle_mail(mail("gm@test.org", "CREATE bymail standard gm-pw-1 "
                                   "paradox=1982 too-many=last press=grey"))[0].body
    assert "Game bymail (standard) created" in reply
    assert "Rules: paradox=1982, too_many=last" in reply
    assert judge.store.game("bymail").options["press"] == "grey"
    reply = judge.handle_mail(mail("gm@test.org", "CREATE other standard gm-pw-1 "
                                   "paradox=1983"))[0].body
    assert "CREATE refused: unknown paradox rule '1983'" in reply
    reply = judge.handle_mail(mail("gm@test.org", "CREATE other standard gm-pw-1 "
                                   "too_mny=last"))[0].body
    assert "CREATE refused: unknown option 'too_mny'; did you mean too_many?" in reply
    assert judge.store.game("other") is None


def test_list_without_a_sign_on_shows_each_games_rules(judge):
    """Whoever may watch, join or take over sees a game's rules in LIST before signing on;
    an open game shows them once, in the list of games taking players."""
    start(judge, "spring27", paradox="1982", too_many="last", duplicate_orders="first")
    judge.create_game("plain", "standard", "gm@test.org", "gm-pw-1", {}, seed=3)
    judge.create_game("open27", "standard", "gm@test.org", "gm-pw-1",
                      {"open": "yes", "paradox": "1982"}, seed=3)
    rules = "\n  Rules: paradox=1982, too_many=last, duplicate_orders=first\n"
    listed = judge.handle_mail(mail("zed@test.org", "LIST"))[0].body
    assert f"spring27         standard     active   S1901M{rules}" in listed, listed
    assert "open27           standard     forming  \nplain            standard     forming  \n" \
        "spring27" in listed, listed
    assert listed.count("Rules: paradox=1982\n") == 1  # open27's, where it takes players
    one = judge.handle_mail(mail("zed@test.org", "LIST spring27"))[0].body
    assert one.startswith(f"spring27         standard     active   S1901M{rules}"), one


def test_the_command_line_creates_a_game_with_rule_options(tmp_path):
    cfg = tmp_path / "judge.yaml"
    cfg.write_text("judge:\n  address: judge@test.org\n  data_dir: d\n  timezone: UTC\n")

    def run(*args):
        return CliRunner().invoke(main, ["game", "create", "--config", str(cfg), *args])

    r = run("cli", "-k", "standard", "--gm", "gm@test.org", "-o", "paradox=1982",
            "--option", "civil_disorder=home_centres", "-o", "deadline_hours=72")
    assert r.exit_code == 0, r.output
    assert "Game cli (standard) created.\nRules: paradox=1982, civil_disorder=home_centres" \
        in r.output
    r = run("bad", "-k", "standard", "--gm", "gm@test.org", "-o", "paradox=192")
    assert r.exit_code == 1 and "Error: unknown paradox rule '192'" in r.output
    assert "Traceback" not in r.output
    r = run("bad", "-k", "mobtown2", "--gm", "gm@test.org", "-o", "don_crosing=support")
    assert r.exit_code == 1 and "did you mean don_crossing?" in r.output
    r = run("bad", "-k", "standard", "--gm", "gm@test.org", "-o", "paradox")
    assert r.exit_code == 2 and "expected NAME=VALUE" in r.output
    store = Store(tmp_path / "d" / "judge.sqlite")
    assert store.game("cli").options["paradox"] == "1982" and store.game("bad") is None
    store.close()


# -- changing them: only while the game is forming ---------------------------------------------


def test_rule_options_change_only_while_the_game_is_forming(judge):
    judge.create_game("g", "standard", "gm@test.org", "gm-pw-1", {"too_many": "last"})
    assert ("Option paradox = 2000. Rules: paradox=2000, too_many=last\n"
            in gm(judge, "g", "SET paradox 2000"))
    assert "SET: unknown paradox rule 'none'" in gm(judge, "g", "SET paradox none")
    assert "unknown option 'paradoxe'; did you mean paradox?" in gm(judge, "g",
                                                                     "SET paradoxe 1982")
    assert "start_year is set when the game is created" in gm(judge, "g", "SET start_year 1910")
    gm(judge, "g", "ADDPLAYER f@test.org France\nSTART")
    game = judge.store.game("g")
    assert game.status == "active" and game.state["rules"] == {"paradox": "2000",
                                                                "too_many": "last"}
    reply = gm(judge, "g", "SET too_many first")
    assert ("SET: too_many is a rule option: rule options can be changed only while the game "
            "is forming, and g is active (Rules: paradox=2000, too_many=last)") in reply
    assert judge.store.game("g").options["too_many"] == "last"
    assert "Option deadline_hours = 24." in gm(judge, "g", "SET deadline_hours 24")
    judge.create_game("plain", "standard", "gm@test.org", "gm-pw-1")
    gm(judge, "plain", "ADDPLAYER f@test.org France\nSTART")
    assert "and plain is active (the default rules)" in gm(judge, "plain", "SET paradox 1982")


# -- playing by them: every phase, and every path that reads orders ----------------------------


def test_too_many_builds_follow_the_option(judge):
    for name, options in (("dflt", {}), ("last", {"too_many": "last"})):
        start(judge, name, position=WINTER, **options)
        assert host_for("standard").due(judge.store.game(name).state) == ["FRANCE"]
        out = send(judge, name, "FRANCE", BUILDS + "\nready")
        assert judge.store.game(name).phase == "S1902M"
        units = judge.store.game(name).state["position"]["units"]["FRANCE"]
        body = results(out, "W1901A")
        if name == "dflt":
            assert sorted(units) == ["A BUR", "A MAR", "A PAR", "F MAO"]
            assert "Build F BRE" in body and ":: Rules:" not in body
        else:
            assert sorted(units) == ["A BUR", "A MAR", "F BRE", "F MAO"]
            assert ":: Rules: too_many=last\n" in body


def test_retreats_and_their_checks_follow_the_option(judge):
    """convoy_retreat=false (DATC 4.A.5 a): no retreat to a convoyed attacker's origin; the
    retreat phase's status, the check of a retreat and its resolution all know it."""
    for name, options in (("dflt", {}), ("strict", {"convoy_retreat": "false"})):
        start(judge, name, ("FRANCE", "ITALY"), CONVOYED, **options)
        send(judge, name, "FRANCE", CONVOY + "\nready")
        send(judge, name, "ITALY", "A MAR H\nready")
        game = judge.store.game(name)
        assert game.phase == "S1901R"
        assert host_for("standard").due(game.state) == ["ITALY"]
        status = gm(judge, name, "LIST")
        reply = send(judge, name, "ITALY", "A MAR R GAS")[0].body
        if name == "dflt":
            assert "Italy A MAR may retreat to GAS, PIE, SPA" in status
            assert "impossible" not in reply
        else:
            assert "Italy A MAR may retreat to PIE, SPA" in status
            assert "Rules: convoy_retreat=false" in status
            assert "A MAR R GAS: impossible" in reply
        send(judge, name, "ITALY", "ready")
        units = judge.store.game(name).state["position"]["units"]
        assert units.get("ITALY", []) == (["A GAS"] if name == "dflt" else [])


def test_duplicate_orders_follow_the_option_in_checks_previews_and_results(judge):
    for name, options in (("dflt", {}), ("first", {"duplicate_orders": "first"})):
        start(judge, name, ("FRANCE",), **options)
        reply = send(judge, name, "FRANCE", "A PAR - BUR\nA PAR - PIC\npreview")[0].body
        if name == "dflt":
            assert "  A PAR - PIC\n" in reply and "  A PAR - BUR\n" not in reply
            assert ("'A PAR - BUR' is replaced by the later order 'A PAR - PIC' (line 3): "
                    "the last order for a unit counts") in reply
            assert judge.store.orders(name, "S1901M")["FRANCE"] == "A PAR - PIC"
        else:
            assert "  A PAR - BUR\n  A PAR - PIC\n" in reply
            assert ("A PAR - PIC: impossible (unit already ordered); the first order for the "
                    "unit counts") in reply
        assert ("A PAR - BUR" in reply.split("Preview")[1]) == (name == "first")
        gm(judge, name, "PROCESS")
        units = judge.store.game(name).state["position"]["units"]["FRANCE"]
        assert ("A BUR" if name == "first" else "A PIC") in units


def test_a_later_order_that_corrects_the_unit_type_counts(judge):
    """``F PAR - BUR`` (Paris holds an army), then ``A PAR - PIC`` in the same mail: both
    are orders for the army in Paris, and the last one counts."""
    start(judge, "typo", ("FRANCE",))
    reply = send(judge, "typo", "FRANCE", "F PAR - BUR\nA PAR - PIC")[0].body
    assert ("'F PAR - BUR' is replaced by the later order 'A PAR - PIC' (line 3): the last "
            "order for a unit counts") in reply
    assert judge.store.orders("typo", "S1901M")["FRANCE"] == "A PAR - PIC"
    gm(judge, "typo", "PROCESS")
    assert "A PIC" in judge.store.game("typo").state["position"]["units"]["FRANCE"]


def test_a_mobtown_game_is_played_by_its_options(judge):
    start(judge, "mob", ("CAPONE",), kind="mobtown2", captive_don_helps="yes",
          forced_retreats="retreat_phase")
    host = host_for("mobtown2")
    game = judge.store.game("mob")
    rules = host.rules_of(game.state)
    assert rules.captive_don_helps is True and rules.forced_retreats == "retreat_phase"
    assert type(rules) is type(host.rules) and host.rules.captive_don_helps is False
    assert "Rules: forced_retreats=retreat_phase, captive_don_helps=true" in gm(judge, "mob",
                                                                               "LIST")
    gm(judge, "mob", "PROCESS")  # the Don placement, by the defaults for every mob
    assert judge.store.game("mob").state["rules"] == {"captive_don_helps": True,
                                                      "forced_retreats": "retreat_phase"}


def test_one_rules_object_per_set_of_options(judge):
    host = host_for("standard")
    a = host.rules_of({"rules": {"paradox": "1982", "too_many": "last"}})
    b = host.rules_of({"rules": {"too_many": "last", "paradox": "1982"}})
    assert a is b and a.paradox == "1982" and a.too_many == "last"
    assert host.rules_of({"rules": {"duplicate_orders": "first"}}) is host.rules
    assert host.rules_of({}) is host.rules
    with pytest.raises(HostError, match="this game's rule options cannot be used here"):
        host.rules_of({"rules": {"paradox": "1066"}})


# -- games stored before rule options could be chosen ------------------------------------------


def test_a_stored_game_without_rule_options_is_played_by_the_defaults(judge):
    """A game as older judges stored it (options without rule options, a state without
    ``rules``) is played by the defaults; no migration."""
    start(judge, "new", ("FRANCE",))
    assert "rules" not in judge.store.game("new").state  # the state of a default game
    old_options = {"press": "white", "deadline_hours": 48}
    with judge.store.transaction():
        judge.store.create_game("old", "standard", old_options, 1, "gm@test.org",
                                judge.store.game("new").gm_hash, judge.clock())
        judge.store.add_player("old", "FRANCE", "france@test.org",
                               judge.store.player("new", "FRANCE").pw_hash)
        judge.store.update_game("old", status="active", phase="W1901A", deadline=judge.clock(),
                                state={"position": WINTER, "over": False})
    assert gm(judge, "old", "LIST").count("Rules:") == 0
    out = send(judge, "old", "FRANCE", BUILDS + "\nready")
    assert sorted(judge.store.game("old").state["position"]["units"]["FRANCE"]) == [
        "A BUR", "A MAR", "A PAR", "F MAO"]  # too_many=first, the default
    assert ":: Rules:" not in results(out, "W1901A")
    assert "rules" not in judge.store.game("old").state


# -- shown to the players ----------------------------------------------------------------------


def test_players_see_the_rule_options(judge, clock):
    out = start(judge, "shown", ("FRANCE", "ENGLAND"), paradox="1982", too_many="last")
    welcome = next(m.body for m in out if m.to == "france@test.org" and "started" in m.subject)
    assert "Rules: paradox=1982, too_many=last\nPhase: Spring 1901 Movement" in welcome
    status = send(judge, "shown", "ENGLAND", "LIST")[0].body
    assert "Game shown (Standard Diplomacy), status: active\n" \
           "Rules: paradox=1982, too_many=last\n" in status
    out = judge.handle_mail(mail("gm@test.org", "GM shown gm-pw-1\nPROCESS"))
    res = results(out, "S1901M")
    assert res.startswith(":: Judge: Test Judge  Game: shown  Variant: standard\n"
                          ":: Rules: paradox=1982, too_many=last\n:: Phase: S1901M\n")
    site = Site(judge.store, clock=clock)
    page = site.game_html("shown")
    assert '<p class="rules">Rules: paradox=1982, too_many=last</p>' in page
    assert "Rules: paradox=1982, too_many=last" in site.index_html()
    judge.create_game("forming", "standard", "gm@test.org", "pw",
                      {"civil_disorder": "home_centres", "open": "yes"})
    assert '<p class="rules">Rules: civil_disorder=home_centres</p>' in site.game_html(
        "forming")
    listing = judge.handle_mail(mail("someone@test.org", "LIST"))[0].body
    assert "forming: Standard Diplomacy" in listing
    assert "  Rules: civil_disorder=home_centres" in listing
    start(judge, "plain", ("FRANCE",))
    assert 'class="rules"' not in site.game_html("plain")
