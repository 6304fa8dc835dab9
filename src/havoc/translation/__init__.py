"""Every translatable string of a ruleset, listed once, and Babel's rule-file extractor."""
