"""Italian date formats of the site, over Django's own (``FORMAT_MODULE_PATH``).

A date and time printed without a format of its own ("{{ hand.started_at }}", the back office's
list columns) is "6 dic 2026 10:50", as the site's pages write them: Django's "domenica 06
dicembre 2026 10:50" made every back-office list with two such columns wider than a laptop.
"""

DATETIME_FORMAT = "j b Y H:i"
