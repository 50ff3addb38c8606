# The C API's public name, as ``cimport numpy`` is numpy's:
#
#     from wts.engine.capi cimport wts_state, wts_init, wts_resolve_turn, ...
#
# Build with ``include_dirs=[wts.get_include()]``. Every name, with its
# contract, is declared in ``_core.pxd``, the module that implements it; this
# file adds none, so ``cimport wts.engine.capi`` binds to the core that
# ``import wts`` loaded.
from wts.engine._core cimport *
