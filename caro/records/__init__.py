"""Game records: a page for every game (replay, move list, times), downloads, import, the
position image for link previews, "my games", and continuing a position against the computer.

A plain package of views (no models): it reads games and rooms and writes only through
`caro.games.services` and `caro.rooms.services`.
"""
