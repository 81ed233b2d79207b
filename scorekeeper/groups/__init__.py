"""Groups: the people who play together, shared by the table and the players features
(which never import each other): ``members`` (a group's rights on this phone, its players
picked for a game, seats matched to members), ``facts`` (each game's stored facts, summed
for the figures) and ``services`` (a game started in the group). A group's file, which
needs both features, has a room of its own above them: :mod:`scorekeeper.group_files`."""
