"""The policy and value network of the network player: its shape, its weights
file and its forward pass in numpy.

A :class:`Network` reads a position's planes
(:meth:`wts.BatchGame.network_planes`, from black's side) and gives, for a
whole batch at once, black's and white's policies over the 81 squares (both
choose from the same position, at once) and the expected result for black
(1 a win, 0.5 a draw, 0 a loss), from a win/draw/loss head:

- a stem, a 3x3 convolution from the planes to ``channels`` channels, ReLU;
- ``blocks`` residual blocks, each two 3x3 convolutions with a ReLU between,
  added to the block's input, ReLU;
- the policy head: a 1x1 convolution to 2 channels, black's and white's
  logits over the squares, masked to the legal ones;
- the value head: a 1x1 convolution to 2 channels, ReLU, a dense layer of
  ``hidden`` units, ReLU, and the win/draw/loss logits.

There is no normalisation layer: nothing differs between training and
play. The forward pass is a few matrix products a convolution on the
boards, laid out with a one-square border of zeros, so that each of the
nine taps of a 3x3 kernel is one contiguous slice: the work is BLAS's, on
the whole batch. ``wts.train`` holds the same function in JAX, and a test
holds the two equal.

The weights file (``.wtsnet``) is in the safetensors layout (an 8-byte
little-endian header length, a JSON header naming each tensor's dtype,
shape and byte range, then the raw little-endian float32 data), read here
without pickle or any extra package. Its ``__metadata__`` says
``format: wts-network``, ``version: 1``, the shape (``planes``,
``blocks``, ``channels``, ``hidden``) and the SHA-256 of the data; a file
that is not such a network, or whose data does not match its digest, is
refused with :class:`NetworkFileError` saying what is wrong.
"""

from __future__ import annotations

import hashlib
import json
import os
import struct
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from wts._public import publish
from wts.engine.batch import NETWORK_PLANES
from wts.errors import NetworkFileError, ParameterError
from wts.params import check_int

__all__ = ["Network", "NetworkShape", "Evaluation", "DEFAULT_NETWORK",
           "FORMAT", "FORMAT_VERSION", "MAX_NETWORK_BYTES", "blas_on_one_thread"]

FORMAT = "wts-network"
FORMAT_VERSION = 1
#: The largest weights file read: no shipped network comes near it.
MAX_NETWORK_BYTES = 64 << 20
#: The largest network shape accepted.
MAX_BLOCKS, MAX_CHANNELS, MAX_HIDDEN = 40, 512, 4096
#: The network shipped in the wheel, which ``az`` plays by default.
DEFAULT_NETWORK = Path(__file__).with_name("networks") / "default.wtsnet"

_HEADER_LIMIT = 1 << 20
_BLAS_LOCK = threading.Lock()
_blas_users = 0
_blas_limit: object = None


@contextmanager
def blas_on_one_thread() -> Iterator[None]:
    """numpy's BLAS on one thread while the block runs (and while any other
    thread's block runs: the setting is the process's), then as it was.

    A search's products are small: on two cores one thread evaluates more
    positions a second than two, and a second BLAS thread waiting for a
    busy core stalls a move ten times its time."""
    global _blas_users, _blas_limit
    from threadpoolctl import threadpool_limits

    with _BLAS_LOCK:
        if _blas_users == 0:
            _blas_limit = threadpool_limits(limits=1, user_api="blas")
        _blas_users += 1
    try:
        yield
    finally:
        with _BLAS_LOCK:
            _blas_users -= 1
            if _blas_users == 0:
                _blas_limit.restore_original_limits()  # type: ignore[attr-defined]
                _blas_limit = None


# The boards of a batch, one after another, as rows of a matrix: each board is
# 10x10, a zero rank above its 9 ranks and a zero file after its 9 files, so
# that one board's zero rank and file pad its neighbours too (100 rows a board,
# not the 121 of a separate border). One zero row before the batch and _EDGE
# after it pad the ends.
_SIDE, _WIDTH = 9, 10
_BOARD = _WIDTH * _WIDTH
# Each tap (dy, dx) of a 3x3 kernel as an offset into the rows.
_TAPS = tuple((dy - 1) * _WIDTH + (dx - 1) for dy in range(3) for dx in range(3))
_EDGE = _WIDTH + 1  # the largest tap offset: rows this far from the ends are padding


