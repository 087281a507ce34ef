from games import registry


class DosConfig(registry.GameAppConfig):
    name = "games.dos"
