"""The package version (one place; read by the build backend)."""

__version__ = "0.1.0"
