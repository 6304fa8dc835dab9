"""The server, the phone's offline bundle and the security policy both serve."""
