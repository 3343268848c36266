"""Notation files: game records (GCG) and positions (CGP)."""
