"""The players: random, greedy and Monte Carlo tree search agents, and matches
between them."""
