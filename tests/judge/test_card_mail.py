"""Card games by mail: the game's own commands take precedence over the judge's after SIGNON
(every word of every game's grammar against every judge command), the commitment in the
status and the final mail, games stored under the old unsalted scheme, PREVIEW's count."""

from __future__ import annotations

import hashlib
import json

import pytest

from mobadj.cards.record import OLD_SCHEME, seed_commitment, verify_record
from mobadj.cards.registry import GAMES
from mobadj.cards.terminal import Session
from mobadj.cards.words import command_words
from mobadj.judge import registry
from mobadj.judge.cardhost import PREVIEW_LIMIT
from mobadj.judge.commands import PRESS_WORDS, parse_body, parse_line

from .helpers import mail
from .test_cards import act, legal, setup_game

pytestmark = pytest.mark.pure_only  # card games: no code of the compiled build

# every way a line may start a judge command: keywords, aliases, two-word spellings
JUDGE_WORDS = sorted({*registry.keywords(), *registry.aliases(), "sign on", "sign off",
                      "log on", "add player", "not ready", "end press", "end game", "what if",
                      "roll back"})
SIGNON = "SIGNON cg P1 pw-p1"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_word_is_the_games_after_signon(game: str) -> None:
    words = command_words(game)
    assert words  # read from the grammar: a game with commands has some
    for word in sorted(words):
        for line in (word, f"{word} a3", f"{word.upper()} 1 2"):
            parsed = parse_body(f"{SIGNON}\n{line}", words)
            assert parsed.first("signon") is not None
            if word in PRESS_WORDS:  # documented: press blocks stay the judge's
                assert not parsed.order_lines and (parsed.press or parsed.errors)
            else:
                assert parsed.order_lines == [(2, line)], (game, line)
                assert not parsed.errors and len(parsed.commands) == 1


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_judge_command_stays_the_judges_unless_the_game_reads_it(game: str) -> None:
    words = command_words(game)
    for spelling in JUDGE_WORDS:
        first = spelling.split()[0]
        parsed = parse_body(f"{SIGNON}\n{spelling}", words)
        if first in words and first not in PRESS_WORDS:
            assert parsed.order_lines == [(2, spelling)], (game, spelling)
        else:
            assert not parsed.order_lines, (game, spelling)  # a command (or its error)
            assert parse_line(spelling) is not None


def test_the_collisions_are_the_known_ones() -> None:
    clash = {g: sorted(w for w in command_words(g) if w in {s.split()[0] for s in JUDGE_WORDS})
             for g in sorted(GAMES)}
    assert clash == {"irontriangle": ["offer", "press"], "miceheist": [], "microcity": ["start"],
                     "micromob": ["end"]}


def test_micro_city_opens_by_mail(judge) -> None:
    host = setup_game(judge, "microcity", 1)
    assert "start a3" in legal(judge, host, "P1")
    reply = act(judge, "P1", "start a3")[0].body
    assert "cannot read the START command" not in reply and "Errors" not in reply
    state = judge.store.game("cg").state
    assert state["actions"][0] == [0, "start a3"]
    bad = act(judge, "P1", "START z9")[0].body  # the game's error, not the judge's
    assert "line 2" in bad or "z9" in bad
    assert "cannot read the START command" not in bad


def test_micro_mob_end_is_the_games_not_a_signoff(judge) -> None:
    host = setup_game(judge, "micromob", 2)
    (seat,) = host.due(judge.store.game("cg").state)
    reply = act(judge, seat, "end\nHELP")[0].body
    assert "Errors" in reply and "take your action first" in reply.lower() or \
        "draft" in reply.lower()
    assert "micro mob by mail" in reply  # HELP after it was read: no sign-off


def test_iron_triangle_press_stays_a_press_block(judge) -> None:
    setup_game(judge, "irontriangle", 3, press="white")
    out = act(judge, "P1", "PRESS TO P2\nmeet me later\nENDPRESS")
    assert "Press delivered to P2" in out[0].body
    assert any(m.to == "p2@test.org" and "meet me later" in m.body for m in out)
    assert judge.store.game("cg").state["actions"] == []


