"""The forward pass of :class:`wts.network.Network` in JAX, as pure functions
over a params dict keyed by :meth:`NetworkShape.tensor_shapes`' names, so that
it can be differentiated and compiled; ``tests/train`` holds it equal to the
numpy one.

The numpy stem and block kernels are (9, in, out) with tap ``k = dy*3 + dx``;
here they are the same arrays reshaped to HWIO (3, 3, in, out), the boards
NHWC (n, rank, file, channel), zero-padded (SAME) as numpy's border is.
Every product is at ``Precision.HIGHEST``: full float32, as numpy computes.
"""

from __future__ import annotations

from collections.abc import Mapping

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from wts.errors import ParameterError
from wts.players.network import Network, NetworkShape

__all__ = ["Params", "params_of", "network_of", "logits", "check_params"]

#: A network's weights as JAX arrays, by tensor name.
Params = dict[str, jax.Array]

_HIGHEST = lax.Precision.HIGHEST
_DIMENSIONS = ("NHWC", "HWIO", "NHWC")


def params_of(network: Network) -> Params:
    """The weights of ``network`` as float32 JAX arrays, by tensor name."""
    if not isinstance(network, Network):
        raise ParameterError(f"network must be a wts Network, not {type(network).__name__}")
    return {name: jnp.asarray(array, dtype=jnp.float32)
            for name, array in network.weights.items()}


def network_of(params: Mapping[str, jax.Array], shape: NetworkShape) -> Network:
    """The numpy :class:`Network` holding ``params`` (checked against ``shape``)."""
    return Network(shape, {name: np.asarray(value, dtype=np.float32)
                           for name, value in params.items()})


def check_params(params: Mapping[str, jax.Array], shape: NetworkShape) -> None:
    """Raise :class:`ParameterError` unless ``params`` has exactly ``shape``'s tensors."""
    if not isinstance(shape, NetworkShape):
        raise ParameterError(f"shape must be a NetworkShape, not {type(shape).__name__}")
    expected = shape.tensor_shapes()
    if set(params) != set(expected):
        raise ParameterError(f"the params do not fit {shape}: they name "
                             f"{sorted(set(params) ^ set(expected))[:3]} differently")
    for name, want in expected.items():
        if tuple(params[name].shape) != want:
            raise ParameterError(f"param {name} has shape {tuple(params[name].shape)}, "
                                 f"not {want}")


def _conv3(x: jax.Array, params: Mapping[str, jax.Array], name: str) -> jax.Array:
    weight = params[f"{name}.weight"]
    kernel = weight.reshape(3, 3, weight.shape[1], weight.shape[2])
    out = lax.conv_general_dilated(x, kernel, window_strides=(1, 1), padding="SAME",
                                   dimension_numbers=_DIMENSIONS, precision=_HIGHEST)
    return out + params[f"{name}.bias"]


def _dense(x: jax.Array, params: Mapping[str, jax.Array], name: str) -> jax.Array:
    return jnp.matmul(x, params[f"{name}.weight"], precision=_HIGHEST) + params[f"{name}.bias"]


def logits(params: Mapping[str, jax.Array], planes: jax.Array,
           shape: NetworkShape) -> tuple[jax.Array, jax.Array]:
    """The raw heads of (n, 81, planes) float32 planes, as :meth:`Network.logits`:
    policy logits (n, 81, 2), black's then white's, and win/draw/loss logits (n, 3)."""
    planes = jnp.asarray(planes, dtype=jnp.float32)
    if planes.ndim != 3 or planes.shape[1:] != (81, shape.planes):
        raise ParameterError(f"planes must have shape (n, 81, {shape.planes}), not "
                             f"{planes.shape}")
    n = planes.shape[0]
    x = jax.nn.relu(_conv3(planes.reshape(n, 9, 9, shape.planes), params, "stem"))
    for block in range(shape.blocks):
        y = jax.nn.relu(_conv3(x, params, f"block{block}.conv1"))
        x = jax.nn.relu(x + _conv3(y, params, f"block{block}.conv2"))
    squares = x.reshape(n, 81, shape.channels)
    policy = _dense(squares, params, "policy")
    v = jax.nn.relu(_dense(squares, params, "value.conv"))
    v = v.reshape(n, 81 * 2)  # square-major: square 0's two channels, then square 1's
    v = jax.nn.relu(_dense(v, params, "value.hidden"))
    return policy, _dense(v, params, "value.out")
