"""The engine protocol's lines: the one definition of its grammar.

Every line either side may send is parsed here into a small typed value and
written back from one; the client (:mod:`.client`), the ``wts engine`` server
(:mod:`.server`), the rules adapter (:mod:`.rules`) and the conformance check
(:mod:`.check`) all go through these functions, so they cannot disagree on a
keyword. ``docs/protocol.md`` is the same grammar for people.

>>> parse_engine_line("move E5")
Move(square=40)
>>> format_go("black", Limit(movetime=0.5))
'go black movetime 500'
>>> parse_client_line("position 9/9/9/9/9/9/9/9/9 - 0")
PositionCommand(fen='9/9/9/9/9/9/9/9/9 - 0', moves=())
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from wts.engine.events import Capture, Hatch
from wts.engine.notation import parse_fen
from wts.engine.pieces import Color, Status
from wts.engine.squares import FILE_NAMES, RANK_NAMES, SQUARE_NAMES, Square
from wts.limits import MAX_LINE_BYTES
from wts.protocol.errors import EngineProtocolError

__all__ = [
    "PROTOCOL_NAME", "PROTOCOL_VERSION", "MAX_LINE", "OPTION_TYPES", "COLORS",
    "Limit", "Option", "Info", "Move", "Id", "Version", "OptionLine", "Feature", "Ready",
    "ReadyOk", "EngineErrorLine", "RulesStatus", "RulesResult", "RulesIllegal", "EngineLine",
    "HelloCommand", "SetOptionCommand", "NewGameCommand", "PositionCommand", "GoCommand",
    "SimpleCommand", "RulesStatusCommand", "RulesPlayCommand", "ClientLine",
    "parse_engine_line", "parse_client_line", "format_go", "format_position",
    "format_option", "format_info", "format_rules_result", "format_rules_status",
    "parse_square_token", "split_line", "line_bytes",
]

#: The word that opens the handshake, and the version this package speaks.
PROTOCOL_NAME = "wtsp"
PROTOCOL_VERSION = 1
#: The longest line either side must accept, in bytes of UTF-8 (without the
#: newline): :data:`wts.limits.MAX_LINE_BYTES`.
MAX_LINE = MAX_LINE_BYTES
#: Option types, as UCI has them.
OPTION_TYPES = ("check", "spin", "combo", "button", "string")
COLORS = ("black", "white")
_STATUSES = tuple(status.value for status in Status)
_INFO_WORDS = ("playouts", "time", "value", "nodes", "pv", "string")
#: The largest count a line may carry (playouts, milliseconds, nodes).
_MAX_COUNT = 2**63 - 1
# Only spaces and tabs separate tokens: str.split() would also split at a
# no-break space, U+3000, a vertical tab or U+001F, which the protocol does not.
_TOKEN = re.compile(r"[^ \t]+")
# A square's file, either case, tested before any case folding: str.upper()
# maps some letters outside ASCII (the dotless i) onto A-I.
_FILES = FILE_NAMES + FILE_NAMES.lower()
# A whole number of a spin option's range (a sign allowed), and an info value.
_WHOLE = re.compile(r"-?[0-9]{1,19}")
_DECIMAL = re.compile(r"[0-9]{1,20}(?:\.[0-9]{0,20})?|\.[0-9]{1,20}")


def split_line(line: str) -> list[str]:
    """The tokens of a line: runs of characters between spaces or tabs."""
    return _TOKEN.findall(line)


def _after(line: str, count: int) -> str:
    """The text of ``line`` after its first ``count`` tokens, without the blanks
    around it: the free text that ends a line (a name, a reason)."""
    end = 0
    for _, match in zip(range(count), _TOKEN.finditer(line)):
        end = match.end()
    return line[end:].strip(" \t")


def line_bytes(line: str) -> int:
    """The length of ``line`` in bytes of UTF-8, as the limit counts it."""
    return len(line) if line.isascii() else len(line.encode("utf-8", "surrogatepass"))


def _bad(line: str, why: str) -> EngineProtocolError:
    shown = line if len(line) <= 120 else line[:120] + "..."
    return EngineProtocolError(f"malformed line {shown!r}: {why}")


def parse_square_token(token: str) -> Square:
    """A square as the protocol writes it: an ASCII file letter and rank digit,
    ``E5`` (lower case is accepted); anything else raises EngineProtocolError."""
    if len(token) == 2 and token[0] in _FILES and token[1] in RANK_NAMES:
        return RANK_NAMES.index(token[1]) * 9 + FILE_NAMES.index(token[0].upper())
    raise EngineProtocolError(f"expected a square like E5, got {token!r}")


def _count(line: str, word: str, token: str | None) -> int:
    if token is None or not token.isascii() or not token.isdigit() or len(token) > 19:
        raise _bad(line, f"{word} takes a whole number, got {token!r}")
    value = int(token)
    if value > _MAX_COUNT:
        raise _bad(line, f"{word} is too large: {token}")
    return value


def _color(line: str, token: str | None) -> str:
    if token not in COLORS:
        raise _bad(line, f"expected black or white, got {token!r}")
    return token


# --- Limits ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Limit:
    """How long a search may take: the fields a ``go`` line carries.

    ``movetime``: seconds for this move. ``black_clock``/``white_clock``:
    each player's time left on a game clock, ``black_inc``/``white_inc`` the
    seconds added after each move. ``playouts``: a search budget. ``infinite``:
    search until ``stop``. With none given, the engine chooses.
    """

    movetime: float | None = None
    black_clock: float | None = None
    white_clock: float | None = None
    black_inc: float | None = None
    white_inc: float | None = None
    playouts: int | None = None
    infinite: bool = False

    def clock(self, color: str) -> tuple[float | None, float]:
        """``color``'s time left and increment (0 when none)."""
        if color == "black":
            return self.black_clock, self.black_inc or 0.0
        return self.white_clock, self.white_inc or 0.0


