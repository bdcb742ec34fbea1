"""Statistics over an ensemble's runs: series, trends and their spread, configurations and
environment, changes (regressions) and their report, explanations, and the ensemble as a Hatchet
GraphFrame or a Thicket. They ask an engine for reduced values; they know no widget."""
