"""The 500 Rum rules engine: plain Python, no Flask, SQLAlchemy or WTForms.

Modules, in import order: ``cards`` (cards, notation, packs), ``rules`` (RuleSet and
presets), ``melds`` (sets, runs, lay-offs), ``scoring`` (points, rounds, the game),
``contract`` (the scoring contract's JSON).
"""
