var plugins_features_tower =
{
	"npcs": function () {
		// The tower's own triggers (never run by twisty: their names go into the loss report).
		core.registerSystemEvent("man", function (data, callback) {
			var floor = parseInt(core.status.floorId.substring(2));
			core.insertAction([{"type": "insert", "name": "talk", "args": [floor, core.nextX()]}]);
			if (callback) callback();
		});
		core.registerSystemEvent("woman", function (data, callback) {
			core.insertAction([{"type": "insert", "name": "merchant"}]);
			if (callback) callback();
		});
		core.registerSystemEvent("specialwall", function (data, callback) {
			if (data.event.id == 'whiteWall' || core.getFlag('talking') > 0)
				core.insertAction({"type": "openDoor", "loc": [data.x, data.y]});
			if (callback) callback();
		});
		core.registerSystemEvent("fakeWall", function (data, callback) {
			core.insertAction({"type": "openDoor", "loc": [data.x, data.y]});
			if (callback) callback();
		});
	}
}
