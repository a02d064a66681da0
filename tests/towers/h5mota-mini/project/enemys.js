var enemys_mini_tower =
{
	// comments and bare keys are JSON5, as in real projects
	"slime": {"name": "Slime", "hp": 20, "atk": 12, "def": 2, "money": 3, "special": 0},
	"bat": {"name": "Bat", "hp": 30, "atk": 15, "def": 0, "money": 5, "special": [4]},
	guard: {name: "Guard", hp: 50, atk: 20, def: 5, money: 0, special: 15,},
}
