"""PC side of link play: the virtual cable (docs/LINK.md)."""