_LIMIT_WORDS = {"movetime": "movetime", "btime": "black_clock", "wtime": "white_clock",
                "binc": "black_inc", "winc": "white_inc"}


def _ms(seconds: float) -> str:
    return str(max(0, round(seconds * 1000)))


def format_go(color: str, limit: Limit) -> str:
    """The ``go`` line asking ``color``'s square under ``limit``."""
    words = ["go", _color("go", color)]
    for word, name in _LIMIT_WORDS.items():
        value = getattr(limit, name)
        if value is not None:
            if not math.isfinite(value) or value < 0:
                raise EngineProtocolError(f"{name} must be a finite number of seconds >= 0")
            words += [word, _ms(value)]
    if limit.playouts is not None:
        words += ["playouts", str(limit.playouts)]
    if limit.infinite:
        words.append("infinite")
    return " ".join(words)


# --- Engine to client --------------------------------------------------------------


@dataclass(frozen=True)
class Option:
    """An option the engine declares: its name, type, default, range and choices."""

    name: str
    type: str
    default: str | None = None
    min: int | None = None
    max: int | None = None
    choices: tuple[str, ...] = ()

    def check(self, value: object) -> str:
        """``value`` as the text a ``setoption`` carries, or EngineProtocolError if the
        option cannot take it."""
        if self.type == "button":
            if value is not None:
                raise EngineProtocolError(f"option {self.name} is a button: it takes no value")
            return ""
        if self.type == "check":
            if not isinstance(value, bool) and value not in ("true", "false"):
                raise EngineProtocolError(f"option {self.name} takes true or false, "
                                          f"not {value!r}")
            return str(value).lower()
        if self.type == "spin":
            number = value if type(value) is int else None
            if isinstance(value, str) and _WHOLE.fullmatch(value):
                number = int(value)
            if number is None or (self.min is not None and number < self.min) or (
                    self.max is not None and number > self.max):
                raise EngineProtocolError(f"option {self.name} takes a whole number from "
                                          f"{self.min} to {self.max}, not {value!r}")
            return str(number)
        text = str(value)
        if "\n" in text or "\r" in text:
            raise EngineProtocolError(f"option {self.name}: a value is one line")
        if self.type == "combo" and text not in self.choices:
            raise EngineProtocolError(f"option {self.name} takes one of "
                                      f"{', '.join(self.choices)}, not {value!r}")
        return text


def format_option(option: Option) -> str:
    """The ``option`` line declaring ``option``."""
    words = ["option", "name", option.name, "type", option.type]
    if option.default is not None:
        words += ["default", option.default]
    if option.min is not None:
        words += ["min", str(option.min)]
    if option.max is not None:
        words += ["max", str(option.max)]
    for choice in option.choices:
        words += ["var", choice]
    return " ".join(words)


