from games import registry


class ReversiConfig(registry.GameAppConfig):
    name = "games.reversi"
