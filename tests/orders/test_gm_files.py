"""Order files as GMs really get them (docs/orders.md, "Files as GMs get them"): every
encoding, every way of naming a power, sections that never leak, the last order for a unit,
mail-shaped text, and the other judges' and keyboards' notation."""

from __future__ import annotations

import codecs
import subprocess
import sys
from pathlib import Path

import pytest

from mobadj.mobtown.notation import parse_mobtown_orders
from mobadj.orders.errors import OrderError
from mobadj.orders.files import power_heading, read_order_files
from mobadj.orders.mailtext import clean_lines, mail_lines, strip_quotes_and_signature
from mobadj.orders.parser import (
    MAX_ERRORS_PER_LINE,
    MAX_LINE,
    OrderParser,
    parse_order,
    parse_orders,
    parser_for,
)
from mobadj.orders.spelling import PrefixNames, normalise
from mobadj.orders.textfile import decode_text, read_text_file

TEXT = "Germany:\nA München - Ruh\n"


# -- encodings -------------------------------------------------------------------------------
@pytest.mark.parametrize(("data", "notice"), [
    (TEXT.encode("utf-8"), None),
    (codecs.BOM_UTF8 + TEXT.encode("utf-8"), None),
    (TEXT.encode("utf-16"), "read as UTF-16 (byte-order mark)"),  # with its BOM
    (codecs.BOM_UTF16_BE + TEXT.encode("utf-16-be"), "read as UTF-16 (byte-order mark)"),
    (TEXT.encode("utf-32"), "read as UTF-32 (byte-order mark)"),
    (TEXT.encode("cp1252"), "not UTF-8 (byte 13); read as Windows-1252 (cp1252)"),  # 1-based
    (TEXT.encode("latin-1") + b"\x81", "read as Latin-1 (ISO 8859-1)"),  # not cp1252 either
    (TEXT.encode("utf-16-le"), "read as UTF-16 LE (no byte-order mark; every other byte is 0)"),
    (TEXT.encode("utf-16-be"), "read as UTF-16 BE (no byte-order mark; every other byte is 0)"),
], ids=["utf-8", "utf-8-bom", "utf-16-le", "utf-16-be", "utf-32", "cp1252", "latin-1",
        "utf-16-le-no-bom", "utf-16-be-no-bom"])
def test_every_encoding_reads_the_same_orders(std, tmp_path, data, notice) -> None:
    path = tmp_path / "orders.txt"
    path.write_bytes(data)
    text, said = read_text_file(path)
    assert text.rstrip("\x81") == TEXT
    if notice is None:
        assert said is None
    else:
        assert said.startswith("orders.txt: ") and said.endswith(notice)
    result = parse_orders(text, std)
    assert [(p.power, str(p.order)) for p in result.orders] == [("GERMANY", "A MUN - RUH")]


def test_a_byte_order_mark_left_in_the_text_does_not_hide_the_first_header(std) -> None:
    result = parse_orders("\ufeffRussia:\nA MOS - UKR", std)
    assert result.ok and result.orders[0].power == "RUSSIA"


def test_bad_bytes_after_a_bom_are_shown_not_fatal() -> None:
    text, notice = decode_text(codecs.BOM_UTF8 + b"A PAR H\n\xff\n", "x.txt")
    assert text.startswith("A PAR H") and "\ufffd" in text and "not valid UTF-8" in notice


# -- power sections --------------------------------------------------------------------------
@pytest.mark.parametrize("header", [
    "France:", "FRANCE:", "france", "FRANCE", "France (Ann):", "France (Ann)", "  Fr:", "Fr",
    "FRA", "France -", "France.",
])
def test_every_header_form_starts_the_section(std, header) -> None:
    result = parse_orders(f"England:\nF LON - NTH\n{header}\nA PAR - BUR\nA MAR H", std)
    assert result.errors == [], result.errors
    assert [p.power for p in result.orders] == ["ENGLAND", "FRANCE", "FRANCE"]


@pytest.mark.parametrize("line", ["France (Ann): A PAR - BUR", "En: F LON - NTH",
                                  "Ge A MUN H", "Russia:A MOS H"])
def test_a_header_with_orders_on_the_same_line(std, line) -> None:
    result = parse_orders(line, std)
    assert result.ok and result.orders[0].power is not None


