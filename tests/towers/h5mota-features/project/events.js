var events_c12a15a8_c380_4b28_8144_256cba95f760 =
{
	"commonEvent": {
		"merchant": [
			{"type": "switch", "condition": "parseInt(core.status.floorId.substring(2))", "caseList": [
				{"case": "1", "action": [{"type": "setValue", "name": "flag:price", "value": "999"}]},
				{"case": "default", "action": [{"type": "setValue", "name": "flag:price", "value": "30"}]}
			]},
			{"type": "choices", "text": "\t[woman]A blue key for ${flag:price} gold?", "choices": [
				{"text": "Yes", "action": [
					{"type": "if", "condition": "(status:money >= flag:price)", "true": [
						{"type": "setValue", "name": "status:money", "operator": "-=", "value": "flag:price"},
						{"type": "setValue", "name": "item:blueKey", "operator": "+=", "value": "1"}
					], "false": ["\t[woman]Not enough gold."]}
				]},
				{"text": "No", "action": []}
			]}
		],
		"talk": [
			{"type": "switch", "condition": "flag:arg1", "caseList": [
				{"case": "3", "action": [{"type": "setValue", "name": "status:money", "operator": "+=", "value": "100"}]}
			]},
			"\t[man]Each talk lets you through one wall.",
			{"type": "setValue", "name": "flag:talking", "value": "2"},
			{"type": "hide", "loc": ["core.nextX()", "core.nextY()"], "remove": true}
		]
	}
}
