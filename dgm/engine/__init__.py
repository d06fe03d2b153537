"""The evolution loop (see README.md)."""
