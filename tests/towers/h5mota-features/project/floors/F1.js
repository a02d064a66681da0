main.floors.F1=
{
    "floorId": "F1",
    "title": "First floor",
    "width": 7,
    "height": 5,
    "ratio": 1,
    "map": [
    [  1,  1,  1,  1,  1,  1,  1],
    [  1,  0,201, 21, 81, 87,  1],
    [  1,  5,  1,  1,  1,  1,  1],
    [  1,  0,122,  0,  2, 31,  1],
    [  1,  1,  1,  1,  1,  1,  1]
],
    "events": {
        "1,3": ["\t[hero]A woman stands in the way."]
    },
    "changeFloor": {
        "5,1": {"floorId": ":next", "stair": "downFloor"}
    },
    "afterBattle": {},
    "afterGetItem": {},
    "afterOpenDoor": {},
    "bgmap": [],
    "fgmap": []
}
