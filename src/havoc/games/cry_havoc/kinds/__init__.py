"""Cry Havoc's question kinds, one module each (``move.py`` answers ``ask: move``).

A kind's module holds everything about it: its handler, its probe in the legal-actions report
(the report itself and the probes' shared code are :mod:`havoc.games.cry_havoc.report`, no
kind's module), its words and, at its end, its declaration ``KIND``
(:class:`havoc.games.cry_havoc.kind.QuestionKind`). The registry imports a kind's module only
when that kind is asked about; this package imports none of them, and no kind's module imports
another's (code two kinds share lives outside this package, as ``retreats.py``): answering one
kind loads that kind alone, but ``legal``, which runs every probe.
"""
