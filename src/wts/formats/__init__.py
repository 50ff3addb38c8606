"""Games as text and pictures: game records, SVG boards and text boards.
Position strings are the engine's (:mod:`wts.engine.notation`, public path
:mod:`wts.notation`)."""
