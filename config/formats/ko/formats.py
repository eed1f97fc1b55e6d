"""Dates and times as 한국어 writes them, with the seconds a round's time needs
(Django's own formats for the language fill in the rest)."""

DATETIME_FORMAT = "Y년 n월 j일 H:i:s"
SHORT_DATETIME_FORMAT = "Y. n. j. H:i"
TIME_FORMAT = "H:i:s"
