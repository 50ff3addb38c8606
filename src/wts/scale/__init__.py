"""Runs past one process: self-play data and matches on local, process or Ray backends."""
