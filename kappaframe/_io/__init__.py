"""Files for people and jobs: formats, reading with progress, atomic writing."""
