"""The learner: a network's params and its optimiser state, one compiled
step a minibatch, and a checkpoint to resume from.

The loss is what the network player reads from the heads: each policy's
cross-entropy against the search's visits (a softmax over the legal squares
only, as :meth:`Network.evaluate` masks them) and the win/draw/loss head's
against the result. AdamW's decoupled weight decay stands in for an L2 term,
on the weights only (a bias is not a scale to keep small).

A checkpoint is an ``.npz`` of plain arrays (no pickle): the params, the
optimiser state's leaves in JAX's tree order, and a JSON header with the
shape, the hyperparameters and the step count, written atomically so a
crash leaves the old checkpoint or the new one.
"""

from __future__ import annotations

import io
import json
import os
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import optax

from wts.errors import ParameterError, WtsError
from wts.params import check_float, check_int, check_seed
from wts.players.network import Network, NetworkShape
from wts.runtime.files import write_atomically
from wts.train.examples import Examples, minibatch
from wts.train.model import Params, check_params, logits, network_of, params_of

__all__ = ["Learner", "CheckpointError", "Losses", "CHECKPOINT_FORMAT", "CHECKPOINT_VERSION"]

CHECKPOINT_FORMAT = "wts-learner"
CHECKPOINT_VERSION = 1
#: A step's losses by name: "loss" (their sum), "black", "white", "value".
Losses = dict[str, float]
# Off the legal squares: far below any logit, yet finite, so 0 * it stays 0.
_ILLEGAL = -1e30


class CheckpointError(WtsError):
    """A learner checkpoint that cannot be read, is not one, or does not
    match what it says it holds: the message says which, and where."""


def _policy_loss(head: jax.Array, target: jax.Array, legal: jax.Array) -> jax.Array:
    log_p = jax.nn.log_softmax(jnp.where(legal, head, _ILLEGAL), axis=-1)
    return -jnp.mean(jnp.sum(jnp.where(legal, target * log_p, 0.0), axis=-1))


def _losses(params: Params, batch: dict[str, jax.Array],
            shape: NetworkShape) -> tuple[jax.Array, dict[str, jax.Array]]:
    policy, wdl = logits(params, batch["planes"], shape)
    parts = {"black": _policy_loss(policy[..., 0], batch["black"], batch["legal"]),
             "white": _policy_loss(policy[..., 1], batch["white"], batch["legal"]),
             "value": optax.softmax_cross_entropy_with_integer_labels(
                 wdl, batch["wdl"]).mean()}
    total = parts["black"] + parts["white"] + parts["value"]
    return total, {"loss": total, **parts}


def _optimizer(shape: NetworkShape, learning_rate: float,
               weight_decay: float) -> optax.GradientTransformation:
    decayed = {name: name.endswith("weight") for name in shape.tensor_shapes()}
    return optax.adamw(learning_rate, weight_decay=weight_decay, mask=decayed)


def _arrays(batch: Examples) -> dict[str, jax.Array]:
    if not isinstance(batch, Examples):
        raise ParameterError(f"batch must be Examples, not {type(batch).__name__}")
    if not len(batch):
        raise ParameterError("an empty batch")
    return {"planes": jnp.asarray(batch.planes, jnp.float32),
            "black": jnp.asarray(batch.black, jnp.float32),
            "white": jnp.asarray(batch.white, jnp.float32),
            "wdl": jnp.asarray(batch.wdl, jnp.int32),
            "legal": jnp.asarray(batch.legal, jnp.bool_)}


