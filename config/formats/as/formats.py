# The dates of config/formats/south_asian.py.
from config.formats.south_asian import *  # noqa: F403