@pytest.mark.parametrize(("abbreviation", "power"), [
    ("Au", "AUSTRIA"), ("En", "ENGLAND"), ("Fr", "FRANCE"), ("Ge", "GERMANY"), ("It", "ITALY"),
    ("Ru", "RUSSIA"), ("Tu", "TURKEY"), ("ENG", "ENGLAND"), ("E", "ENGLAND")])
def test_usual_abbreviations_name_the_powers(std, abbreviation, power) -> None:
    result = parse_orders(f"{abbreviation}:\nA PAR H", std)
    assert result.ok and result.orders[0].power == power


def test_an_unreadable_line_ends_the_section(std) -> None:
    """France's orders are not England's because a header was not understood."""
    text = "England:\nF LON - NTH\nFrance's orders\nA PAR - BUR\nA MAR S A PAR - BUR\n"
    result = parse_orders(text, std)
    assert [(p.power, str(p.order)) for p in result.orders] == [
        ("ENGLAND", "F LON - NTH"), (None, "A PAR - BUR"), (None, "A MAR S A PAR - BUR")]
    [error] = result.errors
    assert error.line == 3 and "England's section ends here" in str(error)
    assert "each unit's owner" in str(error)


def test_a_bad_order_line_ends_the_section_too(std) -> None:
    result = parse_orders("England:\nF LON - NTHH\nF EDI - NWG", std)
    assert [p.power for p in result.orders] == [None]
    assert "England's section ends here" in str(result.errors[0])


def test_a_section_ending_falls_back_to_the_sender(std) -> None:
    """For a mail the default power is the sender's: an unreadable line returns to it."""
    result = parse_orders("France:\nA PAR H\nblah blah\nA MAR H", std, power="ENGLAND")
    assert [p.power for p in result.orders] == ["FRANCE", "ENGLAND"]
    assert str(result.errors[0]).endswith("(France's section ends here)")


def test_a_misspelt_header_is_read_with_a_warning(std) -> None:
    for header in ("Germnay:", "Germnay", "GERMNAY"):
        result = parse_orders(f"{header}\nA MUN H", std)
        assert result.ok and result.orders[0].power == "GERMANY"
        assert [str(w) for w in result.warnings] == [
            f"line 1, column 1: unknown power '{header.rstrip(':')}', read as Germany"]


def test_an_unknown_power_section_is_ignored_not_given_away(std) -> None:
    result = parse_orders("England:\nF LON H\nZork:\nA PAR H\nFrance:\nA MAR H", std)
    assert [(p.power, str(p.order)) for p in result.orders] == [
        ("ENGLAND", "F LON H"), ("FRANCE", "A MAR H")]
    assert "ignored: this order is in the section of the unknown power 'Zork'" in str(
        result.errors[1])


# -- last order wins -------------------------------------------------------------------------
def test_the_last_order_for_a_unit_counts(std) -> None:
    text = "France:\nA PAR - BUR\nA MAR H\nA PAR - PIC\nF BRE H; BRE - MAO\nBuild A PAR\n" \
           "Build A PAR"
    result = parse_orders(text, std).last_order_wins()
    assert [str(p.order) for p in result.orders] == [
        "A MAR H", "A PAR - PIC", "BRE - MAO", "Build A PAR", "Build A PAR"]
    assert [str(w) for w in result.warnings] == [
        "line 2, column 1: 'A PAR - BUR' is replaced by the later order 'A PAR - PIC' "
        "(line 4): the last order for a unit counts",
        "line 5, column 1: 'F BRE H' is replaced by the later order 'BRE - MAO' (line 5): "
        "the last order for a unit counts"]


def test_orders_of_two_powers_both_stand_and_a_unit_type_is_corrected(std) -> None:
    """A province holds one unit: ``F BRE H`` then ``A BRE H`` of one power are two orders
    for it, whatever the type; another power's order for BRE is not replaced."""
    text = "England: F BRE - ENG\nFrance:\nF BRE H\nA BRE H\n"
    result = parse_orders(text, std).last_order_wins()
    assert [str(p.order) for p in result.orders] == ["F BRE - ENG", "A BRE H"]
    assert [str(w) for w in result.warnings] == [
        "line 3, column 1: 'F BRE H' is replaced by the later order 'A BRE H' (line 4): "
        "the last order for a unit counts"]


