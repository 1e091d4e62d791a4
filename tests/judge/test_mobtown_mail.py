"""Mobtown II by mail: what a mob is told when the rulebook's own reasons (a support
through a subway, civil disorder after the Don's death) refuse or take its orders, in the
answers to its mails and in the results."""

from __future__ import annotations

import re

import pytest

from mobadj.web.pages import Site

from .conftest import Table
from .helpers import mail


@pytest.fixture
def mob(judge):
    return Table(judge, "mobtown2", picture="none")


def say(judge, t, seat, text, **headers):
    return judge.handle_mail(mail(t.emails[seat], t.signon(seat) + text, **headers))


def set_position(judge, position: dict) -> None:
    """Play on from ``position`` (the board a test needs, reached by earlier weeks)."""
    with judge.store.transaction():
        game = judge.store.game("g1")
        game.state["position"] = position
        judge.store.update_game("g1", state=game.state, phase=position["phase"])


def results(out, t, seat):
    return next(m for m in out if m.to == t.emails[seat] and "results" in m.subject).body


def orders_of(body: str, mob: str) -> list[str]:
    """The lines of ``mob``'s orders in a results mail."""
    block = body.split(f"\n{mob}:\n")[1].split("\n\n")[0]
    return block.splitlines()


def test_a_support_through_a_subway_is_listed_once(judge, mob):
    """Ruling 12 refuses the support; the results list the Gang by its order only, as the
    standard map lists an impossible order, not again as a hold with no order given."""
    set_position(judge, {"phase": "1919-07-W3-M",
                         "units": {"murderinc": ["G MaE", "G 42nd", "D MaE"],
                                   "capone": ["G Cas", "G DAN", "D DAN"]}})
    say(judge, mob, "capone", "G(Cas) H\nready")
    out = say(judge, mob, "murderinc", "G(42nd)-Cas\nG(MaE) S G(42nd)-Cas\nready")
    lines = orders_of(results(out, mob, "murderinc"), "Murder Incorporated")
    mae = [line for line in lines if line.strip().startswith("G MaE")]
    assert len(mae) == 1, lines
    assert re.search(r"G MaE S G 42nd - Cas\s+invalid: a Gang cannot support through a "
                     r"subway \(ruling 12\)", mae[0])


DISORDER = {"phase": "1919-08-W2-M",
            "units": {"luciano": ["G 5th", "G Mad", "G Mic"], "capone": ["G DAS", "D DAS"]},
            "centers": {"luciano": ["5th", "WCP", "Wch"], "capone": ["DAN", "DAS", "Bnx"]},
            "disorder": ["luciano"]}


def test_a_mob_in_civil_disorder_is_told_why_its_orders_are_not_taken(judge, mob):
    """Rule 3, ruling 13: the answer says civil disorder, lists the orders not used and
    what comes next; the results say why each Gang held."""
    set_position(judge, DISORDER)
    reply = say(judge, mob, "luciano", "G(Mic)-Pel\nG(Mad) H\n\nLucy")[0].body
    assert "No orders are needed" not in reply
    assert ("Lucky Luciano stands in civil disorder this week (Week 2, August 1919: movement): "
            "its Don died, so all its units hold and no orders are taken from it (rule 3, "
            "ruling 13).") in " ".join(reply.split())
    assert "These orders are not used:\n  G Mic - Pel\n  G Mad H\n" in reply
    assert "may rebuild him at the first weekend adjustments after this week" in reply
    out = say(judge, mob, "capone", "G(DAS) H\nready")
    lines = orders_of(results(out, mob, "luciano"), "Lucky Luciano")
    assert len(lines) == 3, lines
    for line in lines:
        assert re.search(r"G \w+ H\s+holds in civil disorder after the Don's death "
                         r"\(rule 3\)$", line), line
    page = Site(judge.store, "Test Judge").game_html("g1", "1919-08-W2-M")
    held = re.findall(r'<li class="succeeds"><span class="order">G \w+ H</span>(.*?)</li>',
                      page)
    assert held and all("holds in civil disorder" in h for h in held[-3:])
    assert not any("no order given" in h for h in held[-3:])
    assert re.search(r"<td>Lucky Luciano</td><td>none: he died; civil disorder this week "
                     r"\(rule 3, ruling 13\)</td>", page)


