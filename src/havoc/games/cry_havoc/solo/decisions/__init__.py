"""The solo Trogs' decisions, one module each (``engine.KINDS`` lists them in order)."""