def test_last_order_wins_across_files(std, tmp_path) -> None:
    first, second = tmp_path / "monday.txt", tmp_path / "tuesday.txt"
    first.write_text("France:\nA PAR - BUR\nA MAR H\n")
    second.write_text("France:\nA PAR - PIC\n")
    files = read_order_files([first, second], std)
    assert [str(p.order) for p in files.orders] == ["A MAR H", "A PAR - PIC"]
    assert files.warnings == [
        "monday.txt: line 2, column 1: 'A PAR - BUR' is replaced by the later order "
        "'A PAR - PIC' (line 2 of tuesday.txt): the last order for a unit counts"]
    kept = read_order_files([first, second], std, duplicates="first")
    assert len(kept.orders) == 3 and kept.warnings == []
    with pytest.raises(ValueError, match="duplicate_orders must be last or first"):
        read_order_files([first], std, duplicates="middle")


# -- mail-shaped text ------------------------------------------------------------------------
MAIL = """Hi GM,

France:
A PAR - BUR
> A PAR - PIC
|> F BRE - MAO
A MAR S A PAR - BUR

Cheers,
Ann
Sent from my iPhone

On Mon, 1 Jan 1901, Bob <bob@example.org> wrote:
> England: F LON - NTH
"""


def test_the_mail_reader_keeps_only_what_the_writer_wrote() -> None:
    assert strip_quotes_and_signature(MAIL) == "\nFrance:\nA PAR - BUR\nA MAR S A PAR - BUR"
    lines = mail_lines(MAIL).split("\n")
    assert len(lines) == len(MAIL.split("\n"))  # line numbers kept for error messages
    assert lines[3] == "A PAR - BUR" and lines[4] == "" and lines[8] == "" and lines[9] == ""


@pytest.mark.parametrize(("tail", "kept"), [
    ("-- \nAnn Smith\nParis", 1), ("__\nsig", 1), ("Thanks\nAnn", 1), ("Best regards,\nAnn\n"
     "Rue de Rivoli 1\nParis", 1), ("Get Outlook for Android", 1), ("Thanks!\nA MAR H", 2),
    ("-----Original Message-----\nA MAR H", 1), ("Am Montag schrieb Bob:\nA MAR H", 1),
])
def test_signatures_and_sign_offs(tail, kept) -> None:
    body = strip_quotes_and_signature(f"A PAR H\n{tail}")
    assert len([line for line in body.split("\n") if " " in line and "H" in line]) == kept


@pytest.mark.parametrize("below", [
    "On Sun, 17 Jan 2027 at 08:00, Judge <judge@x.org> wrote:\n> A MAR H\n> A BUR H\n> go",
    "From: Judge\nSent: Sunday\nSubject: results\n\nA MAR H\nA BUR H",
    "-- \nAnna Smith\nDiplomacy Club\nParis",
])
def test_a_sign_off_without_a_comma_above_a_reply_is_one(below) -> None:
    """"Thanks!" and a name end the mail even with the mail replied to (or a signature)
    below them: those lines are not name lines."""
    assert strip_quotes_and_signature(f"A PAR H\n\nThanks!\nAnna\n\n{below}") == "A PAR H"


PASTED = """England:
Hi GM,
F Lon - Nth
A Liverpool moves to Yorkshire

Cheers,
Ann
--
Ann Smith, Diplomacy Club of London
Sent from my iPhone

France
Hello,
Here are my orders:
A PAR-BUR
A mar h
Thanks
Bob

Germany:
A Mun - Ruhr.
Best regards,
Gerd
Get Outlook for Android
Russia (Dmitri):
F St. Petersburg(sc) - Gulf of Bothnia
> A War - Gal
A War S A Mos-Ukr
"""


