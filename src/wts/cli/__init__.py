"""The ``wts`` command: its entry point (:mod:`.main`), one module a command
(:mod:`.play`, :mod:`.tournament`, ...), and the option converters they share
(:mod:`.arguments`)."""
