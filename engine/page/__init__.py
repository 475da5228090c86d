"""Layer 1, the page: its syntax, markers and parsed model. Imports nothing above it."""
