"""The rules assistant's operations: as Python (api) and as JSON requests (webapi)."""