@dataclass(frozen=True)
class NetworkShape:
    """The sizes of a :class:`Network`."""

    blocks: int = 4
    channels: int = 32
    hidden: int = 64
    planes: int = len(NETWORK_PLANES)

    def __post_init__(self) -> None:
        check_int(self.blocks, "blocks", 0, MAX_BLOCKS)
        check_int(self.channels, "channels", 1, MAX_CHANNELS)
        check_int(self.hidden, "hidden", 1, MAX_HIDDEN)
        if self.planes != len(NETWORK_PLANES):
            raise ParameterError(f"a network reads {len(NETWORK_PLANES)} planes, not "
                                 f"{self.planes}")

    def tensor_shapes(self) -> dict[str, tuple[int, ...]]:
        """Every tensor's name and shape, in the file's order."""
        c, h = self.channels, self.hidden
        shapes: dict[str, tuple[int, ...]] = {"stem.weight": (9, self.planes, c),
                                              "stem.bias": (c,)}
        for block in range(self.blocks):
            for conv in (1, 2):
                shapes[f"block{block}.conv{conv}.weight"] = (9, c, c)
                shapes[f"block{block}.conv{conv}.bias"] = (c,)
        shapes |= {"policy.weight": (c, 2), "policy.bias": (2,),
                   "value.conv.weight": (c, 2), "value.conv.bias": (2,),
                   "value.hidden.weight": (2 * 81, h), "value.hidden.bias": (h,),
                   "value.out.weight": (h, 3), "value.out.bias": (3,)}
        return shapes

    def flops(self) -> int:
        """Multiply-adds times two of one position's forward pass."""
        return 2 * sum(int(np.prod(shape)) * (81 if name.startswith(("stem", "block", "policy",
                                                                     "value.conv")) else 1)
                       for name, shape in self.tensor_shapes().items()
                       if name.endswith("weight"))


@dataclass(frozen=True)
class Evaluation:
    """A batch's forward pass: ``black`` and ``white`` (n, 81) float32
    policies (0 off the legal squares, each row summing to 1), ``value``
    (n,) float32, the expected result for black, and ``wdl`` (n, 3) its
    win, draw and loss probabilities."""

    black: npt.NDArray[np.float32]
    white: npt.NDArray[np.float32]
    value: npt.NDArray[np.float32]
    wdl: npt.NDArray[np.float32]


def _softmax(logits: npt.NDArray[np.float32], axis: int = -1) -> npt.NDArray[np.float32]:
    top = logits.max(axis=axis, keepdims=True)
    e = np.exp(logits - top)
    return e / e.sum(axis=axis, keepdims=True)  # type: ignore[no-any-return]


