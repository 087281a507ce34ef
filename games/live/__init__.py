"""The live path: announcing committed changes over the channel layer, the sockets, presence, and the
socket routes."""