def test_mails_pasted_one_after_another_each_keep_their_orders(std, tmp_path) -> None:
    """A GM pastes each player's mail under its power's heading: one player's sign-off
    or signature ends that mail only, and the next one is read as a mail of its own (its
    greeting and first remark set aside); every line dropped is named in a note."""
    path = tmp_path / "spring.txt"
    path.write_text(PASTED, encoding="utf-8")
    files = read_order_files([path], std)
    assert [(p.power, str(p.order)) for p in files.orders] == [
        # (a line not read as an order ends the section it is in, remark or not: France's
        # orders then go to each unit's owner, France)
        ("ENGLAND", "F LON - NTH"), ("ENGLAND", "A LVP - YOR"), (None, "A PAR - BUR"),
        (None, "A MAR H"), ("GERMANY", "A MUN - RUH"), ("RUSSIA", "F STP/SC - BOT"),
        ("RUSSIA", "A WAR S A MOS - UKR")]
    assert files.errors == [] and files.warnings == []
    assert files.notices == [
        "spring.txt: line 2 set aside as a greeting: Hi GM,",
        "spring.txt: lines 6-10 set aside as a sign-off and what follows it: Cheers,",
        "spring.txt: line 13 set aside as a greeting: Hello,",
        "spring.txt: line 14 set aside as a remark, not an order: Here are my orders:",
        "spring.txt: lines 17-18 set aside as a sign-off and what follows it: Thanks",
        "spring.txt: lines 22-24 set aside as a sign-off and what follows it: Best regards,",
        "spring.txt: line 27 set aside as quoted text: > A War - Gal"]


@pytest.mark.parametrize(("text", "powers"), [
    ("England:\nF LON H\nThanks\nFrance\nA PAR H\n", ["ENGLAND", "FRANCE"]),
    ("England:\nF LON H\nCheers,\nFrance:\nA PAR H\n", ["ENGLAND", "FRANCE"]),
    ("England:\nF LON H\nCheers,\nAnn\n\nFrance\nA PAR H\n", ["ENGLAND", "FRANCE"]),
    # the name under a sign-off that spells a power, then a blank line or a signature
    ("England:\nF LON H\nCheers,\nEngland\n\nFrance\nA PAR H\n", ["ENGLAND", "FRANCE"]),
    ("France:\nA PAR H\nRegards,\nFrance\n--\nSent from my iPhone\nA MAR H\n",
     ["FRANCE"]),
])
def test_a_sign_off_ends_its_own_mail_only(std, tmp_path, text, powers) -> None:
    path = tmp_path / "o.txt"
    path.write_text(text)
    files = read_order_files([path], std)
    assert [p.power for p in files.orders] == powers and files.errors == []


def test_one_mail_is_still_one_mail_for_the_judge() -> None:
    """Without a heading test (the judge reads one player's mail) the first sign-off ends
    everything, as before: what follows it is the mail program's, not the player's."""
    kept = [line for line in clean_lines(PASTED) if line]
    assert kept == ["England:", "Hi GM,", "F Lon - Nth", "A Liverpool moves to Yorkshire"]


def test_a_quoted_original_is_never_read_past_a_heading(std, tmp_path) -> None:
    """Outlook quotes the GM's results mail with its power headings under the reply: none
    of it is read, and the note says a heading was passed over."""
    path = tmp_path / "reply.txt"
    path.write_text("England:\nF LON - NTH\n\nFrom: The GM\nSent: Monday, 1 June\n"
                    "Subject: Spring 1901\n\nFrance:\n  A PAR - BUR   fails\n")
    files = read_order_files([path], std)
    assert [str(p.order) for p in files.orders] == ["F LON - NTH"] and files.errors == []
    assert files.notices == [
        "reply.txt: lines 4-9 set aside as the quoted original of a reply or a forwarded "
        "mail: From: The GM (it holds the heading 'France:' at line 8, not read as one: give "
        "each mail that quotes another a file of its own)"]


SAVED_MAILS = [
    # Thunderbird's "Save as", or headers copied from "show original"
    ("From: Bob <bob@example.com>\nTo: gm@example.com\nSubject: orders\n\n"
     "France:\nA Par - Bur\nA Mar S A Par - Bur\n", "lines 1-3", "From: Bob <bob@example.com>"),
    # an mbox entry, with a folded header field
    ("From bob@example.com Sat Nov 28 10:04:00 2026\nReturn-Path: <bob@example.com>\n"
     "Subject: my orders\n for spring\n\nFrance:\nA Par - Bur\nA Mar S A Par - Bur\n",
     "lines 1-4", "From bob@example.com Sat Nov 28 10:04:00 2026"),
    # the sender alone
    ("From: bob@example.com\n\nFrance:\nA Par - Bur\nA Mar S A Par - Bur\n", "line 1",
     "From: bob@example.com"),
]


