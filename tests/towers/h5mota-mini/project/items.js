var items_mini_tower =
{
	"redGem": {"cls": "items", "name": "Red gem", "itemEffect": "core.status.hero.atk += core.values.redGem * core.status.thisMap.ratio"},
	"redPotion": {"cls": "items", "name": "Red potion", "itemEffect": "core.status.hero.hp += core.values.redPotion * core.status.thisMap.ratio"},
	"greenKey": {"cls": "tools", "name": "Green key"},
	"yellowKey": {"cls": "tools", "name": "Yellow key"},
	"pickaxe": {"cls": "tools", "name": "Pickaxe", "useItemEffect": "core.removeBlock(core.nextX(), core.nextY());"}
}
