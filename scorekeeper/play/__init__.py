"""The digital game (``/play``): 500 Rum on a phone against bots, saved after every move."""
