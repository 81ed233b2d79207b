"""Scorekeeping at a real table (``/`` and ``/games/...``): games, rounds by totals or by
cards, standings, corrections with undo, sharing, export and import."""
