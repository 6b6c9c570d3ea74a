"""Hearth: a voice assistant with long-term personal memory (loop, CLI, composition root)."""
