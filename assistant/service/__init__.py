"""Hearth as a local service: the application interface, its HTTP API and the review page."""
