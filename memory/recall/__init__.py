"""Recall: answering questions from memory with generated, guarded read-only Cypher."""
