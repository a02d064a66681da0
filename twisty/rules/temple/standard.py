"""The standard temple: the rulebook's components as data, so that a round file can say
`temple = "standard"` and list only what changes.

The rulebook's temple has 13 room cards and 3 door cards (16 rooms: the 13 card rooms and the 3 door rooms,
4 x 4), doors in pink, blue and green, 8 variable walls of which 5 stand in the temple at the start, and two
fixed inner walls. Its exact drawing is not in the rulebook's text, so this layout is twisty's: the door
rooms sit on three different sides (blue on the left, green on the right, pink at the bottom; no door in
the top), the fixed walls stand in the middle, and the five variable walls stand where the first game puts
them here ("Insert the walls as shown in the example": the example's picture is not in the text).
"""

STANDARD_NAME = "standard"

# The drawing format is docs/temple.md's: rooms are letters, `|` and `-` variable walls, `#` fixed walls,
# door letters stand in the frame beside their room.
STANDARD_TEXT = '''
game = "temple"

[temple]
name = "standard"
map = """
+-------+
|a b|c d|
|-      |
Be f g#h|
|  #   -|
|i j k lG
|-   -  |
|m n o p|
+--P----+
"""
doors = { B = "blue", G = "green", P = "pink" }
pieces = 8

[temple.rooms]
a = "altar"
b = "bats"
c = "crypt"
d = "dais"
e = "blue_gate"
f = "fate"
g = "garden"
h = "hall"
i = "idol"
j = "jade"
k = "kiln"
l = "green_gate"
m = "mural"
n = "pink_gate"
o = "oracle"
p = "pool"
'''
