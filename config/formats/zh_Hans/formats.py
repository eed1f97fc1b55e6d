"""Dates and times as 简体中文 writes them, with the seconds a round's time needs
(Django's own formats for the language fill in the rest)."""

DATETIME_FORMAT = "Y年n月j日 H:i:s"
SHORT_DATETIME_FORMAT = "Y/n/j H:i"
TIME_FORMAT = "H:i:s"
