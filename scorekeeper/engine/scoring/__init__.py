"""The scoring layer (layer 3): a round as the table states it checked (``checks``), its
outcome (``outcome``), scored card by card (``score_round``) or from counted figures
(``tally``), read from the card notation (``notation``), and the scoring contract's JSON
(``contract``)."""
