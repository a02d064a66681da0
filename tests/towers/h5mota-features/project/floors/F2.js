main.floors.F2=
{
    "floorId": "F2",
    "title": "Second floor",
    "width": 7,
    "height": 5,
    "ratio": 1,
    "map": [
    [  1,  1,  1,124,  1,  1,  1],
    [  1, 88,  0,  0,203, 27,  1],
    [  1,  1,  1,162,  1,  0,  1],
    [  1, 87,123,  0,  3,  0,  1],
    [  1,  1,  1,  1,  1,  1,  1]
],
    "events": {
        "3,0": [{"type": "openShop", "id": "altar", "open": true}],
        "4,1": {"trigger": null, "enable": false, "noPass": null, "data": []},
        "2,3": ["\t[oldMan]Go on, I am leaving.", {"type": "hide", "time": 500}]
    },
    "changeFloor": {
        "1,1": {"floorId": ":before", "stair": "upFloor"},
        "1,3": {"floorId": ":next", "stair": "downFloor"}
    },
    "afterBattle": {},
    "afterGetItem": {},
    "afterOpenDoor": {},
    "bgmap": [
    [  0,  0,  0,  0,  0,  0,  0],
    [  0,  0,  0,  0,  0,  0,  0],
    [  0,  0,  0,  0,  0, 17,  0],
    [  0,  0,  0,  0,  0,  0,  0],
    [  0,  0,  0,  0,  0,  0,  0]
],
    "fgmap": []
}
