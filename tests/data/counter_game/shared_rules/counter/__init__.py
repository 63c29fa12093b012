"""Counter: two players take turns adding 1, 2 or 3 to a total; the one who makes it 10 wins.
The smallest game on the protocol (docs/adding-a-game.md): game.py is its protocol class."""
