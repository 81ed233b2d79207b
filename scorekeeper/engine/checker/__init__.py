"""The checker (layer 5): every legal meld holding one card (``candidates``), which
discards may be taken (``advice``) and why a meld or lay-off is legal (``explain``)."""
