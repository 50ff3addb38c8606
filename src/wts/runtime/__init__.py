"""Where work runs and how it reaches the disk, for every layer above: the
backends that play chunks of games (local, process pool, Ray) and the file
layer's system calls (atomic writes, exclusive temporary names, flushes)."""