def test_status_shows_the_commitment_and_the_final_mail_reveals_seed_and_salt(judge) -> None:
    host = setup_game(judge, "micromob", 2, seed=2**100 + 7, game_modules="1")
    state = judge.store.game("cg").state
    assert state["seed"] == 2**100 + 7 and len(state["salt"]) == 64
    commitment = seed_commitment("micromob", state["seed"], state["salt"])
    started = [m for m in judge.store.all_mail() if "has started" in m.subject]
    assert started and all(f"Seed commitment: {commitment}" in m.body for m in started)
    assert all(state["salt"] not in m.body and str(state["seed"]) not in m.body
               for m in judge.store.all_mail())
    out = []
    while not host.is_over(judge.store.game("cg").state):
        (seat,) = host.due(judge.store.game("cg").state)
        out = act(judge, seat, legal(judge, host, seat)[0])
    final = next(m for m in out if m.to == "p1@test.org" and "results" in m.subject)
    assert f"Seed: {state['seed']}" in final.body and f"Salt: {state['salt']}" in final.body
    assert "mobadj play verify record.json" in final.body
    assert final.body.count("Winner") == 1 and "Winner(s):" not in final.body
    record = json.loads(dict((n, d) for n, _, d in final.attachments)["record.json"])
    assert verify_record(record, commitment).ok


def test_a_game_stored_the_old_way_plays_on_and_is_named_the_old_scheme(judge) -> None:
    """A store built before salts: the state as the old host made it (seed below 2**31,
    sha256 commitment, no salt) goes on to its end and verifies under the old scheme."""
    host = setup_game(judge, "micromob", 2, game_modules="1")
    old = {"players": 2, "seed": 11, "options": {"modules": 1}, "actions": [],
           "commitment": hashlib.sha256(b"micromob:11").hexdigest()}
    judge.store.update_game("cg", state=old, phase=host.phase(old))
    status = act(judge, "P1", "LIST")[0].body
    assert "old scheme" in status and old["commitment"] in status
    out = []
    while not host.is_over(judge.store.game("cg").state):
        (seat,) = host.due(judge.store.game("cg").state)
        out = act(judge, seat, legal(judge, host, seat)[-1])
        assert "internal error" not in out[0].body
    final = next(m for m in out if m.to == "p2@test.org" and "results" in m.subject)
    assert "Seed: 11" in final.body and "old scheme" in final.body and "Salt:" not in final.body
    record = json.loads(dict((n, d) for n, _, d in final.attachments)["record.json"])
    assert record["commitment_scheme"] == OLD_SCHEME
    assert verify_record(record, old["commitment"]).ok


def test_preview_says_how_many_commands_it_does_not_list(judge) -> None:
    host = setup_game(judge, "micromob", 4)
    for _ in range(8):  # the draft, then the first turn: many legal takes
        (seat,) = host.due(judge.store.game("cg").state)
        act(judge, seat, legal(judge, host, seat)[0])
    (seat,) = host.due(judge.store.game("cg").state)
    commands = legal(judge, host, seat)
    reply = act(judge, seat, "PREVIEW")[0].body
    assert f"Your legal commands now ({len(commands)}):" in reply
    listed = [c for c in commands[:PREVIEW_LIMIT] if f"\n  {c}\n" in reply]
    assert len(listed) == min(PREVIEW_LIMIT, len(commands))
    if len(commands) > PREVIEW_LIMIT:
        assert f"... and {len(commands) - PREVIEW_LIMIT} more not listed: " in reply


def _record_of(mail_out) -> dict:
    return json.loads(dict((n, d) for n, _, d in mail_out.attachments)["record.json"])


