"""CLI subcommands; each module registers its parser and a handler taking (app, args)."""
