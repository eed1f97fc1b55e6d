"""Dates and times on English pages: ISO 8601, to the second (what a dispute quotes)."""

DATETIME_FORMAT = "Y-m-d H:i:s"
SHORT_DATETIME_FORMAT = "Y-m-d H:i"
TIME_FORMAT = "H:i:s"
