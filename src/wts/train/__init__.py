"""The training side of the network player, in JAX: the forward pass
(:mod:`wts.train.model`), self-play data as training arrays with their
augmentation (:mod:`wts.train.examples`) and the learner
(:mod:`wts.train.learner`).

It sits on top of the stack: nothing in wts imports it, so ``import wts``
never imports JAX (pip install "wts[train]" brings JAX, optax and pyarrow).
"""
