"""The ``wts`` command: its entry point (:mod:`.main`), each command's
arguments, the terminal game, and the option converters they share."""
