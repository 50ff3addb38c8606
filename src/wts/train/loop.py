"""``wts train``: the expert-iteration loop that makes the network player.

A run is a folder. Generation 0 is a network trained on ``bootstrap``
self-play data (an MCTS run of ``wts selfplay``), or a fresh one without
it. Each later generation:

1. plays ``games`` self-play games with the best network so far
   (``az,playouts=P,noise=0.25,temperature=1``, through
   :func:`wts.scale.selfplay.selfplay`: its shards, its manifest, its
   backends), into ``gen-NNN/selfplay``;
2. trains the newest network further on the window of the last ``window``
   generations' games (visit distributions as policy targets, results as
   value targets, the 8 symmetries and the colour swap as augmentation),
   writing ``gen-NNN/network.wtsnet``, its optimiser state and losses;
3. gates it: an SPRT (``wts tournament --sprt`` underneath) of the new
   network against the best at the same playouts; the new one becomes the
   best only if the test accepts H1.

``train.json`` lists every finished step; each step's files are written
atomically before it is listed, so a run stopped anywhere (Ctrl-C, a
crash, a killed process) resumes where it stopped with the same command
and loses no finished generation. ``progress.svg`` plots the best
network's Elo and the training loss per generation.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from wts._seeds import derive
from wts.errors import ParameterError
from wts.params import check_float, check_int, check_seed
from wts.players.network import Network, NetworkShape
from wts.players.pairs import play_sprt
from wts.players.sprt import SPRT
from wts.runtime.backends import check_backend
from wts.runtime.files import RunFolderError, write_atomically
from wts.scale.data import load
from wts.scale.selfplay import selfplay
from wts.train.examples import Examples, examples_of
from wts.train.learner import Learner
from wts.train.plot import progress_svg

__all__ = ["TrainSettings", "train", "RUN_FORMAT"]

RUN_FORMAT = "wts-train/1"
_STATE = "train.json"


@dataclass(frozen=True)
class TrainSettings:
    """What a run is made of; a resumed run must be given the same."""

    generations: int = 10
    games: int = 200
    playouts: int = 200
    steps: int = 2000
    batch_size: int = 256
    window: int = 4
    learning_rate: float = 1e-3
    blocks: int = 4
    channels: int = 32
    gate_pairs: int = 100
    elo1: float = 50.0
    seed: int = 0
    bootstrap: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        check_int(self.generations, "generations", 0, 10_000)
        check_int(self.games, "games", 1, 1_000_000)
        check_int(self.playouts, "playouts", 1, 1_000_000)
        check_int(self.steps, "steps", 1, 100_000_000)
        check_int(self.batch_size, "batch_size", 1, 65_536)
        check_int(self.window, "window", 1, 10_000)
        check_float(self.learning_rate, "learning_rate", 0.0, 1.0, exclude_minimum=True)
        check_int(self.gate_pairs, "gate_pairs", 0, 100_000)
        check_float(self.elo1, "elo1", 0.0, 2000.0, exclude_minimum=True)
        check_seed(self.seed)
        NetworkShape(blocks=self.blocks, channels=self.channels)

    @property
    def shape(self) -> NetworkShape:
        return NetworkShape(blocks=self.blocks, channels=self.channels)


@dataclass
class _State:
    settings: dict[str, Any]
    generations: list[dict[str, Any]] = field(default_factory=list)
    best: int | None = None

    def document(self) -> dict[str, Any]:
        return {"format": RUN_FORMAT, "settings": self.settings,
                "generations": self.generations, "best": self.best}


def _gen(out: Path, generation: int) -> Path:
    return out / f"gen-{generation:03d}"


def _read_state(out: Path, settings: TrainSettings) -> _State:
    path = out / _STATE
    # Resolved: a resume from another folder names the same data.
    wanted = asdict(settings) | {"bootstrap": [str(Path(p).resolve())
                                               for p in settings.bootstrap]}
    if not path.exists():
        return _State(wanted)
    try:
        document = json.loads(path.read_bytes())
    except ValueError:
        raise RunFolderError(f"{path} is not JSON: the run folder is damaged") from None
    if not isinstance(document, dict) or document.get("format") != RUN_FORMAT:
        raise RunFolderError(f"{path} is not a wts train run ({RUN_FORMAT})")
    found = document.get("settings")
    if not isinstance(found, dict):
        raise RunFolderError(f"{path}: its settings are damaged")
    # The number of generations may grow; everything else makes the data.
    differ = sorted(key for key in wanted.keys() | found.keys()
                    if key != "generations" and found.get(key) != wanted.get(key))
    if differ:
        shown = ", ".join(f"{key} {found.get(key)!r} there, {wanted.get(key)!r} here"
                          for key in differ)
        raise ParameterError(f"{out} holds a run with other settings ({shown}); resume it "
                             "with those, or train into another folder")
    generations = document.get("generations")
    best = document.get("best")
    if not isinstance(generations, list) or not (best is None or isinstance(best, int)):
        raise RunFolderError(f"{path}: its generations are damaged")
    state = _State(wanted, generations, best)
    for entry in generations:  # every listed network must still be whole
        Network.load(_gen(out, int(entry["generation"])) / "network.wtsnet")
    return state


def _write_state(out: Path, state: _State) -> None:
    write_atomically(out / _STATE, json.dumps(state.document(), indent=1).encode() + b"\n")


@dataclass(frozen=True)
class TrainProgress:
    """Where a run stands, for a progress display."""

    generation: int
    stage: str          # "selfplay", "train" or "gate"
    done: int
    total: int


def train(out: str | os.PathLike[str], settings: TrainSettings | None = None, *,
          backend: str = "local", workers: int | None = None, address: str | None = None,
          progress: Callable[[TrainProgress], None] | None = None) -> dict[str, Any]:
    """Run (or resume) the loop into folder ``out``; returns ``train.json``'s document."""
    settings = settings or TrainSettings()
    check_backend(backend, workers, address)
    root = Path(out)
    if not (root / _STATE).exists():
        _check_bootstrap(settings)  # before the run folder is made
    root.mkdir(parents=True, exist_ok=True)
    state = _read_state(root, settings)
    say = progress or (lambda _: None)
    for generation in range(len(state.generations), settings.generations + 1):
        folder = _gen(root, generation)
        folder.mkdir(exist_ok=True)
        entry: dict[str, Any] = {"generation": generation}
        if generation > 0:
            best_net = _gen(root, state.best if state.best is not None else 0) / "network.wtsnet"
            spec = (f"az,playouts={settings.playouts},noise=0.25,temperature=1,"
                    f"net={best_net.resolve()}")

            def played(p: Any, g: int = generation) -> None:
                say(TrainProgress(g, "selfplay", p.games, p.total))

            report = selfplay(folder / "selfplay", settings.games, agent=spec,
                              seed=derive(settings.seed, generation, 0), backend=backend,
                              workers=workers, address=address, progress=played)
            entry["games"] = report.games
        learner = _learner(root, state, settings, generation)
        data = _window(root, settings, generation)
        entry["examples"] = len(data)
        rng = np.random.default_rng(derive(settings.seed, generation, 1))

        def stepped(done: int, _: Any, g: int = generation, first: int = learner.steps) -> None:
            say(TrainProgress(g, "train", done - first, settings.steps))

        losses = learner.fit(data, settings.steps, settings.batch_size, rng, progress=stepped)
        tail = losses[-max(1, len(losses) // 10):]
        entry["loss"] = {key: float(np.mean([row[key] for row in tail])) for key in tail[0]}
        entry["steps"] = learner.steps
        net_path = folder / "network.wtsnet"
        learner.network().save(net_path, {"generation": str(generation)})
        learner.save(folder / "learner.npz")
        if generation == 0 or state.best is None or settings.gate_pairs == 0:
            entry["gate"] = None
            promoted = True
        else:
            entry["gate"], promoted = _gate(root, state, settings, generation, backend,
                                            workers, address, say)
        entry["promoted"] = promoted
        if promoted:
            state.best = generation
        state.generations.append(entry)
        _write_state(root, state)
        write_atomically(root / "progress.svg", progress_svg(state.generations).encode())
    return state.document()


def _check_bootstrap(settings: TrainSettings) -> None:
    """Generation 0 learns from the bootstrap runs: they must be there."""
    if not settings.bootstrap:
        raise ParameterError("generation 0 needs bootstrap data to learn from: give "
                             "--bootstrap DIR, a folder wts selfplay wrote")
    for folder in map(Path, settings.bootstrap):
        if not folder.is_dir():
            raise ParameterError(f"bootstrap run {folder}: no such folder (give a folder "
                                 "wts selfplay wrote)")


def _learner(root: Path, state: _State, settings: TrainSettings, generation: int) -> Learner:
    """A learner that goes on from the last generation's weights and optimiser."""
    if generation > 0:
        return Learner.restore(_gen(root, generation - 1) / "learner.npz")
    return Learner(settings.shape, seed=derive(settings.seed, generation, 2),
                   learning_rate=settings.learning_rate)


def _window(root: Path, settings: TrainSettings, generation: int) -> Examples:
    """The examples of the last ``window`` generations' self-play (the bootstrap
    data while the window still reaches generation 0)."""
    folders = [_gen(root, g) / "selfplay" for g in range(max(1, generation - settings.window + 1),
                                                          generation + 1)]
    if generation - settings.window < 0:
        folders = [Path(p) for p in settings.bootstrap] + folders
    if generation == 0:
        _check_bootstrap(settings)
    parts = [examples_of(load(folder)) for folder in folders]
    return Examples(*(np.concatenate([getattr(part, name) for part in parts])
                      for name in ("planes", "black", "white", "wdl", "legal")))


def _gate(root: Path, state: _State, settings: TrainSettings, generation: int,
          backend: str, workers: int | None, address: str | None,
          say: Callable[[TrainProgress], None]) -> tuple[dict[str, Any], bool]:
    new = _gen(root, generation) / "network.wtsnet"
    best = _gen(root, state.best or 0) / "network.wtsnet"
    spec = f"az,playouts={settings.playouts},net="
    result = play_sprt(spec + str(new.resolve()), spec + str(best.resolve()),
                       SPRT(0.0, settings.elo1), seed=derive(settings.seed, generation, 3),
                       max_pairs=settings.gate_pairs, backend=backend, workers=workers,
                       address=address, out=_gen(root, generation) / "gate.json",
                       progress=lambda r: say(
                           TrainProgress(generation, "gate", len(r.pairs), settings.gate_pairs)))
    status = result.status
    summary = {"pairs": status.pairs, "elo": status.elo, "elo_low": status.elo_low,
               "elo_high": status.elo_high, "llr": status.llr, "verdict": status.verdict}
    return summary, status.verdict == "H1"
