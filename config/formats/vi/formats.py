"""Dates and times as Tiếng Việt writes them, with the seconds a round's time needs
(Django's own formats for the language fill in the rest)."""

DATETIME_FORMAT = "H:i:s d/m/Y"
SHORT_DATETIME_FORMAT = "H:i d/m/Y"
TIME_FORMAT = "H:i:s"
