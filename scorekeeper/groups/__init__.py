"""Groups: the people who play together, shared by the table and the players features
(which never import each other): ``members`` (a group's rights on this phone, its players
picked for a game, seats matched to members), ``facts`` (each game's stored facts, summed
for the figures), ``archive`` (a whole group as one JSON file, downloaded and imported)
and ``services`` (the group's writes: a game started for it, an imported group written)."""
