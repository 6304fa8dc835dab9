"""Cry Havoc's question kinds, one module each (``move.py`` answers ``ask: move``).

A kind's module holds everything about it: its handler, its probe in the legal-actions report
(``legal.py`` holds the report itself), its words and, at its end, its declaration ``KIND``
(:class:`havoc.games.cry_havoc.kind.QuestionKind`). The registry imports a kind's module only
when that kind is asked about; this package imports none of them.
"""