@dataclass(frozen=True)
class Id:
    """``id name TEXT`` or ``id author TEXT``."""

    key: str
    value: str


@dataclass(frozen=True)
class Version:
    """``protocol N``: the version the engine speaks."""

    version: int


@dataclass(frozen=True)
class OptionLine:
    """An ``option`` line."""

    option: Option


@dataclass(frozen=True)
class Feature:
    """``feature NAME``: a part of the protocol the engine implements (``rules``)."""

    name: str


@dataclass(frozen=True)
class Ready:
    """``ready``: the end of the handshake."""


@dataclass(frozen=True)
class ReadyOk:
    """``readyok``: the answer to ``isready``."""


@dataclass(frozen=True)
class Info:
    """A progress line: what a search has done so far (every field optional)."""

    playouts: int | None = None
    time: float | None = None
    value: float | None = None
    nodes: int | None = None
    pv: tuple[tuple[Square, Square], ...] = ()
    string: str | None = None


def format_info(info: Info) -> str:
    """The ``info`` line of ``info``."""
    words = ["info"]
    if info.playouts is not None:
        words += ["playouts", str(info.playouts)]
    if info.nodes is not None:
        words += ["nodes", str(info.nodes)]
    if info.time is not None:
        words += ["time", _ms(info.time)]
    if info.value is not None:
        words += ["value", f"{info.value:.4f}"]
    if info.pv:
        words += ["pv", *(f"{SQUARE_NAMES[b]}:{SQUARE_NAMES[w]}" for b, w in info.pv)]
    if info.string is not None:
        words += ["string", info.string]
    return " ".join(words)


@dataclass(frozen=True)
class Move:
    """``move SQUARE``: the engine's answer to ``go``."""

    square: Square


@dataclass(frozen=True)
class EngineErrorLine:
    """``error TEXT``: the engine refused the last command, saying why."""

    text: str


@dataclass(frozen=True)
class RulesStatus:
    """``rules status STATUS BLACK WHITE``: a set-up position's status and winning counts."""

    status: Status
    counts: tuple[int, int]


@dataclass(frozen=True)
class RulesResult:
    """``rules result POSITION STATUS BLACK WHITE EVENT...``: a turn played."""

    fen: str
    status: Status
    counts: tuple[int, int]
    collision: Square | None = None
    captures: tuple[Capture, ...] = ()
    dissolved: tuple[Square, ...] = ()
    hatched: tuple[Hatch, ...] = ()


@dataclass(frozen=True)
class RulesIllegal:
    """``rules illegal black|white|over``: the turn was refused: that player's
    square is not empty, or the game was already decided."""

    who: str


EngineLine = (Id | Version | OptionLine | Feature | Ready | ReadyOk | Info | Move
              | EngineErrorLine | RulesStatus | RulesResult | RulesIllegal)


def _parse_option(line: str, tokens: list[str]) -> Option:
    if len(tokens) < 5 or tokens[1] != "name" or tokens[3] != "type":
        raise _bad(line, "expected option name NAME type TYPE ...")
    name, kind = tokens[2], tokens[4]
    if kind not in OPTION_TYPES:
        raise _bad(line, f"option type must be one of {', '.join(OPTION_TYPES)}")
    default: str | None = None
    low = high = None
    choices: list[str] = []
    i = 5
    while i < len(tokens):
        word = tokens[i]
        value = tokens[i + 1] if i + 1 < len(tokens) else None
        if word not in ("default", "min", "max", "var") or value is None:
            raise _bad(line, f"expected default, min, max or var and a value, got {word!r}")
        if word == "default":
            default = value
        elif word in ("min", "max"):
            if not _WHOLE.fullmatch(value):
                raise _bad(line, f"{word} takes a whole number of at most 19 digits, "
                                 f"got {value!r}")
            low, high = (int(value), high) if word == "min" else (low, int(value))
        else:
            choices.append(value)
        i += 2
    if kind == "spin" and (low is None or high is None or low > high):
        raise _bad(line, "a spin option needs min and max, min <= max")
    return Option(name, kind, default, low, high, tuple(choices))


