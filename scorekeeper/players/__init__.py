"""Players across game nights: groups, profiles, head-to-head and seasons."""
