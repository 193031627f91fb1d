"""bitka in the players' languages: which language a request is read in, the gettext
catalogs of the pages, the log's own sentences read back in another language, and money
as each language writes it."""
