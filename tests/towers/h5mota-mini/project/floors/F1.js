main.floors.F1=
{
    "floorId": "F1",
    "title": "First floor",
    "width": 7,
    "height": 5,
    "ratio": 1,
    "map": [
    [  1,  1,  1,  1,  1,  1,  1],
    [  1,  0,201,  0, 81, 87,  1],
    [  1, 27,  1,  1,  1,  1,  1],
    [  1, 31, 24,  1,  1,  1,  1],
    [  1,  1,  1,  1,  1,  1,  1]
],
    "firstArrive": [{"type": "tip", "text": "Welcome"}],
    "events": {},
    "changeFloor": {
        "5,1": {"floorId": ":next", "stair": "downFloor"}
    },
    "afterBattle": {},
    "afterGetItem": {},
    "afterOpenDoor": {}
}