def test_a_card_game_drawn_by_vote_reveals_seed_salt_and_record(judge) -> None:
    host = setup_game(judge, "irontriangle", 3)
    state = judge.store.game("cg").state
    (boss,) = host.due(state)
    job = legal(judge, host, boss)[0]
    act(judge, boss, job)
    for seat in ("P1", "P2"):
        out = act(judge, seat, "DRAW")
        assert all(state["salt"] not in m.body and not m.attachments for m in out)
    assert "Seed commitment:" in act(judge, "P1", "STATUS")[0].body  # still running: secret
    out = act(judge, "P3", "DRAW")
    ends = {m.to: m for m in out if "game over" in m.subject}
    assert set(ends) == {"p1@test.org", "p2@test.org", "p3@test.org", "gm@test.org"}
    for m in ends.values():
        assert "ends in a draw between P1, P2, P3" in m.body
        assert f"Seed: {state['seed']}" in m.body and f"Salt: {state['salt']}" in m.body
        record = _record_of(m)
        assert record["ended"].startswith("The game cg ends in a draw")
        assert record["actions"] == [[int(boss[1:]) - 1, job]]
        assert verify_record(record, state["commitment"]).ok
    status = act(judge, "P1", "STATUS")[0].body
    assert "status: ended" in status and "waiting for" not in status.lower()
    assert "Ended in: M1 (move 1, the last)" in status  # the job was played; move 2 never was
    assert "nothing due" not in status and "Your legal commands" not in status
    assert f"Salt: {state['salt']}" in status and "revealed when the game ends" not in status


def test_a_card_game_the_gm_ends_reveals_seed_salt_and_record(judge) -> None:
    setup_game(judge, "micromob", 2)
    state = judge.store.game("cg").state
    out = judge.handle_mail(mail("gm@test.org", "GM cg gm-pw\nENDGAME"))
    ends = [m for m in out if "game over" in m.subject]
    assert {m.to for m in ends} == {"p1@test.org", "p2@test.org", "gm@test.org"}
    assert all(f"Salt: {state['salt']}" in m.body and verify_record(
        _record_of(m), state["commitment"]).ok for m in ends)
    status = act(judge, "P2", "STATUS")[0].body
    assert "to act: nobody" in status and f"Seed: {state['seed']}" in status
    assert "Your legal commands" not in status


def _hand_card(judge, host, seat: str) -> str:
    view = host._game(judge.store.game("cg").state).view(int(seat[1:]) - 1)
    return str(view["you"]["hand"][0]["name"])


def test_help_in_a_card_game_is_the_games_and_says_what_is_due(judge) -> None:
    host = setup_game(judge, "irontriangle", 3)
    (boss,) = host.due(judge.store.game("cg").state)
    other = next(s for s in ("P1", "P2", "P3") if s != boss)
    reply = act(judge, boss, "HELP")[0].body
    assert "Iron Triangle in brief" in reply and "The game's commands start with: " in reply
    assert "Your legal commands now" in reply and f"\n  {legal(judge, host, boss)[0]}\n" in reply
    assert "PREVIEW                            your legal commands now" in reply
    for diplomacy in ("A PAR - BUR", "PHASE <phase>", "READY", "if everyone else held",
                      "GM commands", "centres by year"):
        assert diplomacy not in reply
    assert "Nothing is due from you now (waiting for " + boss in act(judge, other, "HELP")[0].body
    act(judge, boss, legal(judge, host, boss)[0])
    for seat in host.due(judge.store.game("cg").state):
        act(judge, seat, legal(judge, host, seat)[0])
    reply = act(judge, other, "HELP")[0].body  # the table talks: 'say' out of turn
    assert reply.count("say <anything>") == 1 and "In this game you may also send" not in reply


def test_help_with_a_word_explains_the_games_command_or_card(judge) -> None:
    host = setup_game(judge, "irontriangle", 3)
    (boss,) = host.due(judge.store.game("cg").state)
    act(judge, boss, legal(judge, host, boss)[0])
    seat = host.due(judge.store.game("cg").state)[0]
    reply = act(judge, seat, "help offer")[0].body  # the game's offer, not the GM's OFFER
    assert "'offer' is a command of Mobsters of the Iron Triangle; you may send now:" in reply
    assert "\n  offer " in reply and "TAKEOVER" not in reply and "Usage:" not in reply
    card = _hand_card(judge, host, seat)  # a name of several words, as the terminal's help
    game = host._game(judge.store.game("cg").state)
    reply = act(judge, seat, f"help {card}")[0].body
    assert game.explain(int(seat[1:]) - 1, card) in reply and "unknown command" not in reply
    assert "Usage: DRAW" in act(judge, seat, "help draw")[0].body  # the judge's, still
    assert "Usage: PRESS TO" in act(judge, seat, "help press")[0].body  # press is the judge's
    assert "not one you may send now" in act(judge, boss, "help offer")[0].body