def test_the_gaol_on_a_page_is_the_one_at_the_start_of_its_phase(judge, mob):
    """A weekend that sends a Gang to gaol (rule 7) says so in its news; the table beside
    it, drawn from the position the phase started with, says that it is that one."""
    set_position(judge, {"phase": "1919-07-W3-R",
                         "units": {"diamond": ["G Bur", "D Bur"], "capone": ["G Can"]},
                         "dislodged": {"diamond": [{"unit": "G Can", "from": "Tam",
                                                    "via": "ground"}]}})
    say(judge, mob, "diamond", "G(Can) Disband")  # refused: rule 7
    out = judge.handle_mail(mail("gm@test.org", "GM g1 gm-secret\nPROCESS"))
    assert "goes to gaol in MTPD" in results(out, mob, "diamond")
    site = Site(judge.store, "Test Judge")
    page = site.game_html("g1", "1919-07-W3-R")
    assert "goes to gaol in MTPD" in page
    assert "In gaol (MTPD) at the start of the phase: nobody." in page
    assert "In gaol (MTPD) at the start of the phase: Legs Diamond 1 Gang." in site.game_html(
        "g1")


def test_a_mob_in_civil_disorder_answering_the_results_is_not_told_it_was_late(judge, mob):
    """The Don gets the cement overcoat in week 1; the mob answers the week's results with
    orders for week 2, its civil-disorder week: it is told that, not that its orders came
    too late for the week just played."""
    set_position(judge, {"phase": "1919-08-W1-M",
                         "units": {"capone": ["G Can", "G DAN", "D DAN"],
                                   "luciano": ["G 5th", "G Mad", "D Can captive"]},
                         "centers": {"luciano": ["5th", "WCP", "Wch"],
                                     "capone": ["DAN", "DAS", "Bnx"]}})
    say(judge, mob, "luciano", "G(Mad) H\nready")
    out = say(judge, mob, "capone", "G(Can)-Tam\nD(Can) cement overcoat\nready")
    res = results(out, mob, "luciano")
    assert "Lucky Luciano stands in civil disorder next week" in res
    assert judge.store.game("g1").phase == "1919-08-W2-M"
    reply = say(judge, mob, "luciano", "Boys, hold tight.\n\nG(Mad) H\nG(5th) H\n\nLucy",
                subject="Re: g1: 1919-08-W1-M results")[0].body
    assert "late" not in reply and "adjudicated" not in reply, reply
    assert "No orders are needed" not in reply
    assert "Lucky Luciano stands in civil disorder this week (Week 2, August 1919" in reply


def test_a_player_who_signs_with_a_province_name_gets_no_error(judge, mob):
    """"Dan" under the orders is Dan signing, not Dope Avenue North (DAN): set aside as a
    sign-off, so the orders are taken whole and READY is set; a lone word that is an order
    still counts."""
    set_position(judge, {"phase": "1919-07-W2-R",
                         "units": {"diamond": ["G Bur", "D Bur"], "babyface": ["G Mic"]},
                         "dislodged": {"diamond": [{"unit": "G Mic", "from": "Mem",
                                                    "via": "ground"}]}})
    reply = say(judge, mob, "diamond", "G(Mic)-Can\n\nDan\n")[0].body
    assert "Errors" not in reply and "Dan" not in reply, reply
    assert "as the judge reads them:\n  G Mic - Can\n" in reply
    reply = say(judge, mob, "diamond", "G(Mic)\nG(Mic)-Can\n")[0].body  # a Gang alone:
    assert ("line 2, column 7: the order stops too early after 'G(Mic)': expected '-' and "
            "where it retreats, or Disband: G(Lex)-Col") in reply  # what a retreat takes
    assert "S (support)" not in reply and "June 1919" not in reply
    out = say(judge, mob, "diamond", "G(Mic)-Can\nready\nDan\n")
    assert "Errors" not in out[0].body and "READY was not set" not in out[0].body, out[0].body
    assert "G Mic - Can" in results(out, mob, "diamond")  # READY: the weekend is played

    set_position(judge, {"phase": "1919-07-W2-A",
                         "units": {"capone": ["G DAS", "D DAS"]},
                         "centers": {"capone": ["DAN", "DAS", "Bnx"]}})
    reply = say(judge, mob, "capone", "Build G DAN\n\nWaive\n")[0].body
    assert "as the judge reads them:\n  Build G DAN\n  Waive\n" in reply, reply


