"""Every name ``wts`` answers to besides the home of its code, in one place.

The rule (``docs/development.md``, "Public paths"): code lives in the folder
of its layer; a user imports it from its public path, which is either its
home or one of the short modules of :data:`PUBLIC_MODULES` (``wts.reference``,
``wts.agents``, ...). Those are files of imports only, since type checkers
follow files, not aliases. Everything else that answers to an old name is
here, with the release that drops it:

- :data:`PUBLIC_CLASS_PATHS`: classes shown and pickled by their public path,
  so that a pickle outlives a move of their home;
- :data:`PICKLED_MODULES`: the modules that pickles made by an older wts name;
- :data:`MOVED_MODULES`: modules that moved to another layer; importing the
  old path gives the module at its home, with a :class:`DeprecationWarning`.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import sys
import warnings
from collections.abc import Sequence
from types import ModuleType

#: The short public modules, each the public path of its home.
PUBLIC_MODULES = {
    "wts.reference": "wts.engine.reference",
    "wts.notation": "wts.engine.notation",
    "wts.record": "wts.formats.record",
    "wts.svg": "wts.formats.svg",
    "wts.agents": "wts.players.agents",
    "wts.tournament": "wts.players.tournament",  # and wts.cli.tournament's command
    "wts.env": "wts.adapters.env",
    "wts.vector_env": "wts.adapters.vector_env",
    "wts.openspiel": "wts.adapters.openspiel",
}

#: (home module, class) -> the module a class is shown and pickled under.
PUBLIC_CLASS_PATHS = {
    ("wts.engine.game", "Game"): "wts",
    ("wts.engine.reference", "Game"): "wts.reference",
    ("wts.engine.notation", "Position"): "wts.notation",
    ("wts.formats.record", "GameRecord"): "wts.record",
}

#: The modules that pickles of an older wts name (0.1.0's games, 0.2.0's
#: positions) -> their home now. Kept, without a warning (a pickle cannot be
#: edited), until wts 1.0.0.
PICKLED_MODULES = {
    "wts.base": "wts.engine.base",
    "wts.events": "wts.engine.events",
    "wts.pieces": "wts.engine.pieces",
    "wts.formats.notation": "wts.engine.notation",
}

#: Old path -> (home, the release that drops the old path).
MOVED_MODULES = {
    "wts.players.openspiel_agent": ("wts.adapters.openspiel_agent", "0.4.0"),
}

class _MovedModules:
    """Imports an old path of :data:`MOVED_MODULES` as the module at its home
    (the same module object), warning once per import. A meta path finder and
    its loader by their methods (importlib.abc, their bases, costs an import
    of its own)."""

    def __init__(self) -> None:
        self._home_specs: dict[str, importlib.machinery.ModuleSpec | None] = {}

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if fullname not in MOVED_MODULES:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        home, removal = MOVED_MODULES[spec.name]
        warnings.warn(f"{spec.name} is now {home}; the old path goes in wts {removal}",
                      DeprecationWarning, stacklevel=2)
        module = importlib.import_module(home)
        self._home_specs[spec.name] = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        # The import machinery gave the module the old path's spec: it keeps its own.
        spec = module.__spec__
        if spec is not None and spec.name in self._home_specs:
            module.__spec__ = self._home_specs.pop(spec.name)


def install() -> None:
    """Set the names above (idempotent); ``import wts`` calls it."""
    for (home, name), public in PUBLIC_CLASS_PATHS.items():
        getattr(sys.modules[home], name).__module__ = public
    for old, home in PICKLED_MODULES.items():
        sys.modules.setdefault(old, importlib.import_module(home))
    if not any(isinstance(finder, _MovedModules) for finder in sys.meta_path):
        sys.meta_path.append(_MovedModules())
