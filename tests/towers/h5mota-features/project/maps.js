var maps_features_tower =
{
	"1": {"cls": "animates", "id": "yellowWall", "canBreak": true, "trigger": "specialwall"},
	"2": {"cls": "animates", "id": "whiteWall", "canBreak": true, "trigger": "specialwall"},
	"3": {"cls": "animates", "id": "blueWall", "trigger": "fakeWall"},
	"5": {"cls": "terrains", "id": "flower", "canPass": true},
	"21": {"cls": "items", "id": "yellowKey"},
	"27": {"cls": "items", "id": "redGem"},
	"31": {"cls": "items", "id": "redPotion"},
	"81": {"cls": "animates", "id": "yellowDoor", "trigger": "openDoor", "doorInfo": {"keys": {"yellowKey": 1}}},
	"85": {"cls": "animates", "id": "specialDoor", "trigger": "openDoor", "doorInfo": {"keys": {}}},
	"87": {"cls": "terrains", "id": "upFloor", "canPass": true},
	"88": {"cls": "terrains", "id": "downFloor", "canPass": true},
	"121": {"cls": "npcs", "id": "man", "trigger": "man"},
	"122": {"cls": "npcs", "id": "woman", "trigger": "woman"},
	"123": {"cls": "npcs", "id": "oldMan"},
	"124": {"cls": "terrains", "id": "blueShop"},
	"162": {"cls": "terrains", "id": "arrowDown", "canPass": true, "cannotOut": ["left", "right", "up"], "cannotIn": ["down"]},
	"201": {"cls": "enemys", "id": "slime"},
	"203": {"cls": "enemys", "id": "demon"},
	"204": {"cls": "enemys", "id": "dragon"}
}