def test_a_sign_off_with_the_mobs_nickname_is_set_aside_and_ready_is_set(judge, mob):
    """"thanks - Lucky" under the orders is Luciano's player signing with his mob's nickname,
    set aside without a word as "thanks - Charlie" is (docs/player-guide.md): the orders are
    taken whole and READY is set."""
    reply = say(judge, mob, "luciano", "Don starts in WCP\n\nthanks - Lucky\n")[0].body
    assert "Errors" not in reply and "thanks" not in reply, reply
    assert "as the judge reads them:\n  D WCP\n" in reply
    reply = say(judge, mob, "lepke", "D Que\nready\n\nthanks - Lepke\n")[0].body
    assert "Errors" not in reply and "READY was not set" not in reply, reply
    assert judge.store.player("g1", "lepke").ready
    reply = say(judge, mob, "capone", "D DAN\n\nCheers, Al\n")[0].body
    assert "Errors" not in reply, reply
    reply = say(judge, mob, "murderinc", "D MaE\nG(MaE) - Lucky\n")[0].body  # an order
    assert "line 3" in reply, reply


def test_a_slip_in_don_starts_in_points_at_the_word_not_at_a_place(judge, mob):
    """The place is right and the slip is in "starts": the did-you-mean is the placement,
    not Straten (Str), a space off the mob's home centres."""
    reply = say(judge, mob, "lepke", "Don strats in P45")[0].body
    assert ("line 2, column 5: unknown word 'strats'; did you mean 'Don starts in P45'?"
            in reply), reply
    assert "Straten" not in reply
    reply = say(judge, mob, "lepke", "Don starts in P45")[0].body
    assert "as the judge reads them:\n  D P45\n" in reply and "Errors" not in reply


def test_a_don_rebuilt_at_full_supply_warns_of_the_removal_still_due(judge, mob):
    """Ruling 9: the rebuilt Don costs a Gang.  Sent alone, the build is answered with the
    removal still due and the Gang the rules would take; the results say the rules removed
    it because none was ordered, not "civil disorder" (in Mobtown, the week after a Don's
    death)."""
    set_position(judge, {"phase": "1919-09-W2-A",
                         "units": {"capone": ["G DAN", "G DAS", "G Lop"],
                                   "lepke": ["G Pie", "D Lop captive"]},
                         "centers": {"capone": ["DAN", "DAS", "Bnx"], "lepke": ["Pie"]}})
    reply = say(judge, mob, "capone", "Build D Dope Avenue North")[0].body
    warned = re.search(r"1 removal still due: unless you order it \(Remove and the unit\), "
                       r"the rules remove (G \w+)", reply)
    assert warned, reply
    out = say(judge, mob, "capone", "Build D DAN\nready")
    body = results(out, mob, "capone")
    assert "civil disorder" not in body, body
    assert re.search(rf"Remove {warned[1]}\s+removed by the rules: no removal ordered", body)
    assert (f"Al Capone: built D DAN; {warned[1]} removed by the rules (no removal ordered)"
            in body)


