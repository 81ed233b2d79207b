"""A whole group as one JSON file: downloaded by the group's edit link, imported
elsewhere as a new group, all or nothing.

A room of its own above the table and the players features, where they meet (features
never import each other; this package imports both, and nothing imports it but the
app): each game goes through the table's single-game export and import
(:mod:`scorekeeper.table.exchange`, replayed by the engine, nothing taken on trust), the
group's name through the new-group form's checks and each player's name through the
group's name rules (:func:`scorekeeper.players.services.new_member_name`).

``reading`` reads and checks a file (nothing written), ``services`` writes it as a new
group in one transaction (the import job), ``views`` holds the routes.

The document, format ``"500rum-group/1"``::

    {"format": "500rum-group/1", "name": "Friday family",
     "rules": {"preset": "standard", "options": {...}},
     "players": ["Ann", "Bob", ...],
     "games": [{"archived": false, "game": {a game's export, "500rum-scoresheet/1"}}]}

Games at the table only: a digital game (against bots, or a shared table) stays where it
was played.
"""
