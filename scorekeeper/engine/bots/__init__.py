"""The bots (layer 6): the levels (``bots``), how they play (``strategy``, ``expert``,
``hidden``, ``rollout``, ``gambit_bots``), why they moved (``why``) and many games from the
command line (``simulate``)."""