@pytest.mark.parametrize(("text", "where", "first"), SAVED_MAILS)
def test_a_mail_saved_with_its_header_is_read(std, tmp_path, text, where, first) -> None:
    """A header block that begins the file is the saved mail's own, not a quoted original:
    it is set aside (with a note) and the orders under it are read."""
    path = tmp_path / "bob.eml"
    path.write_text(text)
    files = read_order_files([path], std)
    assert [str(p.order) for p in files.orders] == ["A PAR - BUR", "A MAR S A PAR - BUR"]
    assert files.errors == files.warnings == []
    assert files.notices == [f"bob.eml: {where} set aside as the mail's own header: {first}"]


def test_a_file_with_no_order_read_says_so(std, tmp_path) -> None:
    """A file all of whose text is set aside (here, a forwarded mail) reads no order: a
    warning says so, beside the note that says why."""
    path = tmp_path / "fwd.txt"
    path.write_text("-----Original Message-----\nFrom: Judge\nFrance:\nA Par - Bur\n")
    files = read_order_files([path], std)
    assert files.orders == [] and files.errors == []
    assert files.warnings == ["fwd.txt: no order was read from this file"]
    empty = tmp_path / "empty.txt"
    empty.write_text("\n")
    assert read_order_files([empty], std).warnings == [
        "empty.txt: no order was read from this file (it is empty)"]


@pytest.mark.parametrize("inside", ["\x0c", "\u2028", "\x85", "\x0b", "\u2029"])
def test_line_numbers_are_those_of_an_editor(std, tmp_path, inside) -> None:
    """A form feed or a Unicode line separator pasted inside a line is a space: it starts
    no line of its own, so errors name the line the writer sees."""
    path = tmp_path / "o.txt"
    path.write_text(f"France:\nA Par - Bur{inside}  # a note{inside}more\nA Mar - Burgandy\n",
                    encoding="utf-8")
    files = read_order_files([path], std)
    assert [str(p.order) for p in files.orders] == ["A PAR - BUR"]
    assert [e.split(",")[0] for e in files.errors] == ["o.txt: line 3"]
    assert files.notices == []


def test_a_remark_between_two_pasted_mails_is_set_aside(std, tmp_path) -> None:
    """A remark after the last order of one mail and before the first of the next is no
    error: each mail is read by the rule of remarks alone."""
    path = tmp_path / "o.txt"
    path.write_text("England:\nF LON - NTH\nthat's all from me this week\nFrance:\n"
                    "Orders for spring as promised\nA PAR - BUR\n")
    files = read_order_files([path], std)
    assert files.errors == [] and len(files.orders) == 2
    assert [n.split(" set aside")[0] for n in files.notices] == ["o.txt: line 3", "o.txt: line 5"]


@pytest.mark.parametrize("line", ["France", "France:", "FRANCE:", "  france :", "Fr:",
                                  "Russia (Dmitri):", "Germany."])
def test_what_a_heading_is(std, line) -> None:
    assert power_heading(std)(line)


@pytest.mark.parametrize("line", ["Baby Face Nelson", '"Baby Face" Nelson:', "Lepke",
                                  "Murder Inc.:"])
def test_a_mobtown_heading_is_a_mob(line) -> None:
    from mobadj.board.loader import load_map

    assert power_heading(load_map("mobtown2"))(line)


@pytest.mark.parametrize("line", ["France: A PAR H", "Vive la France", "Frnace:", "A PAR H",
                                  "Paris", "France's orders", ""])
def test_what_a_heading_is_not(std, line) -> None:
    assert not power_heading(std)(line)


def test_orders_written_as_a_list_are_read(std) -> None:
    """Numbered or bulleted, as a mail program writes a list: the mark is no part of the
    order, and an error still names the column of the line."""
    text = ("France:\n1. A PAR - BUR\n2) F BRE - MAO\n(3) A MAR H\n- A PAR - PIC\n"
            "* F BRE H\n\u2022 A MAR - SPA\n\u2013 A PAR H\n10. A MAR - Burgandy\n")
    result = parse_orders(text, std)
    assert [(p.power, str(p.order)) for p in result.orders] == [
        ("FRANCE", "A PAR - BUR"), ("FRANCE", "F BRE - MAO"), ("FRANCE", "A MAR H"),
        ("FRANCE", "A PAR - PIC"), ("FRANCE", "F BRE H"), ("FRANCE", "A MAR - SPA"),
        ("FRANCE", "A PAR H")]
    [error] = result.errors
    assert (error.line, error.column) == (9, len("10. A MAR - ") + 1)
    assert "unknown province 'Burgandy'" in str(error)


