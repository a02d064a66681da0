var data_mini_tower =
{
	"main": {
		"floorIds": ["F1", "F2"]
	},
	"firstData": {
		"title": "Mini",
		"floorId": "F1",
		"hero": {
			"hp": 100,
			"atk": 10,
			"def": 5,
			"mdef": 0,
			"money": 0,
			"items": {"tools": {"yellowKey": 1}, "constants": {}},
			"loc": {"x": 1, "y": 1}
		}
	},
	"values": {
		"redGem": 2,
		"blueGem": 2,
		"greenGem": 5,
		"redPotion": 50,
		"breakArmor": 0.9,
		"counterAttack": 0.1,
		"purify": 3
	}
}
