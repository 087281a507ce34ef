"""The record of matches: ratings, the export, fair play's chained log, charts, takebacks. fairplay,
takeback and charts are pure (the models use fairplay); ratings and export read the models."""
