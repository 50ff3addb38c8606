"""Coverage-guided fuzz targets (atheris) for the public parsing and move entry points.

``targets.py`` holds the targets, plain functions of bytes; ``python -m
tests.fuzz TARGET --seconds N`` runs one under atheris from the seed corpus in
``corpus/TARGET/`` (``seeds.py`` writes its ``seed-*`` files; ``bug-*`` files
reproduce bugs the fuzzer found), with the dictionary ``dicts/TARGET.dict``.
Nothing here is imported by ``wts``, and this package imports nothing itself,
so the runner can instrument ``wts`` before loading it.
"""