class Learner:
    """A network in training: ``params``, the AdamW state and ``steps`` taken.

    It starts from ``Network.initial(shape, seed)``, or from ``network``
    (of that shape) when given, to go on training a saved network.
    """

    def __init__(self, shape: NetworkShape, seed: int = 0, learning_rate: float = 1e-3,
                 weight_decay: float = 1e-4, *, network: Network | None = None) -> None:
        if not isinstance(shape, NetworkShape):
            raise ParameterError(f"shape must be a NetworkShape, not {type(shape).__name__}")
        self.shape = shape
        self.seed = check_seed(seed)
        self.learning_rate = check_float(learning_rate, "learning_rate", 0.0, 1.0,
                                         exclude_minimum=True)
        self.weight_decay = check_float(weight_decay, "weight_decay", 0.0, 1.0)
        if network is not None and (not isinstance(network, Network)
                                    or network.shape != shape):
            raise ParameterError(f"network must be a Network of shape {shape}")
        self.params = params_of(network or Network.initial(shape, self.seed))
        self._optimizer = _optimizer(shape, self.learning_rate, self.weight_decay)
        self.opt_state = self._optimizer.init(self.params)
        self.steps = 0
        self._update = jax.jit(self._make_update())

    def _make_update(self) -> Callable[..., Any]:
        shape, optimizer = self.shape, self._optimizer
        gradient = jax.value_and_grad(_losses, has_aux=True)

        def update(params: Params, opt_state: Any,
                   batch: dict[str, jax.Array]) -> tuple[Params, Any, dict[str, jax.Array]]:
            (_, parts), grads = gradient(params, batch, shape)
            changes, opt_state = optimizer.update(grads, opt_state, params)
            return optax.apply_updates(params, changes), opt_state, parts

        return update

    def step(self, batch: Examples) -> Losses:
        """One AdamW step on ``batch``; its losses before the step."""
        self.params, self.opt_state, parts = self._update(self.params, self.opt_state,
                                                          _arrays(batch))
        self.steps += 1
        return {name: float(value) for name, value in parts.items()}

    def fit(self, arrays: Examples, steps: int, batch_size: int, rng: np.random.Generator,
            progress: Callable[[int, Losses], None] | None = None) -> list[Losses]:
        """``steps`` steps, each on an augmented minibatch drawn from ``arrays``
        with ``rng`` (:func:`wts.train.examples.minibatch`); each step's losses.
        ``progress(steps taken, losses)`` is called after each."""
        check_int(steps, "steps", 0)
        check_int(batch_size, "batch_size", 1)
        history = []
        for _ in range(steps):
            losses = self.step(minibatch(arrays, batch_size, rng))
            history.append(losses)
            if progress is not None:
                progress(self.steps, losses)
        return history

    def network(self) -> Network:
        """The params as a numpy :class:`Network`, to save or to play."""
        return network_of(self.params, self.shape)

    # -- checkpoints ------------------------------------------------------------

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write a checkpoint to ``path`` (an .npz), atomically."""
        header = {"format": CHECKPOINT_FORMAT, "version": CHECKPOINT_VERSION,
                  "blocks": self.shape.blocks, "channels": self.shape.channels,
                  "hidden": self.shape.hidden, "seed": self.seed,
                  "learning_rate": self.learning_rate, "weight_decay": self.weight_decay,
                  "steps": self.steps}
        arrays = {"header": np.frombuffer(json.dumps(header).encode(), np.uint8)}
        arrays |= {f"param/{name}": np.asarray(value) for name, value in self.params.items()}
        leaves = jax.tree_util.tree_leaves(self.opt_state)
        arrays |= {f"opt/{i}": np.asarray(leaf) for i, leaf in enumerate(leaves)}
        buffer = io.BytesIO()
        np.savez(buffer, **arrays)  # type: ignore[arg-type]
        write_atomically(Path(path), buffer.getvalue())

    @classmethod
    def restore(cls, path: str | os.PathLike[str]) -> Learner:
        """The learner saved at ``path``, ready to take its next step as the
        saved one would have; a file that is not such a checkpoint raises
        :class:`CheckpointError`."""
        where = Path(path)
        try:
            with np.load(where, allow_pickle=False) as npz:
                arrays = {name: npz[name] for name in npz.files}
        except (OSError, ValueError, zipfile.BadZipFile, EOFError) as exc:
            raise CheckpointError(f"cannot read the checkpoint {where}: {exc}") from None
        try:
            header = json.loads(arrays.pop("header").tobytes().decode())
            if header.get("format") != CHECKPOINT_FORMAT:
                raise CheckpointError(f"{where} is not a wts learner checkpoint")
            if header.get("version") != CHECKPOINT_VERSION:
                raise CheckpointError(f"{where} is a checkpoint of version "
                                      f"{header.get('version')!r}; this wts reads "
                                      f"version {CHECKPOINT_VERSION}")
            shape = NetworkShape(header["blocks"], header["channels"], header["hidden"])
            learner = cls(shape, header["seed"], header["learning_rate"],
                          header["weight_decay"])
            steps = check_int(header["steps"], "steps", 0)
        except (AttributeError, KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, CheckpointError):
                raise
            raise CheckpointError(f"{where}: its header is damaged ({exc})") from None
        learner._load_state(arrays, where)
        learner.steps = steps
        return learner

    def _load_state(self, arrays: dict[str, np.ndarray[Any, Any]], where: Path) -> None:
        params = {name[len("param/"):]: jnp.asarray(value) for name, value in arrays.items()
                  if name.startswith("param/")}
        try:
            check_params(params, self.shape)
        except ParameterError as exc:
            raise CheckpointError(f"{where}: {exc}") from None
        fresh, tree = jax.tree_util.tree_flatten(self.opt_state)
        leaves = [arrays.get(f"opt/{i}") for i in range(len(fresh))]
        if len(arrays) != len(params) + len(fresh) or any(
                leaf is None or leaf.shape != want.shape or leaf.dtype != want.dtype
                for leaf, want in zip(leaves, fresh)):
            raise CheckpointError(f"{where}: the optimiser state does not fit its shape")
        self.params = {name: params[name].astype(jnp.float32)
                       for name in self.shape.tensor_shapes()}
        self.opt_state = jax.tree_util.tree_unflatten(tree, [jnp.asarray(x) for x in leaves])