def test_a_misspelt_mob_at_sign_on_is_named_without_a_contradiction(judge, mob):
    """Mob names are public: the refusal says the mob is the fault, with the did-you-mean,
    not also that the judge does not say what is wrong."""
    body = judge.handle_mail(mail(mob.emails["luciano"],
                                  "SIGNON g1 Lucky Lucianno pw-luciano\nG(Mad) H"))[0].body
    # the misspelt word is shown (the player must fix it), the password is not
    assert body.startswith("Sign-on refused: no power 'Lucky Lucianno'; did you mean Lucky "
                           "Luciano?\n"), body
    assert "does not say which" not in body and "pw-luciano" not in body
    assert "goes last" not in body  # the password was last: nothing to move
    # a word after the password: that word reads as the password, the real one is masked
    body = judge.handle_mail(mail(mob.emails["luciano"],
                                  "SIGNON g1 Lucky Luciano pw-luciano please\nG(Mad) H"))[0].body
    assert "no power 'Lucky Luciano ***'" in body and "pw-luciano" not in body
    assert "Your password goes last on the SIGNON line" in body
    # a password that looks like a slip of a name word, past the words of the name
    body = judge.handle_mail(mail(mob.emails["luciano"],
                                  "SIGNON g1 Lucky Luciano Lucianos please\nG(Mad) H"))[0].body
    assert "no power 'Lucky Luciano ***'" in body and "Lucianos" not in body


def test_mails_name_the_mobs_not_their_ids(judge):
    """The welcome, the results' "No orders from" and "No orders are needed from" name each
    mob as the game does (Al Capone, Murder Incorporated), not by its id (capone,
    murderinc)."""
    judge.create_game("m2", "mobtown2", "gm@test.org", "gm-pw", {"open": "yes"}, seed=5)
    welcome = {}
    for mob in ("capone", "babyface", "diamond", "lepke", "luciano", "murderinc"):
        asked = judge.handle_mail(mail(f"{mob}@test.org", f"JOIN m2 {mob}"))[0].body
        out = judge.handle_mail(mail(f"{mob}@test.org",
                                     re.search(r"CONFIRM [0-9a-f]{16}", asked).group(0)))
        welcome.update({m.to: m for m in out if ": you play " in m.subject})
    al = welcome["capone@test.org"]
    assert al.subject == "m2: you play Al Capone"
    assert "You play Al Capone (capone)." in al.body
    assert welcome["lepke@test.org"].subject == "m2: you play Lepke"
    assert "You play Lepke.\n" in welcome["lepke@test.org"].body
    out = judge.handle_mail(mail("gm@test.org", "GM m2 gm-pw\nPROCESS"))
    body = next(m for m in out if m.to == "capone@test.org" and "results" in m.subject).body
    assert ("No orders from \"Baby Face\" Nelson, Al Capone, Legs Diamond, Lepke, Lucky "
            "Luciano, Murder Incorporated: the GM adjudicated") in body
    pw = re.search(r"Your password: (\S+)", welcome["murderinc@test.org"].body).group(1)
    reply = judge.handle_mail(mail("murderinc@test.org", f"SIGNON m2 murderinc {pw}\n"
                                   "G(MaE)-Cas\n"))[0].body  # a retreat weekend, if any
    assert "murderinc" not in reply.replace("SIGNON m2 murderinc", "")


def test_a_gang_sent_to_gaol_with_no_valid_retreat_ordered_says_so(judge, mob):
    """Rule 7, ruling 16: the Gang had retreats; none valid was ordered."""
    set_position(judge, {"phase": "1919-07-W3-R",
                         "units": {"diamond": ["G Bur", "D Bur"], "capone": ["G Can"]},
                         "dislodged": {"diamond": [{"unit": "G Can", "from": "Tam",
                                                    "via": "ground"}]}})
    out = judge.handle_mail(mail("gm@test.org", "GM g1 gm-secret\nPROCESS"))
    assert re.search(r"G Can R MTPD\s+no valid retreat ordered: sent to gaol in MTPD "
                     r"\(rule 7\)", results(out, mob, "diamond"))


