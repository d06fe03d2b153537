"""After (or during) a run: tree, show, diff, best, export, transfer eval, report (see README.md)."""