def test_help_end_in_micro_mob_is_the_games_end(judge) -> None:
    host = setup_game(judge, "micromob", 2)
    (seat,) = host.due(judge.store.game("cg").state)
    reply = act(judge, seat, "help end")[0].body
    assert "'end' is a command of micro mob" in reply and "Usage: SIGNOFF" not in reply


def test_an_iron_triangle_the_gm_ended_shows_nobody_choosing(judge) -> None:
    """Ended by the GM while P2 and P3 were to make their offers: the table in the final
    mail's STATUS shows the result and the board as it stood, with nobody still
    "(choosing)" an offer."""
    host = setup_game(judge, "irontriangle", 3)
    (boss,) = host.due(judge.store.game("cg").state)
    act(judge, boss, legal(judge, host, boss)[0])
    assert "(choosing)" in act(judge, boss, "STATUS")[0].body  # while the game runs
    judge.handle_mail(mail("gm@test.org", "GM cg gm-pw\nENDGAME"))
    for seat in ("P1", "P2", "P3"):
        status = act(judge, seat, "STATUS")[0].body
        assert "Result: The game cg has ended (ended by the GM)." in status
        assert "Offer" in status and "(choosing)" not in status


def test_status_of_a_game_its_rules_ended_reveals_seed_salt_and_the_tie_break(judge) -> None:
    """Seed 100 of Iron Triangle, played by its bots to the end by mail, ends 22-22 and the
    Time track gives it to P1: STATUS afterwards says so and gives the seed and salt the
    final mail gave, no longer the commitment as if they were still to be revealed."""
    bots = Session.new("irontriangle", 3, 100, {0, 1, 2}, read=lambda _: "",
                       write=lambda _: None)
    actions = bots.run().actions  # the terminal's bots play seed 100 to its end
    host = setup_game(judge, "irontriangle", 3, seed=100)
    for player, move in actions:
        assert "Errors" not in act(judge, f"P{player + 1}", move)[0].body
    assert host.is_over(judge.store.game("cg").state)
    state = judge.store.game("cg").state
    gm = judge.handle_mail(mail("gm@test.org", "GM cg gm-pw\nSTATUS"))[0].body
    for status in (act(judge, "P1", "STATUS")[0].body, act(judge, "P3", "STATUS")[0].body, gm):
        assert f"Seed: {state['seed']}" in status and f"Salt: {state['salt']}" in status
        assert "revealed when the game ends" not in status
        assert ("Winner: P1: tied on 22 Notoriety with P3; the tie goes to the cube highest "
                "on the Time track.") in status
        assert status.count("Winner") == 1


def test_an_iron_triangle_move_out_of_turn_is_not_taken_with_the_rules_reason(judge) -> None:
    host = setup_game(judge, "irontriangle", 3, seed=100)
    (boss,) = host.due(judge.store.game("cg").state)
    gangsters = [s for s in ("P1", "P2", "P3") if s != boss]
    early = act(judge, gangsters[0], "offer 1")[0].body  # before the boss plays a Job
    assert (f"Not taken: line 2 (offer 1: you cannot offer now: {boss}, the Mob Boss, is "
            f"choosing a job): it is {boss}'s move, not {gangsters[0]}'s. Moves are not kept "
            f"for later: you will be mailed when {gangsters[0]} is to move") in early
    assert "it is not your turn" not in early and "Errors" not in early
    act(judge, boss, legal(judge, host, boss)[0])
    reply = act(judge, boss, "offer 1\npick P1")[0].body
    waiting = " and ".join(gangsters)
    assert (f"Not taken: line 2 (offer 1: the Mob Boss makes no offer: the Gangsters offer on "
            f"your job), line 3 (pick P1: you cannot pick an offer now: the Gangsters are "
            f"making their offers): it is {waiting}'s move, not {boss}'s.") in reply
    assert len(judge.store.game("cg").state["actions"]) == 1  # the Job alone
