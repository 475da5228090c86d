"""Maintainer tools (drift, matrix, scaffold, page outputs): never imported by the build."""
