"""The voice loop: an explicit state machine (pure) and the runner that drives it with real audio stages."""
