"""The 500 Rum rules engine: plain Python, no Flask, SQLAlchemy or WTForms.

Modules, each importing only earlier ones:

- ``cards``: cards, the notation (7H, 10♦, JK=7C), packs, seeded shuffles.
- ``rules``: :class:`RuleSet`, one option per catalogue row (D1 to X2), and the presets.
- ``melds``: sets, runs, jokers, lay-offs: legal or not, and which rule says no.
- ``values``: each card's points in its place (S1 to S5, S9).
- ``checks``: a round as the table states it, and whether the rules allow it.
- ``outcome``: figures, sides, the winner by target and tie-break, the settlement.
- ``scoring``: a round scored and explained card by card; the public face of the three
  modules before it.
- ``reading``: a round written in the card notation (a contract request's melds,
  lay-offs and hands, a table's round entered card by card) read into a ``RoundPlay``,
  every problem located; a score sheet's round scored.
- ``contract``: the scoring contract's JSON (shared/score-contract.md), for the API and
  the command line.
- ``tally``: a round scored from the figures a table counts, without the cards.
- ``candidates``: every legal meld holding one card, from the cards at hand.
- ``advice`` and ``explain``: the checker's answers (which discards may be taken; why a
  meld or lay-off is legal).
- the digital game: ``actions`` (moves), ``state`` (state and seat views), ``moves``,
  ``plays``, ``draws``, ``windows``, ``turns`` (legal moves and making them), ``rounds``
  (dealing and ending rounds), ``bots`` and ``strategy`` (bots), ``records`` (game
  records, shared/game-record.md; ``turn_shape`` a record's turns, both ways),
  ``simulate`` (many games from the command line);
  ``game`` is their one import.
"""
