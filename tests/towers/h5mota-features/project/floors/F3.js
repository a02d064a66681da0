main.floors.F3=
{
    "floorId": "F3",
    "title": "Third floor",
    "width": 5,
    "height": 4,
    "ratio": 1,
    "map": [
    [  1,  1,  1,  1,  1],
    [  1, 88,  0,204,  1],
    [  1,121, 85,  1,  1],
    [  1,  1,  1,  1,  1]
],
    "events": {},
    "changeFloor": {
        "1,1": {"floorId": ":before", "stair": "upFloor"}
    },
    "afterBattle": {
        "3,1": [{"type": "win", "reason": "The dragon is slain"}]
    },
    "afterGetItem": {},
    "afterOpenDoor": {},
    "bgmap": [],
    "fgmap": []
}
