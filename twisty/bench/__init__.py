"""The benchmarks behind `twisty bench`: suites shipped as package data, each engine against a baseline in
the same run, results as rows for tables and JSON. Nothing here prints; the commands do."""
