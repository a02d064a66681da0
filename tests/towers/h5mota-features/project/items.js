var items_features_tower =
{
	"redGem": {"cls": "items", "name": "Red gem", "itemEffect": "core.status.hero.atk += core.values.redGem * core.status.thisMap.ratio"},
	"redPotion": {"cls": "items", "name": "Red potion", "itemEffect": "core.status.hero.hp += core.values.redPotion * core.status.thisMap.ratio"},
	"yellowKey": {"cls": "tools", "name": "Yellow key"}
}
