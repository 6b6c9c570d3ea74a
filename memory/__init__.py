"""Hearth's long-term memory: a temporal knowledge graph of typed, weighted, decaying arcs."""
