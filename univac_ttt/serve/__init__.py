"""``univac-ttt serve``: every telnet or SSH terminal gets its own UNIVAC."""