class Network:
    """A policy and value network: its :class:`NetworkShape` and weights.

    >>> import wts
    >>> from wts.players.network import Network, NetworkShape
    >>> net = Network.initial(NetworkShape(blocks=1, channels=8), seed=0)
    >>> batch = wts.BatchGame(2)
    >>> out = net.evaluate(batch.network_planes(), batch.legal_mask())
    >>> out.black.shape, bool(abs(out.black.sum(axis=1) - 1).max() < 1e-5)
    ((2, 81), True)
    """

    def __init__(self, shape: NetworkShape, weights: Mapping[str, npt.ArrayLike]) -> None:
        if not isinstance(shape, NetworkShape):
            raise ParameterError(f"shape must be a NetworkShape, not {type(shape).__name__}")
        expected = shape.tensor_shapes()
        if set(weights) != set(expected):
            missing, extra = set(expected) - set(weights), set(weights) - set(expected)
            raise ParameterError(f"the weights do not fit {shape}: missing {sorted(missing)[:3]}, "
                                 f"unexpected {sorted(extra)[:3]}")
        held: dict[str, npt.NDArray[np.float32]] = {}
        for name, want in expected.items():
            array = np.array(weights[name], dtype=np.float32, order="C")
            if array.shape != want:
                raise ParameterError(f"weight {name} has shape {array.shape}, not {want}")
            if not np.isfinite(array).all():
                raise ParameterError(f"weight {name} holds a value that is not finite")
            array.setflags(write=False)
            held[name] = array
        self.shape = shape
        self.weights = held
        c = shape.channels
        # The 3x3 kernels as the forward pass uses them, one (in, out) matrix a tap.
        self._mask_cache: dict[int, npt.NDArray[np.float32]] = {}
        self._c = c

    # -- making and storing ---------------------------------------------------

    @classmethod
    def initial(cls, shape: NetworkShape | None = None, seed: int = 0) -> Network:
        """A network with fresh weights (He-scaled normal, the residual branches'
        last convolution scaled down, biases zero), as training starts."""
        shape = shape or NetworkShape()
        rng = np.random.default_rng(seed)
        weights: dict[str, npt.NDArray[np.float32]] = {}
        for name, size in shape.tensor_shapes().items():
            if name.endswith("bias"):
                weights[name] = np.zeros(size, np.float32)
                continue
            fan_in = int(np.prod(size[:-1]))
            scale = np.sqrt(2.0 / fan_in) * (0.1 if name.endswith("conv2.weight") else 1.0)
            weights[name] = (rng.standard_normal(size) * scale).astype(np.float32)
        return cls(shape, weights)

    @classmethod
    def uniform(cls, shape: NetworkShape | None = None) -> Network:
        """A network of zero weights: uniform priors over the legal squares and
        a value of 0.5 (a draw) everywhere, the search's baseline."""
        shape = shape or NetworkShape()
        return cls(shape, {name: np.zeros(size, np.float32)
                           for name, size in shape.tensor_shapes().items()})

    def save(self, path: str | os.PathLike[str], metadata: Mapping[str, str] | None = None) -> None:
        """Write the weights file to ``path``, atomically (a temporary name,
        flushed, then renamed); ``metadata`` adds string pairs to its header."""
        from wts.runtime.files import write_atomically  # saving only: import wts needs none

        write_atomically(Path(path), self.to_bytes(metadata))

    def to_bytes(self, metadata: Mapping[str, str] | None = None) -> bytes:
        data = b"".join(self.weights[name].astype("<f4").tobytes()
                        for name in self.shape.tensor_shapes())
        meta = {"format": FORMAT, "version": str(FORMAT_VERSION),
                "planes": str(self.shape.planes), "blocks": str(self.shape.blocks),
                "channels": str(self.shape.channels), "hidden": str(self.shape.hidden),
                "sha256": hashlib.sha256(data).hexdigest()}
        for key, value in (metadata or {}).items():
            if not (isinstance(key, str) and isinstance(value, str)) or key in meta:
                raise ParameterError(f"metadata must map new names to strings, not {key!r}")
            meta[key] = value
        header: dict[str, object] = {"__metadata__": meta}
        offset = 0
        for name, size in self.shape.tensor_shapes().items():
            end = offset + 4 * int(np.prod(size))
            header[name] = {"dtype": "F32", "shape": list(size), "data_offsets": [offset, end]}
            offset = end
        text = json.dumps(header, separators=(",", ":")).encode()
        text += b" " * (-len(text) % 8)
        return struct.pack("<Q", len(text)) + text + data

    @classmethod
    def load(cls, path: str | os.PathLike[str] | None = None) -> Network:
        """The network in the weights file ``path`` (the shipped one when None).
        A file that is not a wts network, or is damaged, raises
        :class:`NetworkFileError`; the file is never unpickled."""
        where = Path(DEFAULT_NETWORK if path is None else path)
        try:
            size = where.stat().st_size
            if size > MAX_NETWORK_BYTES:
                raise NetworkFileError(f"{where}: {size:,} bytes, more than a network may have "
                                       f"({MAX_NETWORK_BYTES:,})")
            data = where.read_bytes()
        except OSError as exc:
            raise NetworkFileError(f"cannot read the network {where}: {exc.strerror}") from None
        return cls.from_bytes(data, str(where))

    @classmethod
    def from_bytes(cls, data: bytes, where: str = "the network") -> Network:
        def bad(what: str) -> NetworkFileError:
            return NetworkFileError(f"{where} is not a wts network file: {what}")

        if len(data) < 8:
            raise bad("shorter than its header")
        (length,) = struct.unpack("<Q", data[:8])
        if length > min(_HEADER_LIMIT, len(data) - 8):
            raise bad(f"a header of {length:,} bytes")
        try:
            header = json.loads(data[8:8 + length].decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            raise bad("its header is not JSON") from None
        if not isinstance(header, dict) or not isinstance(header.get("__metadata__"), dict):
            raise bad("no __metadata__ in its header")
        meta = header.pop("__metadata__")
        if meta.get("format") != FORMAT:
            raise bad(f"its format is {meta.get('format')!r}, not {FORMAT!r}")
        if meta.get("version") != str(FORMAT_VERSION):
            raise NetworkFileError(f"{where} is a wts network of version {meta.get('version')!r};"
                                   f" this wts reads version {FORMAT_VERSION}")
        try:
            shape = NetworkShape(**{key: int(meta[key]) for key in
                                    ("blocks", "channels", "hidden", "planes")})
        except (KeyError, ValueError, TypeError, ParameterError) as exc:
            raise bad(f"its shape is missing or out of range ({exc})") from None
        body = data[8 + length:]
        if hashlib.sha256(body).hexdigest() != meta.get("sha256"):
            raise NetworkFileError(f"{where} is damaged: its data does not match its SHA-256")
        weights = {}
        offset = 0
        for name, size in shape.tensor_shapes().items():
            entry = header.get(name)
            end = offset + 4 * int(np.prod(size))
            if not isinstance(entry, dict) or entry.get("dtype") != "F32" or (
                    entry.get("shape") != list(size)) or entry.get("data_offsets") != [offset, end]:
                raise bad(f"tensor {name} is missing or not F32 {list(size)} at bytes "
                          f"{offset}-{end}")
            weights[name] = np.frombuffer(body, dtype="<f4", count=end // 4 - offset // 4,
                                          offset=offset).reshape(size)
            offset = end
        if set(header) != set(shape.tensor_shapes()) or offset != len(body):
            raise bad("tensors or bytes beyond those of its shape")
        try:
            return cls(shape, weights)
        except ParameterError as exc:
            raise bad(str(exc)) from None

    # -- the forward pass -------------------------------------------------------

    def _border(self, rows: int) -> npt.NDArray[np.float32]:
        """(rows, 1): 1 on the boards' squares, 0 on the padding."""
        mask = self._mask_cache.get(rows)
        if mask is None:
            one = np.zeros((_WIDTH, _WIDTH), np.float32)
            one[1:, :_SIDE] = 1
            mask = np.zeros((rows, 1), np.float32)
            mask[1:rows - _EDGE, 0] = np.tile(one.ravel(), (rows - 1 - _EDGE) // _BOARD)
            if len(self._mask_cache) > 16:
                self._mask_cache.clear()
            self._mask_cache[rows] = mask
        return mask

    def _conv3(self, x: npt.NDArray[np.float32], name: str) -> npt.NDArray[np.float32]:
        """A 3x3 convolution of padded boards ``x`` (rows, in): the nine taps'
        products summed, the bias added; the border rows are left for the caller."""
        weight, rows = self.weights[f"{name}.weight"], len(x)
        out = np.empty((rows, weight.shape[2]), np.float32)
        part = np.empty((rows - 2 * _EDGE, weight.shape[2]), np.float32)
        out[:_EDGE] = 0
        out[rows - _EDGE:] = 0
        inner = out[_EDGE:rows - _EDGE]
        np.matmul(x[_EDGE + _TAPS[0]:rows - _EDGE + _TAPS[0]], weight[0], out=inner)
        for tap in range(1, 9):  # into one buffer: no new array a tap
            d = _TAPS[tap]
            np.matmul(x[_EDGE + d:rows - _EDGE + d], weight[tap], out=part)
            inner += part
        out += self.weights[f"{name}.bias"]
        return out

    def logits(self, planes: npt.NDArray[np.float32]) -> tuple[npt.NDArray[np.float32],
                                                               npt.NDArray[np.float32]]:
        """The raw heads of (n, 81, planes) float32 planes: policy logits
        (n, 81, 2), black's then white's, and win/draw/loss logits (n, 3)."""
        planes = np.asarray(planes, dtype=np.float32)
        if planes.ndim != 3 or planes.shape[1:] != (81, self.shape.planes):
            raise ParameterError(f"planes must have shape (n, 81, {self.shape.planes}), not "
                                 f"{planes.shape}")
        n = len(planes)
        rows = 1 + n * _BOARD + _EDGE
        x = np.zeros((rows, self.shape.planes), np.float32)
        boards = x[1:1 + n * _BOARD].reshape(n, _WIDTH, _WIDTH, -1)
        boards[:, 1:, :_SIDE] = planes.reshape(n, _SIDE, _SIDE, -1)
        border = self._border(rows)
        w = self.weights
        x = self._conv3(x, "stem")
        np.maximum(x, 0, out=x)
        x *= border
        for block in range(self.shape.blocks):  # in place: the batch's arrays are reused
            y = self._conv3(x, f"block{block}.conv1")
            np.maximum(y, 0, out=y)
            y *= border
            y = self._conv3(y, f"block{block}.conv2")
            y += x
            np.maximum(y, 0, out=y)
            y *= border
            x = y
        inside = x[1:1 + n * _BOARD].reshape(n, _WIDTH, _WIDTH, -1)[:, 1:, :_SIDE].reshape(
            n * 81, -1)
        policy = (inside @ w["policy.weight"] + w["policy.bias"]).reshape(n, 81, 2)
        v = np.maximum(inside @ w["value.conv.weight"] + w["value.conv.bias"], 0)
        v = v.reshape(n, 81 * 2)  # square-major: square 0's two channels, then square 1's
        v = np.maximum(v @ w["value.hidden.weight"] + w["value.hidden.bias"], 0)
        wdl = v @ w["value.out.weight"] + w["value.out.bias"]
        return policy.astype(np.float32), wdl.astype(np.float32)

    def evaluate(self, planes: npt.NDArray[np.float32],
                 legal: npt.ArrayLike) -> Evaluation:
        """Both policies (softmax over the legal squares ``legal``, (n, 81)
        bool) and the value of a batch of planes."""
        policy, wdl_logits = self.logits(planes)
        mask = np.asarray(legal, dtype=bool)
        if mask.shape != (len(policy), 81):
            raise ParameterError(f"legal must have shape ({len(policy)}, 81), not {mask.shape}")
        masked = np.where(mask[:, :, None], policy, -np.inf).astype(np.float32)
        masked[~mask.any(axis=1)] = 0.0  # a game over: no legal square, uniform nonsense
        probs = _softmax(masked, axis=1) * mask[:, :, None]
        wdl = _softmax(wdl_logits)
        value = (wdl[:, 0] + 0.5 * wdl[:, 1]).astype(np.float32)
        return Evaluation(np.ascontiguousarray(probs[:, :, 0]),
                          np.ascontiguousarray(probs[:, :, 1]), value, wdl)

    def __repr__(self) -> str:
        s = self.shape
        return (f"Network(blocks={s.blocks}, channels={s.channels}, hidden={s.hidden}, "
                f"{s.flops() / 1e6:.1f} MFLOP a position)")


publish("wts.network", __all__, globals())
