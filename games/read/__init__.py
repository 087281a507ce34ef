"""The read side: what the pages and the live path show (queries, how a match ended, replays, the match
page's context). Nothing here changes a match: games.services does."""
