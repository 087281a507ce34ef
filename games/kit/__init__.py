"""Pure building blocks every game's engine shares: secret-carrying events, input checks, seeded shuffles.

Like the engines, nothing here imports Django or does I/O (``tests/games/test_pure_modules.py`` checks).
"""
