"""The engine protocol's grammar (wts.protocol.lines): every line either side
sends is parsed into one typed value and written back the same; anything else
is refused with EngineProtocolError."""

from __future__ import annotations

import pytest

import wts
from wts.engine.events import Capture, Hatch
from wts.engine.pieces import Color, Status
from wts.protocol import lines
from wts.protocol.errors import EngineProtocolError
from wts.protocol.lines import Info, Limit, Option

E5, C3, F5, G5, H5 = (wts.parse_square(name) for name in ("E5", "C3", "F5", "G5", "H5"))


def test_go_lines_carry_every_limit_and_read_back() -> None:
    limit = Limit(movetime=0.25, black_clock=60.0, white_clock=59.5, black_inc=1.0,
                  white_inc=0.5, playouts=1000, infinite=True)
    line = lines.format_go("white", limit)
    assert line == ("go white movetime 250 btime 60000 wtime 59500 binc 1000 winc 500 "
                    "playouts 1000 infinite")
    assert lines.parse_client_line(line) == lines.GoCommand("white", limit)
    assert limit.clock("black") == (60.0, 1.0)


def test_info_lines_round_trip_and_keep_free_text() -> None:
    info = Info(playouts=32000, time=0.125, value=0.75, nodes=900, pv=((E5, C3), (F5, F5)),
                string="thinking hard: 2 rows")
    line = lines.format_info(info)
    assert line == ("info playouts 32000 nodes 900 time 125 value 0.7500 pv E5:C3 F5:F5 "
                    "string thinking hard: 2 rows")
    assert lines.parse_engine_line(line) == info


def test_options_round_trip_and_check_their_values() -> None:
    spin = Option("seed", "spin", "0", 0, 100)
    combo = Option("style", "combo", "calm", choices=("calm", "wild"))
    for option in (spin, combo, Option("ponder", "check", "false"), Option("clear", "button")):
        assert lines.parse_engine_line(lines.format_option(option)) == \
            lines.OptionLine(option)
    assert spin.check(7) == "7" and spin.check("100") == "100"
    assert combo.check("wild") == "wild"
    for option, value in ((spin, 101), (spin, "x"), (combo, "mad"), (Option("b", "button"), 1)):
        with pytest.raises(EngineProtocolError):
            option.check(value)


def test_rules_answers_round_trip_with_every_event() -> None:
    captures = (Capture(Color.BLACK, 0, (F5, G5), E5, H5),)
    hatched = (Hatch(C3, Color.BLACK, 1),)
    line = lines.format_rules_result("9/9/9/9/4x2x1/9/2x6/9/o8 - 1", Status.ONGOING, (0, 0),
                                        None, captures, (), hatched)
    assert line == ("rules result 9/9/9/9/4x2x1/9/2x6/9/o8 - 1 ongoing 0 0 "
                    "capture black 0 F5 G5 E5 H5 hatch C3 black 1")
    parsed = lines.parse_engine_line(line)
    assert parsed == lines.RulesResult("9/9/9/9/4x2x1/9/2x6/9/o8 - 1", Status.ONGOING,
                                          (0, 0), None, captures, (), hatched)
    assert lines.parse_engine_line("rules status sudden_death 5 5") == \
        lines.RulesStatus(Status.SUDDEN_DEATH, (5, 5))
    assert lines.parse_engine_line("rules illegal over") == lines.RulesIllegal("over")


def test_client_commands_parse() -> None:
    assert lines.parse_client_line("wtsp 1") == lines.HelloCommand(1)
    assert lines.parse_client_line("position 9/9/9/9/9/9/9/9/9 - 0 moves E5 C3 F5 F5") == \
        lines.PositionCommand("9/9/9/9/9/9/9/9/9 - 0", ((E5, C3), (F5, F5)))
    assert lines.parse_client_line("setoption name seed value 12") == \
        lines.SetOptionCommand("seed", "12")
    assert lines.parse_client_line("rules play 9/9/9/9/9/9/9/9/9 - 0 E5 e5") == \
        lines.RulesPlayCommand("9/9/9/9/9/9/9/9/9 - 0", E5, E5)
    assert lines.parse_client_line("  isready\t") == lines.SimpleCommand("isready")


@pytest.mark.parametrize("line", [
    "", "bestmove E5", "move J1", "move E5 C3", "move", "info value 1.5", "info depth 3",
    "info pv E5", "option name x type slider", "option name x type spin default 1",
    "rules result 9/9/9 - 0 ongoing 0 0", "rules result 9/9/9/9/9/9/9/9/9 - 1 won 0 0",
    "rules result 9/9/9/9/9/9/9/9/9 - 1 ongoing 0 0 capture black 0 E5",
    "rules illegal grey", "protocol one", "x" * (lines.MAX_LINE + 1),
])
def test_malformed_engine_lines_are_refused(line: str) -> None:
    with pytest.raises(EngineProtocolError, match="malformed line"):
        lines.parse_engine_line(line)


