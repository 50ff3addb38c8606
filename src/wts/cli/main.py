"""The ``wts`` command line: one module a command (``wts.cli.demo``,
``simulate``, ``bench``, ``fuzz``, ``play``, ``replay``, ``tournament``,
``ladder``, ``selfplay``, ``fit_prior``, ``engine``, ``engine_check``,
``serve``), each adding its subcommand with ``add_parser`` and naming the
function that runs it (``args.run``).

``main(argv)`` returns the exit status instead of raising ``SystemExit``:
0 on success, 1 when the fuzzer finds a mismatch, 2 on bad arguments (with
argparse's message, never a traceback), 3 when a fuzz run leaves a rule
branch unreached, 130 when Ctrl-C stopped the command (with one line,
``wts simulate: interrupted``, never a traceback), and 143 or 129 when SIGTERM
or SIGHUP did (``wts tournament: stopped by SIGTERM``): either is raised as
Ctrl-C is, so the same clean-up runs (threads and workers stopped, engine
programs' process groups killed).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

import wts
from wts._interrupts import report_interrupt, report_termination, termination_raised
from wts.cli import (
    bench,
    demo,
    engine,
    engine_check,
    fit_prior,
    fuzz,
    ladder,
    play,
    replay,
    selfplay,
    serve,
    simulate,
    tournament,
    train,
)
from wts.cli.arguments import one_line
from wts.errors import ParameterError, WtsError

__all__ = ["COMMANDS", "build_parser", "main"]

#: The command modules, in the order ``wts --help`` lists them.
COMMANDS = (demo, simulate, bench, fuzz, play, replay, tournament, ladder, selfplay, fit_prior,
            train, engine, engine_check, serve)


def build_parser() -> argparse.ArgumentParser:
    """The parser of ``wts`` and its subcommands."""
    parser = argparse.ArgumentParser(
        prog="wts", description="What the Shell: the engine's command line."
    )
    parser.add_argument("--version", action="version", version=f"wts {wts.__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for command in COMMANDS:
        # Each subcommand knows its parser, for the errors found after parsing.
        subparser = command.add_parser(commands)
        subparser.set_defaults(subparser=subparser)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    try:
        parser = build_parser()
        args, unknown = parser.parse_known_args(argv)
        if unknown:  # the command's own usage says what it takes, not the top level's
            args.subparser.error(f"unrecognized arguments: {' '.join(unknown)}")
    except SystemExit as exc:  # argparse printed the help or the error
        return exc.code if isinstance(exc.code, int) else 2
    except KeyboardInterrupt:  # before the command began
        return report_interrupt("wts")
    command = f"wts {args.command}"
    with termination_raised() as received:
        status = 1
        try:
            status = args.run(args)
        except KeyboardInterrupt:
            # Ctrl-C; or SIGTERM or SIGHUP, raised as Terminated, which a library
            # (Ray) may turn into a plain KeyboardInterrupt on the way
            if not received:
                return report_interrupt(command)
        except ParameterError as exc:  # a value the command's code refused: a bad argument
            args.subparser.print_usage(sys.stderr)
            print(f"{command}: error: {one_line(str(exc))}", file=sys.stderr)
            status = 2
        except (WtsError, ImportError) as exc:  # a run's directory, a missing extra, a lost worker
            print(f"{command}: {one_line(str(exc))}", file=sys.stderr)
        except BrokenPipeError:
            # The reader went away (``wts demo | head``): stop quietly.
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        if received:  # also when the command caught it itself (wts play saves its game)
            return report_termination(command, received[0])
        return status
