"""Passages levels written in the genre's own formats: h5mota projects (mota-js) and magic-tower-AI maps.

The inverse of twisty.importers: each exporter writes a level so that the importer of its format reads the
same level back (the tests hold `import(export(level))` to the same answers), and refuses, with a message
naming the file and the place, anything the format cannot say exactly, rather than write another level.
"""