def test_status_names_the_mobs_in_civil_disorder_and_with_a_dislodged_gang(judge, mob):
    """STATUS reads the board in the game's words: a dislodged Gang's mob and a mob in civil
    disorder are named (Legs Diamond, Lucky Luciano), not given by their ids."""
    set_position(judge, {"phase": "1919-07-W3-R",
                         "units": {"diamond": ["G Bur", "D Bur"], "capone": ["G Can"],
                                   "luciano": ["G 5th"]},
                         "dislodged": {"diamond": [{"unit": "G Can", "from": "Tam",
                                                    "via": "ground"}]},
                         "disorder": ["luciano"]})
    body = say(judge, mob, "capone", "STATUS")[0].body
    assert "Dislodged: Legs Diamond G Can may retreat to " in body
    assert "In civil disorder: Lucky Luciano" in body
    assert "diamond G Can" not in body and "disorder: luciano" not in body


def test_a_don_placed_twice_in_one_mail_stands_where_the_later_line_says(judge, mob):
    """Rule 6 and docs/orders.md: the last of two orders for one piece counts.  A player
    who corrects his Don's start lower in the mail is told the first line is replaced, and
    the Don starts where the correction puts him."""
    reply = say(judge, mob, "capone", "D DAN\nD Bnx\n")[0].body
    assert "'D DAN' is replaced by the later order 'D Bnx'" in reply, reply
    assert "already placed" not in reply
    for seat in mob.emails:
        if seat != "capone":
            say(judge, mob, seat, "ready")
    out = say(judge, mob, "capone", "ready")
    body = results(out, mob, "capone")
    assert re.search(r"D Bnx\s+succeeds", body), body
    assert "D Bnx" in judge.store.game("g1").state["position"]["units"]["capone"]


def test_a_mob_whose_player_misses_deadlines_or_leaves_is_not_said_in_civil_disorder(
        judge, clock):
    """Rule 3 keeps "civil disorder" for the week after a Don's death: a mob whose player
    missed deadlines is "left unplayed" in the results, STATUS (the judge no longer waits
    for it), the game's page and the welcome back (which names the mob); so is a mob whose
    player resigned, in the table's notice."""
    t = Table(judge, "mobtown2", picture="none", extend_first_nmr_hours=0,
              disorder_after_nmr=1)
    for seat, don in (("capone", "D DAN"), ("babyface", "D Pla"), ("diamond", "D Bur"),
                      ("lepke", "D Que"), ("murderinc", "D MaE")):
        say(judge, t, seat, don)
    clock.advance(hours=49)
    out = judge.tick()
    body = results(out, t, "capone")
    assert "Lucky Luciano has missed 1 deadlines in a row and is now left unplayed." in body
    assert "civil disorder" not in body
    gm = next(m for m in out if m.to == "gm@test.org" and "results" not in m.subject)
    assert gm.subject == "g1: left unplayed" and "civil disorder" not in gm.body
    status = say(judge, t, "capone", "STATUS")[0].body
    assert re.search(r"Lucky Luciano +not waited for, left unplayed\n", status), status
    page = Site(judge.store, "Test Judge").game_html("g1")
    assert "not waited for (left unplayed)" in page and "civil disorder" not in page
    reply = say(judge, t, "luciano", "G(5th) H\n\nLucky")[0].body
    assert "Lucky Luciano is no longer left unplayed. Welcome back." in reply, reply
    out = say(judge, t, "lepke", "RESIGN")
    notice = next(m for m in out if m.to == t.emails["capone"]).body
    assert ("Lepke is left unplayed (its units hold; the rules' defaults apply) until a new "
            "player takes it over") in " ".join(notice.split()), notice