def _parse_info(line: str, tokens: list[str]) -> Info:
    values: dict[str, object] = {}
    i = 1
    while i < len(tokens):
        word = tokens[i]
        if word not in _INFO_WORDS:
            raise _bad(line, f"unknown info field {word!r}")
        if word == "string":
            values["string"] = _after(line, i + 1)
            break
        if word == "pv":
            pv = []
            i += 1
            while i < len(tokens) and tokens[i] not in _INFO_WORDS:
                black, colon, white = tokens[i].partition(":")
                if not colon:
                    raise _bad(line, f"a pv entry is black:white, like E5:C3, got {tokens[i]!r}")
                try:
                    pv.append((parse_square_token(black), parse_square_token(white)))
                except EngineProtocolError as exc:
                    raise _bad(line, str(exc)) from None
                i += 1
            values["pv"] = tuple(pv)
            continue
        token = tokens[i + 1] if i + 1 < len(tokens) else None
        if word == "value":
            # float() would also take "1e-1", "nan", "0_5" and digits outside ASCII
            number = float(token) if token is not None and _DECIMAL.fullmatch(token) \
                else math.nan
            if not 0.0 <= number <= 1.0:
                raise _bad(line, f"value is a number from 0 to 1, got {token!r}")
            values["value"] = number
        elif word == "time":
            values["time"] = _count(line, word, token) / 1000
        else:
            values[word] = _count(line, word, token)
        i += 2
    return Info(**values)  # type: ignore[arg-type]


def _status_fields(line: str, tokens: list[str], at: int) -> tuple[Status, tuple[int, int]]:
    if len(tokens) < at + 3 or tokens[at] not in _STATUSES:
        raise _bad(line, f"expected a status ({', '.join(_STATUSES)}) and two winning counts")
    return Status(tokens[at]), (_count(line, "a winning count", tokens[at + 1]),
                                _count(line, "a winning count", tokens[at + 2]))


def _parse_events(line: str, tokens: list[str], result: RulesResult) -> RulesResult:
    collision: Square | None = None
    captures: list[Capture] = []
    dissolved: list[Square] = []
    hatched: list[Hatch] = []
    i = 0
    try:
        while i < len(tokens):
            word = tokens[i]
            if word == "collision" and i + 1 < len(tokens) and collision is None:
                collision = parse_square_token(tokens[i + 1])
                i += 2
            elif word == "capture" and i + 6 < len(tokens):
                color = Color(_color(line, tokens[i + 1]))
                round_ = _count(line, "a capture's round", tokens[i + 2])
                first, second, closer, anchor = (parse_square_token(t) for t in tokens[i + 3:i + 7])
                captures.append(Capture(color, round_, (first, second), closer, anchor))
                i += 7
            elif word == "dissolve" and i + 1 < len(tokens):
                dissolved.append(parse_square_token(tokens[i + 1]))
                i += 2
            elif word == "hatch" and i + 3 < len(tokens):
                square = parse_square_token(tokens[i + 1])
                color = Color(_color(line, tokens[i + 2]))
                hatched.append(Hatch(square, color, _count(line, "a hatch's wave", tokens[i + 3])))
                i += 4
            else:
                raise _bad(line, f"expected an event (collision, capture, dissolve, hatch) "
                                 f"with its fields at {word!r}")
    except EngineProtocolError as exc:
        if str(exc).startswith("malformed line"):
            raise
        raise _bad(line, str(exc)) from None
    return RulesResult(result.fen, result.status, result.counts, collision, tuple(captures),
                       tuple(dissolved), tuple(hatched))


def _parse_rules(line: str, tokens: list[str]) -> EngineLine:
    kind = tokens[1] if len(tokens) > 1 else None
    if kind == "status":
        status, counts = _status_fields(line, tokens, 2)
        if len(tokens) != 5:
            raise _bad(line, "expected rules status STATUS BLACK WHITE and nothing more")
        return RulesStatus(status, counts)
    if kind == "illegal":
        if len(tokens) != 3 or tokens[2] not in ("black", "white", "over"):
            raise _bad(line, "expected rules illegal black, white or over")
        return RulesIllegal(tokens[2])
    if kind == "result":
        if len(tokens) < 8:
            raise _bad(line, "expected rules result POSITION STATUS BLACK WHITE [EVENTS]")
        fen = " ".join(tokens[2:5])
        try:
            parse_fen(fen)
        except ValueError as exc:
            raise _bad(line, f"the position string is wrong: {exc}") from None
        status, counts = _status_fields(line, tokens, 5)
        return _parse_events(line, tokens[8:], RulesResult(fen, status, counts))
    raise _bad(line, "expected rules status, rules result or rules illegal")


