from games import registry


class BackAlleyConfig(registry.GameAppConfig):
    name = "games.backalley"