def test_a_mobtown_list_is_read_too() -> None:
    from mobadj.board.loader import load_map

    result = parse_mobtown_orders("1. Lepke G(Pie)-RoE\n2. Lepke G(Que)-Wes\n",
                                  load_map("mobtown2"))
    assert result.errors == [] and [p.power for p in result.orders] == ["lepke", "lepke"]


def test_the_judge_uses_the_same_reader() -> None:
    from mobadj.judge import mailparse

    assert mailparse.mail_lines is mail_lines


# -- notation --------------------------------------------------------------------------------
NOTATION = [
    ("A PAR -- BUR", "A PAR - BUR"), ("A PAR--BUR", "A PAR - BUR"),
    ("A PAR --> BUR", "A PAR - BUR"),
    ("A PAR \u2212 BUR", "A PAR - BUR"), ("A PAR \u2010 BUR", "A PAR - BUR"),
    ("A PAR\u2014BUR", "A PAR - BUR"), ("A PAR \u21d2 BUR", "A PAR - BUR"),
    ("A PAR \u27f6 BUR", "A PAR - BUR"), ("A PAR H.", "A PAR H"),
    ("F MAO - SPA/SC.", "F MAO - SPA/SC"), ("A PAR S A MAR - BUR.", "A PAR S A MAR - BUR"),
    ("A LON - NWY (via convoy)", "A LON - NWY via convoy"),
    ("A LON - NWY (VIA)", "A LON - NWY via convoy"), ("A PAR S A MAR (hold)", "A PAR S A MAR"),
    ("A PAR (hold)", "A PAR H"), ("F Gulf of Lyons - TYS", "F LYO - TYS"),
    ("F Helgoland - NTH", "F HEL - NTH"), ("F East Med - AEG", "F EAS - AEG"),
    ("F West Med H", "F WES H"), ("A München - Ruhr", "A MUN - RUH"),
    ("A Mosc - War", "A MOS - WAR"), ("A Bohem - Mun", "A BOH - MUN"),
    ("A Burg - Par", "A BUR - PAR"), ("A Yorks - Lon", "A YOR - LON"),
    ("F Mid Atl - Bre", "F MAO - BRE"), ("A PAR m BUR", "A PAR - BUR"),
    ("A PAR M BUR", "A PAR - BUR"), ("w", "Waive"), ("W", "Waive"), ("waive", "Waive"),
    ("b a par", "Build A PAR"), ("B F STP/NC", "Build F STP/NC"), ("r a par", "Remove A PAR"),
    ("R F BRE", "Remove F BRE"), ("d a par", "A PAR Disband"), ("D F ADR", "F ADR Disband"),
    # pasted from web pages and phones: full-width letters, invisible format characters
    ("\uff21 \uff30\uff21\uff32 - \uff22\uff35\uff32", "A PAR - BUR"),
    ("A PAR\u3000-\u3000BUR", "A PAR - BUR"), ("A PAR\ufeff - BUR", "A PAR - BUR"),
    ("\u202eA PAR - BUR\u202c", "A PAR - BUR"), ("A PAR \u200d- BUR\u00ad", "A PAR - BUR"),
]


@pytest.mark.parametrize(("text", "canonical"), NOTATION, ids=[n[0] for n in NOTATION])
def test_notation(std, text, canonical) -> None:
    for parser in (parser_for(std), OrderParser(std, fast=False)):
        assert str(parser.parse_order(text)) == canonical


@pytest.mark.parametrize("text", ["A Nort - BUR", "F Gulf - BUR", "A Sai - MOS"])
def test_a_prefix_must_be_unique_and_long_enough(std, text) -> None:
    """North Sea, North Africa or the North Atlantic?  "Sai" (Saint Petersburg) is too short."""
    with pytest.raises(OrderError, match="unknown province"):
        parse_order(text, std)


