from games import registry


class NimConfig(registry.GameAppConfig):
    name = "tests.nim"
