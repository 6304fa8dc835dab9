"""The rules assistant: answers questions about a position from the rules' check blocks.

Kept import-light on purpose: ``havoc.games.cry_havoc.position`` imports the contract from here, and the
CLI must start fast.
"""
