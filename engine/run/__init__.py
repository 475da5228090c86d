"""Layer 2, the run: each page's code in its own process, results cached. Imports page only."""
