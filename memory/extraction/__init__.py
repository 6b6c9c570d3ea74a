"""Turning what the user said into typed facts: spaCy rules, the LLM, entity resolution, belief update."""
