"""The outside world: the ``wts`` command and each command's arguments, the
terminal game, and the PettingZoo, Gymnasium and OpenSpiel adapters with
OpenSpiel's MCTS agent (each imported only when used)."""
