"""Temple Twist rounds the tests share."""

# The largest temple the format takes but one (8 x 7 rooms, 97 slots): four seats of six cards, most of them
# wall cards, so that a state has thousands of successors (wall2's pairs of builds alone are C(92, 2)); four
# revealed rooms and a secret one, far apart. No engine answers it within a few seconds: the rounds of the
# deadline tests.
GREAT_TEMPLE = """
game = "temple"
name = "The great temple"
revealed = ["a", "G", "t", "Y"]
door = "pink"
walls = ["b-c", "i-p", "q-r", "y-F", "M-N"]
supply = 3
hands = [
    ["wall2", "wall2", "move", "turnAny", "wall1", "turn2"],
    ["wall2", "move", "wall1", "turn1", "wall2", "move"],
    ["turnAny", "wall2", "wall1", "move", "wall2", "turn1"],
    ["move", "wall2", "turn2", "wall1", "wall2", "turnAny"],
]

[challenges]
secret_mission = "R"

[temple]
name = "great"
map = \"\"\"
+-------------+
|a b c d e f g|
|             |
|h i j k l m n|
|             |
|o p q r s t u|
|             |
|v w x y z A B|
|             |
|C D E F G H I|
|             |
|J K L M N O Q|
|             |
|R S T U V W X|
|             |
|Y Z 1 2 3 4 5|
+--P----------+
\"\"\"
doors = { P = "pink" }
pieces = 8

[temple.rooms]
1 = "r1"
2 = "r2"
3 = "r3"
4 = "r4"
5 = "r5"
"""
