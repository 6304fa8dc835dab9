"""The languages havoc speaks: run-time catalogs, the text markup, declined names."""
