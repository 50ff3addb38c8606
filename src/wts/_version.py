"""The package version, kept in this one place."""

__version__ = "0.2.0"