def test_prefixes_find_only_unique_beginnings(std) -> None:
    prefixes = PrefixNames(std)
    assert prefixes.find("Mosc") == "MOS" and prefixes.find("bohem") == "BOH"
    assert prefixes.find("Norw") is None  # Norway or the Norwegian Sea
    assert prefixes.find("Sai") is None and prefixes.find("Sain") == "STP"  # 4 letters at least


def test_a_header_pasted_with_invisible_or_wide_characters_starts_its_section(std) -> None:
    result = parse_orders("\u202eFrance\u202c: A PAR - BUR\n"
                          "\uff27\uff45\uff52\uff4d\uff41\uff4e\uff59\uff1a\nA MUN - RUH\n", std)
    assert result.errors == []
    assert [(p.power, str(p.order)) for p in result.orders] == [
        ("FRANCE", "A PAR - BUR"), ("GERMANY", "A MUN - RUH")]


def test_normalising_keeps_every_column() -> None:
    for text in ("A PAR \u2212 BUR", "A LON - NWY (via convoy)", "A PAR S A MAR ( hold )",
                 "\uff21 PAR\u200b - BUR", "A\u3000PAR\u202e - BUR"):
        assert len(normalise(text)) == len(text)
    assert normalise("F MAO - SPA/SC.") == "F MAO - SPA/SC"


MOBTOWN_NOTATION = [
    ("G(Tam)\u2212U\u2212Ext", "G Tam - U - Ext"), ("G Lex -- Col.", "G Lex - Col"),
    ("G(Lex)\u2013Col", "G Lex - Col"), ("G Lex m Col", "G Lex - Col"),
    ("G(PPU) S G(Mic) (hold)", "G PPU S G Mic"), ("b g lex", "Build G Lex"),
    ("r g lex", "Remove G Lex"), ("w", "Waive"), ("G Lexing - Colum", "G Lex - Col"),
    ("D Lex", "D Lex"),  # D is the Don here, not njudge's disband
]


@pytest.mark.parametrize(("text", "canonical"), MOBTOWN_NOTATION,
                         ids=[n[0] for n in MOBTOWN_NOTATION])
def test_mobtown_notation(text, canonical) -> None:
    from mobadj.board.loader import load_map

    result = parse_mobtown_orders(text, load_map("mobtown2"))
    assert result.ok and [str(p.order) for p in result.orders] == [canonical]


def test_subway_is_offered_only_where_there_are_subways(std, mini) -> None:
    standard = parse_orders("A PAR -- - BUR", std).errors[0]
    assert "U (subway)" not in str(standard) and standard.expected == ("a province",)
    from mobadj.mobtown.notation import mobtown_parser

    mobtown = parse_orders("G Lex - - Col", mini, parser=mobtown_parser(mini)).errors[0]
    assert "U (subway)" in str(mobtown)


# -- limits ----------------------------------------------------------------------------------
def test_a_line_too_long_is_an_error_not_a_wait(std) -> None:
    line = "A PAR - " + "BUR " * 400
    result = parse_orders(f"England:\nF LON H\n{line}\nA LVP H", std)
    [error] = result.errors
    assert error.line == 3 and f"too long: {len(line):,} characters (at most {MAX_LINE:,})" in \
        error.message
    with pytest.raises(OrderError, match="too long"):
        parse_order(line, std)


def test_a_line_of_many_bad_orders_stops_early(std) -> None:
    line = ", ".join(f"A X{i} H" for i in range(40))
    result = parse_orders(line, std)
    assert len(result.errors) == MAX_ERRORS_PER_LINE + 1
    assert "the rest of the line is not read" in result.errors[-1].message


def test_only_a_don_travels_with_a_unit(std, mini) -> None:
    """Found by the fuzz test: "F+A STP/NC - NWY" was read as a move with a Don, whose
    canonical text ("F+D ...") the standard map cannot read back."""
    from mobadj.mobtown.notation import parse_mobtown_order

    with pytest.raises(OrderError, match=r"unexpected '\+A': no piece travels with a unit"):
        parse_order("F+A STP/NC - NWY", std)
    with pytest.raises(OrderError, match=r"unexpected '\+G': only a Don travels with a unit"):
        parse_mobtown_order("G+G Lex - Col", mini)
    assert [str(o) for o in parse_mobtown_order("G+D Lex - Col", mini)] == ["G+D Lex - Col"]


