"""The one place the cctviz version is written (package.json is checked against it by a test)."""

__version__ = "0.1.0"