def parse_engine_line(line: str) -> EngineLine:
    """One line from an engine as a typed value; EngineProtocolError if it is not
    one the protocol allows."""
    if len(line) > MAX_LINE or line_bytes(line) > MAX_LINE:
        raise _bad(line, f"longer than {MAX_LINE} bytes")
    tokens = split_line(line)
    if not tokens:
        raise _bad(line, "an empty line")
    word = tokens[0]
    if word == "move":
        if len(tokens) != 2:
            raise _bad(line, "expected move SQUARE")
        try:
            return Move(parse_square_token(tokens[1]))
        except EngineProtocolError as exc:
            raise _bad(line, str(exc)) from None
    if word == "info":
        return _parse_info(line, tokens)
    if word == "readyok" and len(tokens) == 1:
        return ReadyOk()
    if word == "ready" and len(tokens) == 1:
        return Ready()
    if word == "error":
        return EngineErrorLine(_after(line, 1) or "(no reason given)")
    if word == "id" and len(tokens) >= 3 and tokens[1] in ("name", "author"):
        return Id(tokens[1], _after(line, 2))
    if word == "protocol" and len(tokens) == 2:
        return Version(_count(line, "protocol", tokens[1]))
    if word == "option":
        return OptionLine(_parse_option(line, tokens))
    if word == "feature" and len(tokens) == 2:
        return Feature(tokens[1])
    if word == "rules":
        return _parse_rules(line, tokens)
    raise _bad(line, "not a line of the engine protocol")


def format_rules_status(status: Status, counts: tuple[int, int]) -> str:
    """The answer to ``rules status``."""
    return f"rules status {status.value} {counts[0]} {counts[1]}"


def format_rules_result(fen: str, status: Status, counts: tuple[int, int],
                        collision: Square | None, captures: tuple[Capture, ...],
                        dissolved: tuple[Square, ...], hatched: tuple[Hatch, ...]) -> str:
    """The answer to ``rules play``: the position after the turn, its status, and
    the turn's events, each kind in the order they happened."""
    words = ["rules", "result", fen, status.value, str(counts[0]), str(counts[1])]
    if collision is not None:
        words += ["collision", SQUARE_NAMES[collision]]
    for c in captures:
        words += ["capture", c.color.value, str(c.round), SQUARE_NAMES[c.squares[0]],
                  SQUARE_NAMES[c.squares[1]], SQUARE_NAMES[c.closer], SQUARE_NAMES[c.anchor]]
    for sq in dissolved:
        words += ["dissolve", SQUARE_NAMES[sq]]
    for h in hatched:
        words += ["hatch", SQUARE_NAMES[h.square], h.color.value, str(h.wave)]
    return " ".join(words)


# --- Client to engine --------------------------------------------------------------


@dataclass(frozen=True)
class HelloCommand:
    """``wtsp VERSION``: the handshake."""

    version: int


@dataclass(frozen=True)
class SetOptionCommand:
    """``setoption name NAME [value TEXT]``."""

    name: str
    value: str | None


@dataclass(frozen=True)
class NewGameCommand:
    """``newgame``: what follows is another game."""


@dataclass(frozen=True)
class PositionCommand:
    """``position POSITION [moves B W ...]``: the position now, and the turns played
    since the game started (oldest first), for an engine that follows the game."""

    fen: str
    moves: tuple[tuple[Square, Square], ...] = field(default=())


@dataclass(frozen=True)
class GoCommand:
    """``go COLOR [limits]``: name ``color``'s square."""

    color: str
    limit: Limit


@dataclass(frozen=True)
class SimpleCommand:
    """A command of one word: ``isready``, ``stop`` or ``quit``."""

    word: str


@dataclass(frozen=True)
class RulesStatusCommand:
    """``rules status POSITION``."""

    fen: str


@dataclass(frozen=True)
class RulesPlayCommand:
    """``rules play POSITION BLACK WHITE``."""

    fen: str
    black: Square
    white: Square