@pytest.mark.parametrize(("text", "kept"), [
    # bottom-posted: the writer's own text comes below the quoted original
    ("On Mon, Bob <b@x.org> wrote:\n> England: F LON - NTH\n\nA PAR - BUR", "A PAR - BUR"),
    # a quoted line a mail program re-wrapped still belongs to the quote
    ("On Mon, Bob wrote:\n> England: F LON - NTH and a long\nline A MAR H\n\nA PAR H", "A PAR H"),
    # an original that is not quoted with '>' is dropped whole, as before
    ("A PAR H\nOn Mon, Bob wrote:\nEngland: F LON - NTH", "A PAR H"),
])
def test_what_is_written_below_a_quoted_original_is_the_writers(text, kept):
    assert strip_quotes_and_signature(text).strip() == kept


def test_many_quoted_originals_are_read_in_one_pass():
    """100,000 "On ... wrote:" lines, each over a quote: each looks ahead only to its next
    line with text (a look-ahead over the rest of the file made this hang)."""
    text = "On Mon, Bob wrote:\n> F LON - NTH\n\n" * 100_000 + "A PAR H"
    assert strip_quotes_and_signature(text).strip() == "A PAR H"


def test_a_greeting_under_a_powers_heading_is_named_in_a_note(tmp_path) -> None:
    """docs/orders.md: every run of dropped lines is named on standard error, a greeting
    under a power's heading too."""
    position = Path(__file__).resolve().parents[2] / "orders" / "standard" / "position-s1901.yaml"
    orders = tmp_path / "greet.txt"
    orders.write_text("England:\nHi GM,\nF LON - NTH\nthanks\n", encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "mobadj", "adjudicate", str(position),
                           str(orders)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.splitlines() == [
        "note: greet.txt: line 2 set aside as a greeting: Hi GM,",
        "note: greet.txt: line 4 set aside as a sign-off and what follows it: thanks"]
    assert "F LON - NTH                        fails: cannot dislodge own unit" in proc.stdout


def test_a_line_of_megabytes_is_refused_at_once(tmp_path) -> None:
    """docs/orders.md, "Lines that cannot take long": a line over 1,000 characters is not read,
    not even to see whether it is a remark or a sign-off, before anything is spelt out (a
    word of 200,000 letters took 11 seconds, one of 5,000,000 hours)."""
    position = Path(__file__).resolve().parents[2] / "orders" / "standard" / "position-s1901.yaml"
    orders = tmp_path / "long.txt"
    orders.write_text("England:\nF LON - NTH " + "x" * 5_000_000 + "\nF NTH - NWG\n"
                      + "Anna" + "a" * 5_000_000 + "\n", encoding="utf-8")
    # (the timeout only stops a run that would otherwise go on for hours)
    proc = subprocess.run([sys.executable, "-m", "mobadj", "adjudicate", str(position),
                           str(orders)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1, proc.stderr
    unread = proc.stdout.split("Orders that could not be read (ignored):\n")[1].split("\n\n")[0]
    assert unread.splitlines() == [
        "  long.txt: line 2, column 1001: too long: 5,000,012 characters (at most 1,000); not "
        "read (England's section ends here: the orders below go to each unit's owner)",
        "  long.txt: line 4, column 1001: too long: 5,000,004 characters (at most 1,000); not "
        "read"]
    assert "F NTH - NWG                        succeeds" in proc.stdout


def test_a_long_line_that_begins_like_a_heading_is_refused_at_once(tmp_path) -> None:
    """"Anna" and 200,000 spaces: no power's heading, no sign-off, answered at once (the
    test for a heading took time growing with the square of the line: 96 s for 20,000)."""
    position = Path(__file__).resolve().parents[2] / "orders" / "standard" / "position-s1901.yaml"
    orders = tmp_path / "pasted.txt"
    orders.write_text("England:\nF LON - NTH\nAnna" + " " * 200_000 + "x\nF NTH - NWG\n",
                      encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "mobadj", "adjudicate", str(position),
                           str(orders)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1, proc.stderr
    assert ("  pasted.txt: line 3, column 1001: too long: 200,005 characters (at most 1,000); "
            "not read (England's section ends here: the orders below go to each unit's owner)"
            ) in proc.stdout.splitlines()
    assert "F NTH - NWG                        succeeds" in proc.stdout
