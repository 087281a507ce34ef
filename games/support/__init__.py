"""Game-independent helpers any layer may use: translation and digits, compiled SQL, bounds on
untrusted input, paces, metrics, deadlines."""