ClientLine = (HelloCommand | SetOptionCommand | NewGameCommand | PositionCommand | GoCommand
              | SimpleCommand | RulesStatusCommand | RulesPlayCommand)


def _fen(line: str, tokens: list[str]) -> str:
    if len(tokens) < 3 or not all(token.isascii() for token in tokens[:3]):
        raise _bad(line, "expected a position string (ASCII): board, eggs and turn")
    fen = " ".join(tokens[:3])
    try:
        parse_fen(fen)
    except ValueError as exc:
        raise _bad(line, f"the position string is wrong: {exc}") from None
    return fen


def format_position(fen: str, moves: tuple[tuple[Square, Square], ...] = ()) -> str:
    """The ``position`` line."""
    if not moves:
        return f"position {fen}"
    turns = " ".join(f"{SQUARE_NAMES[b]} {SQUARE_NAMES[w]}" for b, w in moves)
    return f"position {fen} moves {turns}"


def _parse_go(line: str, tokens: list[str]) -> GoCommand:
    color = _color(line, tokens[1] if len(tokens) > 1 else None)
    values: dict[str, object] = {}
    i = 2
    while i < len(tokens):
        word = tokens[i]
        if word == "infinite":
            values["infinite"] = True
            i += 1
            continue
        token = tokens[i + 1] if i + 1 < len(tokens) else None
        if word in _LIMIT_WORDS:
            values[_LIMIT_WORDS[word]] = _count(line, word, token) / 1000
        elif word == "playouts":
            values["playouts"] = _count(line, word, token)
        else:
            raise _bad(line, f"unknown go field {word!r}")
        i += 2
    return GoCommand(color, Limit(**values))  # type: ignore[arg-type]


def parse_client_line(line: str) -> ClientLine:
    """One line from a client as a typed command; EngineProtocolError (its message
    is what an engine answers after ``error``) if the protocol has no such line."""
    if len(line) > MAX_LINE or line_bytes(line) > MAX_LINE:
        raise _bad(line, f"longer than {MAX_LINE} bytes")
    tokens = split_line(line)
    if not tokens:
        raise _bad(line, "an empty line")
    word = tokens[0]
    if word == PROTOCOL_NAME:
        if len(tokens) != 2:
            raise _bad(line, f"expected {PROTOCOL_NAME} VERSION")
        return HelloCommand(_count(line, PROTOCOL_NAME, tokens[1]))
    if word in ("isready", "stop", "quit", "newgame"):
        if len(tokens) != 1:
            raise _bad(line, f"{word} takes nothing after it")
        return NewGameCommand() if word == "newgame" else SimpleCommand(word)
    if word == "setoption":
        if len(tokens) < 3 or tokens[1] != "name":
            raise _bad(line, "expected setoption name NAME [value TEXT]")
        if len(tokens) > 3 and tokens[3] != "value":
            raise _bad(line, "an option name is one word; its value follows 'value'")
        return SetOptionCommand(tokens[2], _after(line, 4) if len(tokens) > 3 else None)
    if word == "position":
        fen = _fen(line, tokens[1:4])
        moves: list[tuple[Square, Square]] = []
        if len(tokens) > 4:
            if tokens[4] != "moves" or len(tokens) % 2 == 0:
                raise _bad(line, "expected moves and pairs of squares after the position")
            try:
                squares = [parse_square_token(t) for t in tokens[5:]]
            except EngineProtocolError as exc:
                raise _bad(line, str(exc)) from None
            moves = list(zip(squares[::2], squares[1::2]))
        return PositionCommand(fen, tuple(moves))
    if word == "go":
        return _parse_go(line, tokens)
    if word == "rules":
        kind = tokens[1] if len(tokens) > 1 else None
        if kind == "status":
            if len(tokens) != 5:
                raise _bad(line, "expected rules status POSITION")
            return RulesStatusCommand(_fen(line, tokens[2:5]))
        if kind == "play":
            if len(tokens) != 7:
                raise _bad(line, "expected rules play POSITION BLACK WHITE")
            fen = _fen(line, tokens[2:5])
            try:
                return RulesPlayCommand(fen, parse_square_token(tokens[5]),
                                        parse_square_token(tokens[6]))
            except EngineProtocolError as exc:
                raise _bad(line, str(exc)) from None
        raise _bad(line, "expected rules status or rules play")
    raise _bad(line, f"unknown command {word!r}")
