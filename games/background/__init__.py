"""Work outside requests: the computer players and their worker processes, the clock, mail and push,
the post-game analysis."""
