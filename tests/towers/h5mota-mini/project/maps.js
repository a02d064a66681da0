var maps_mini_tower =
{
	"1": {"cls": "animates", "id": "yellowWall", "canBreak": true},
	"21": {"cls": "items", "id": "yellowKey"},
	"24": {"cls": "items", "id": "greenKey"},
	"27": {"cls": "items", "id": "redGem"},
	"31": {"cls": "items", "id": "redPotion"},
	"45": {"cls": "items", "id": "pickaxe"},
	"81": {"cls": "animates", "id": "yellowDoor", "trigger": "openDoor", "doorInfo": {"keys": {"yellowKey": 1}}},
	"84": {"cls": "animates", "id": "greenDoor", "trigger": "openDoor", "doorInfo": {"keys": {"greenKey": 1}}},
	"85": {"cls": "animates", "id": "specialDoor", "trigger": "openDoor", "doorInfo": {"keys": {}}},
	"87": {"cls": "terrains", "id": "upFloor"},
	"88": {"cls": "terrains", "id": "downFloor"},
	"121": {"cls": "npcs", "id": "man"},
	"201": {"cls": "enemys", "id": "slime"},
	"202": {"cls": "enemys", "id": "bat"},
	"203": {"cls": "enemys", "id": "guard"}
}
