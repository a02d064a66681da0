var enemys_features_tower =
{
	"slime": {"name": "Slime", "hp": 20, "atk": 15, "def": 2, "money": 10, "special": 0},
	"demon": {"name": "Demon", "hp": 999, "atk": 999, "def": 999, "money": 0, "special": 0},
	"dragon": {"name": "Dragon", "hp": 40, "atk": 25, "def": 8, "money": 0, "special": 0}
}
