"""Link play: two handhelds joined by a serial cable (docs/LINK.md). Loaded only for a link game."""