@pytest.mark.parametrize("line", [
    "hello", "go purple", "go black movetime soon", "go black depth 3",
    "position 9/9/9 - 0", "position 9/9/9/9/9/9/9/9/9 - 0 moves E5",
    "position 9/9/9/9/9/9/9/9/9 - 0 moves E5 J1", "setoption seed 1", "isready now",
    "rules play 9/9/9/9/9/9/9/9/9 - 0 E5", "rules hatch", "wtsp",
])
def test_malformed_client_lines_are_refused(line: str) -> None:
    with pytest.raises(EngineProtocolError, match="malformed line"):
        lines.parse_client_line(line)


@pytest.mark.parametrize("module", ["lines", "client", "player", "rules"])
def test_the_modules_examples_run(module: str) -> None:
    import doctest
    import importlib
    import threading

    before = set(threading.enumerate())
    assert doctest.testmod(importlib.import_module(f"wts.protocol.{module}")).failed == 0
    # the examples close what they start: no engine's reader thread is left
    left = [t for t in threading.enumerate() if t not in before and t.name.startswith("wts-")]
    assert not left, left


# Characters that str.split() and str.upper() treat as blanks or as ASCII
# letters, which the protocol does not: no-break space, U+2003, U+3000,
# vertical tab, form feed, U+001F, and the dotless i.
NOT_BLANKS = ["\u00a0", "\u2003", "\u3000", "\x0b", "\x0c", "\x1f"]


@pytest.mark.parametrize("line", [
    *(f"move{blank}E5" for blank in NOT_BLANKS),
    *(f"move E5{blank}" for blank in NOT_BLANKS),
    *(f"{blank}readyok" for blank in NOT_BLANKS),
    "move \u01315", "move E\u0665", "move \uff255", "info pv E5:\u01315",
    "info value 1e-1", "info value nan", "info value 0_5", "info value \u0660.5",
    "info nodes \u0665", "option name x type spin min --1 max 3",
    "option name x type spin min 0 max " + "9" * 5000,
    "rules result 9/9/9/9/9/9/9/9/9 - \u0661 ongoing 0 0",
])
def test_only_spaces_and_tabs_separate_and_only_ascii_names_a_square(line: str) -> None:
    with pytest.raises(EngineProtocolError, match="malformed line"):
        lines.parse_engine_line(line)


@pytest.mark.parametrize("line", [
    "go black movetime \u0665", "position 9/9/9/9/9/9/9/9/9\u00a0- 0",
    "rules play 9/9/9/9/9/9/9/9/9 - 0 E5 \u01315", "isready\u3000", "stop\x0b",
])
def test_a_client_line_is_held_to_the_same_grammar(line: str) -> None:
    with pytest.raises(EngineProtocolError, match="malformed line"):
        lines.parse_client_line(line)


def test_spaces_and_tabs_are_the_blanks_and_free_text_keeps_the_rest() -> None:
    assert lines.parse_engine_line(" \tmove\t e5 \t") == lines.Move(E5)
    assert lines.parse_engine_line("id name\tthe\u00a0bot  2 ") == \
        lines.Id("name", "the\u00a0bot  2")
    assert lines.parse_engine_line("info value .5\tstring  a\u3000b ") == \
        Info(value=0.5, string="a\u3000b")
    assert lines.parse_client_line("setoption\tname x\tvalue  a b ") == \
        lines.SetOptionCommand("x", "a b")


def test_the_line_limit_is_one_limit_in_bytes() -> None:
    # U+3000 is 3 bytes of UTF-8: a line short in characters may be long in bytes
    head = "info string "
    fits = head + "a" * (lines.MAX_LINE - len(head))
    assert lines.line_bytes(fits) == lines.MAX_LINE
    assert [lines.line_bytes(text) for text in ("E5", "\u00a0", "\u3000", "\U0001f422")] == \
        [2, 2, 3, 4]
    assert lines.parse_engine_line(fits) == Info(string="a" * (lines.MAX_LINE - len(head)))
    wide = head + "\u3000" * ((lines.MAX_LINE - len(head)) // 3)
    assert lines.parse_engine_line(wide).string is not None
    for line in (fits + "a", wide + "\u3000", "move E5" + "\u3000" * 30_000):
        assert len(line) <= lines.MAX_LINE + 1
        with pytest.raises(EngineProtocolError, match=f"longer than {lines.MAX_LINE} bytes"):
            lines.parse_engine_line(line)
        with pytest.raises(EngineProtocolError, match=f"longer than {lines.MAX_LINE} bytes"):
            lines.parse_client_line(line)
