from games import registry


class TacocatConfig(registry.GameAppConfig):
    name = "games.tacocat"
