"""A digital game on several phones: the host's table of seats, each a person with a phone
or a bot (``forms``, ``views``); who sits where (``seating``) and what changes a table
(``services``, the only module here that commits); each seat's live stream (``events``) and
the spectator board for a TV (``watch``)."""
