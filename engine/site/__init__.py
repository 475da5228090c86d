"""Layer 3, the site: the mkdocs hook renders pages, notebooks and views. Imports run and page."""
