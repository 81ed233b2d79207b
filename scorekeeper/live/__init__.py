"""Live updates: a move wakes the event streams of every process that holds its game.

``keys`` names what a stream waits on; ``bus`` is each process's one wake-up (streams held,
notices published after a commit, the sweep); ``listeners`` hear the notices (Redis,
PostgreSQL or a shared SQLite check, nudged through ``nudges``); ``streams`` are the event
streams' lines and responses; ``caps`` bound how many a process, a link, a session and an
address hold."""
