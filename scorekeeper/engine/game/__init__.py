"""The digital game (layer 4): moves (``actions``), the state and seat views (``state``),
the melds a hand holds (``hand_melds``), legal moves and making them (``taking``,
``plays``, ``draws``, ``windows``, ``gambit``, ``turns``), dealing and ending rounds
(``deal``) and game records (``records``, ``turn_shape``)."""
