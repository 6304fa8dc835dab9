"""The Sphinx extension that renders the rulebook model as a site (``extensions = ["havoc.sphinxext"]``).

This package is the only part of havoc that imports Sphinx.
"""

from havoc.sphinxext.extension import setup

__all__ = ["setup"]
