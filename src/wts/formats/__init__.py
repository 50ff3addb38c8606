"""Games as text and pictures: position strings, game records and SVG boards."""
