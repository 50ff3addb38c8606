"""The outside world: the ``wts`` command, the terminal game, and the
PettingZoo and OpenSpiel adapters (each imported only when used)."""
