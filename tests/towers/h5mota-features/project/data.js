var data_features_tower =
{
	"main": {
		"floorIds": ["F1", "F2", "F3"]
	},
	"firstData": {
		"title": "Features",
		"floorId": "F1",
		"hero": {
			"hp": 200,
			"atk": 10,
			"def": 5,
			"mdef": 0,
			"money": 0,
			"items": {"tools": {}, "constants": {}},
			"loc": {"x": 1, "y": 1}
		},
		"shops": [
			{
				"id": "altar",
				"text": "Give me ${10+5*flag:altar} gold:",
				"textInList": "Altar",
				"mustEnable": true,
				"disablePreview": false,
				"choices": [
					{
						"text": "hp +50",
						"need": "status:money>=10+5*flag:altar",
						"action": [
							{"type": "comment", "text": "the standard form of mota-js 2.8"},
							{"type": "setValue", "name": "status:money", "operator": "-=", "value": "10+5*flag:altar"},
							{"type": "setValue", "name": "flag:altar", "operator": "+=", "value": "1"},
							{"type": "setValue", "name": "status:hp", "operator": "+=", "value": "50"}
						]
					},
					{
						"text": "atk +2",
						"need": "status:money>=10+5*flag:altar",
						"action": [
							{"type": "setValue", "name": "status:money", "operator": "-=", "value": "10+5*flag:altar"},
							{"type": "setValue", "name": "flag:altar", "operator": "+=", "value": "1"},
							{"type": "setValue", "name": "status:atk", "operator": "+=", "value": "2"}
						]
					}
				]
			},
			{
				"id": "wisdom",
				"textInList": "Experience",
				"mustEnable": true,
				"choices": [
					{
						"text": "level +1",
						"need": "status:exp>=100",
						"action": [
							{"type": "setValue", "name": "status:exp", "operator": "-=", "value": "100"},
							{"type": "setValue", "name": "status:hp", "operator": "+=", "value": "1000"}
						]
					}
				]
			}
		]
	},
	"values": {
		"redGem": 2,
		"blueGem": 2,
		"redPotion": 50,
		"breakArmor": 0.9,
		"counterAttack": 0.1,
		"purify": 3
	}
}
