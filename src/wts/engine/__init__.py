"""The engine: the rules, the state of a game, and the API both engines share.

``reference.py`` holds the rules written out plainly; the Cython core
(``_core.pyx`` on the bit primitives of ``_bits.pxd`` and ``wts_bits.h``) holds
them on bitboards, and ``game.py``, ``batch.py``, ``simulate.py`` and
``perft.py`` put the core behind the shared API of ``base.py``. The core is
built for several CPU levels: ``kernels.py`` loads the best one first, so
every module that cimports the core binds to it.
"""

from wts.engine.kernels import load_core

load_core()
