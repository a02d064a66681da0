main.floors.F2=
{
    "floorId": "F2",
    "title": "Second floor",
    "width": 7,
    "height": 5,
    "ratio": 1,
    "map": [
    [  1,  1,  1,  1,  1,  1,  1],
    [  1, 88,  0,202, 84,  0,  1],
    [  1,  0,  1,  1,  1, 87,  1],
    [  1,121, 45,203, 85,  0,  1],
    [  1,  1,  1,  1,  1,  1,  1]
],
    "events": {
        "1,3": ["\t[man]Take this.", {"type": "setValue", "name": "status:atk", "operator": "+=", "value": "100"}]
    },
    "changeFloor": {
        "1,1": {"floorId": ":before", "stair": "upFloor"},
        "5,2": {"floorId": ":next", "stair": "downFloor"}
    },
    "afterBattle": {},
    "afterGetItem": {},
    "afterOpenDoor": {}
}
