"""Isolation backends for untrusted agent code: docker, bwrap, local, behind one interface."""
