"""A fake implementation with a bug: an uncaught exception (Python exits 1 with a traceback)."""
raise ValueError("adapter bug")