def test_a_captured_dons_hold_on_the_page_is_marked_as_the_mail_marks_it(judge, mob):
    """A Don given no order stays (ruling 4); captured, his hold fails, and the page says
    why as the mail does, without "no order needed" beside the failure."""
    set_position(judge, {"phase": "1919-07-W3-M",
                         "units": {"luciano": ["G WCP", "D WCP"],
                                   "babyface": ["G Pla", "G MTU", "D Pla"]}})
    say(judge, mob, "luciano", "G(WCP) H")
    say(judge, mob, "babyface", "G(Pla)-WCP\nG(MTU) S G(Pla)-WCP")
    out = judge.handle_mail(mail("gm@test.org", "GM g1 gm-secret\nPROCESS"))
    assert re.search(r"D WCP H\s+fails: the Don was captured by another mob's Gang \(rule 3\)\n",
                     results(out, mob, "luciano"))
    page = Site(judge.store, "Test Judge").game_html("g1", "1919-07-W3-M")
    line = next(li for li in page.split("<li") if "D WCP H" in li)
    assert "the Don was captured by another mob&#39;s Gang (rule 3)" in line, line
    assert "no order" not in line, line
    held = next(li for li in page.split("<li") if "D Pla H" in li)  # a Don who stayed
    assert "no order needed: a Don moves only with a Gang" in held, held


def centre_rows(page: str) -> list[tuple[str, str]]:
    """The rows of a page's supply-centre table: (the phase's label, the counts)."""
    table = page.split('<table class="centres">')[1].split("</table>")[0]
    return [(label, " ".join(re.findall(r"\d+", counts))) for label, counts in re.findall(
        r'<th scope="row"><a href="[^"]+">([^<]+)</a></th>((?:<td class="num">\d+</td>)+)',
        table)]


def test_the_centre_table_has_a_row_where_centres_change_owner(judge, mob):
    """Rule 6: centres change owner at the end of weeks 2 and 4.  The game's supply-centre
    table has a row for the first phase after the change (Week 2 adjustments), none for
    a week that changed nothing, and the same rows on every page."""
    set_position(judge, {"phase": "1919-07-W1-M",
                         "units": {"capone": ["G Col", "G DAS", "D DAS"],
                                   "luciano": ["G 5th", "D 5th"]},
                         "centers": {"capone": ["Bnx", "DAN", "DAS"],
                                     "luciano": ["5th", "WCP", "Wch"]}})
    for _ in range(4):  # weeks 1 and 2, the adjustments, week 3
        judge.handle_mail(mail("gm@test.org", "GM g1 gm-secret\nPROCESS"))
    assert judge.store.game("g1").phase == "1919-07-W4-M"
    site = Site(judge.store, "Test Judge")
    rows = centre_rows(site.game_html("g1"))
    assert rows == [("Week 1 July 1919", "3 0 0 0 3 0"),
                    ("Week 2 adjustments July 1919", "4 0 0 0 3 0"),
                    ("Week 4 July 1919", "4 0 0 0 3 0")], rows
    for phase in ("1919-07-W1-M", "1919-07-W2-A", "1919-07-W3-M"):
        assert centre_rows(site.game_html("g1", phase)) == rows, phase


def test_results_subjects_and_the_gms_answers_name_the_weeks_in_words(judge, mob):
    """A player files the results by their subject: Mobtown's phases are named there, in the
    heading, the GM's PROCESS answer and SUMMARY in the rulebook's words, the code (which
    PROCESS and ROLLBACK take) in brackets."""
    out = judge.handle_mail(mail("gm@test.org", "GM g1 gm-secret\nPROCESS"))
    start = "Weekend at the end of June 1919: Don placement (1919-06-START)"
    got = next(m for m in out if m.to == mob.emails["lepke"] and "results" in m.subject)
    assert got.subject == f"g1: {start} results", got.subject
    assert f"\nResults of g1, {start}\n" in got.body
    gm = next(m for m in out if m.to == "gm@test.org" and "resolved" in m.body).body
    assert (f"{start} resolved. Next phase: Week 1, July 1919: movement (1919-07-W1-M)"
            in gm), gm
    say(judge, mob, "lepke", "RESIGN")
    body = judge.handle_mail(mail("gm@test.org", "GM g1 gm-secret\nSUMMARY"))[0].body
    assert f"1 phase(s) played, from {start} to {start}." in body, body
    assert "the start - Week 1, July 1919: movement (1919-07-W1-M)" in body
