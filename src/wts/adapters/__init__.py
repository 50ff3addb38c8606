"""The game for the libraries of the field: the PettingZoo and Gymnasium
environments, the OpenSpiel game and OpenSpiel's MCTS as an agent on it (each
imported only when used)."""
