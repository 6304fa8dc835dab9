"""Bottom layer: errors, records, bounded I/O, the verified cache, child processes."""
