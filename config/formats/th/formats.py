"""Dates and times as ไทย writes them, with the seconds a round's time needs
(Django's own formats for the language fill in the rest)."""

DATETIME_FORMAT = "j/n/Y H:i:s"
SHORT_DATETIME_FORMAT = "j/n/Y H:i"
TIME_FORMAT = "H:i:s"
